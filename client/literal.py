"""Strings shown as they are: never read as markup.

Rich and Textual read `[...]` in a plain `str` handed to a widget, a DataTable
cell or a Rich table cell or header as markup, so a table or player named `[/x]`
stopped every client that drew it (MarkupError) and `[reverse]ADMIN[/]`
restyled other people's screens.  A `Text` is drawn as it is.  Every string the
client shows goes through `plain` (names from the wire, refusals that quote
them, and the i18n templates filled with them), and the client's `Static`s are
made with `markup=False`; the client's own words hold no markup either.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text


def plain(value: str | Text, style: str = "") -> Text:
    """`value` as literal text (a `Text` is already literal and is kept as it is)."""
    if isinstance(value, Text):
        return value
    return Text(value, style=style)


def plain_cells(*cells: str | RenderableType) -> list[RenderableType]:
    """A table row with every `str` cell made literal (other renderables kept)."""
    return [plain(c) if isinstance(c, str) else c for c in cells]
