"""Players that are programs: each sees only its seat's view and returns an action."""

from .base import Bot, make_bot, play_hand_with_bots

__all__ = ["Bot", "make_bot", "play_hand_with_bots"]
