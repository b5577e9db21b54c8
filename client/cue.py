"""The prompt line's cue never hides: a refusal or a note stands above what to do now,
and lasts a few seconds or until it is no longer true (the turn moved on, the game
started, the link came back).  Mixed into the table screen, which owns the state."""

from __future__ import annotations

from .prompt import keys_line, prompt

#: Seconds a refusal or a note stays on the prompt line.
MESSAGE_SECONDS = 5.0


class Cue:
    """The table screen's prompt line: `message` (a refusal, red), `note` (plain) and the
    step the seat is asked, from the screen's model and plan."""

    def _moment(self) -> tuple:
        """What a refusal is about: the step asked and the turn it was asked in."""
        m = self.model
        return (self._step(), m.turn_seq, m.started, m.hand_number)

    def forget_stale(self) -> None:
        """The model changed: a refusal about an earlier moment goes."""
        if self.message and getattr(self, "_said_at", None) != self._moment():
            self.message = ""

    def watch_message(self, message: str) -> None:
        self._said_at = self._moment()
        self._expire("message", message)

    def watch_note(self, note: str) -> None:
        self._expire("note", note)

    def _expire(self, name: str, text: str) -> None:
        """A message or a note lasts MESSAGE_SECONDS (not the tutor's, while it thinks)."""
        timers = self.__dict__.setdefault("_cue_timers", {})
        old = timers.pop(name, None)
        if old is not None:
            old.stop()
        if not text or not self.is_mounted:
            return

        def clear() -> None:
            if getattr(self, name) == text and not (name == "note" and self._tutoring is not None):
                setattr(self, name, "")

        timers[name] = self.set_timer(MESSAGE_SECONDS, clear)

    def compute_said(self) -> tuple[str, ...]:
        """A refusal or a note, and under it what to do now."""
        said = prompt(self.model, self.plan, self.message, self.note, self.speed)
        if self.message or self.note:
            cue = prompt(self.model, self.plan, "", "", self.speed)
            if cue[0] and cue[0] != said[0]:
                return (said[0] + "\n", said[1], *cue)
        return said

    def compute_keys(self) -> tuple[str, str]:
        online = self.session is not None
        lan = online and getattr(self.app, "quick", True) is None  # `join`: a LAN table
        return keys_line(self.model, online, self.tutor, lan, self.app.size.width >= 100)
