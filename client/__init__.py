"""The Textual client: knows the wire contract (`cursedbottle.v1`) and how to draw.

It imports nothing of the server, the solver or the bots, and nothing of the
engine: cards are drawn from the wire's own fields.  Start it with
`cursed-bottle play` (a local game against bots) or `cursed-bottle join HOST`.
"""

from .app import CursedBottleApp, QuickGame

__all__ = ["CursedBottleApp", "QuickGame"]
