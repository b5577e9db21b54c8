"""An answer that arrives after its screen was taken down.

A screen's worker awaits the server, then shows the answer in the screen's
widgets.  If the screen was closed, or the app is quitting, while the answer
was on its way, the widgets are gone: a query for them would fail the
worker, and a failed worker ends the app.  The worker asks this first and
drops the answer.
"""

from __future__ import annotations

from textual.screen import Screen


def taken_down(screen: Screen, selector: str) -> bool:
    """Whether `screen`'s widget `selector` is gone: nothing left to show an answer in."""
    return not screen.query(selector)
