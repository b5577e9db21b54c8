"""The `cursed-bottle` command."""
