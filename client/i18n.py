"""Words and card names in English and German.

The client draws cards from the wire (`Card.rank`, `Card.suit`, `Card.order`)
rather than importing the engine's card module: the wire already carries
everything a person needs to see, and the client stays independent of the
engine's import graph.
"""

from __future__ import annotations

import locale
import os
from importlib import resources

from cursedbottle.v1 import game_pb2

LANGS = ("en", "de")

_SUIT_SYMBOL = {
    game_pb2.SUIT_DIAMONDS: "♦",
    game_pb2.SUIT_HEARTS: "♥",
    game_pb2.SUIT_SPADES: "♠",
}
_SUIT_LETTER = {game_pb2.SUIT_DIAMONDS: "D", game_pb2.SUIT_HEARTS: "H", game_pb2.SUIT_SPADES: "S"}
#: Short rank names (RULES.md: German Bube = B, Dame = D; the ace stays "A" on a
#: card face so that a hand of 12 cards fits 80 columns).
_RANKS = {"en": {}, "de": {"J": "B", "Q": "D"}}
_JOKER = {"en": "joker (6½)", "de": "Joker (6½)"}

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Cursed Bottle",
        "hand_no": "Hand {n}",
        "price": "Price",
        "bottle": "Bottle",
        "nobody": "nobody",
        "pile": "Pile",
        "cards": "{n} cards",
        "dealer": "deals",
        "taken": "taken",
        "total": "total",
        "trick": "Trick",
        "last_trick": "Last trick",
        "your_hand": "Your hand",
        "hand_n": "Hand {n}",
        "open": "open",
        "hidden": "hidden",
        "log": "Log",
        "shows": "{name} shows",
        "lopaka": "Lopaka",
        "you": "you",
        "waiting_start": "Waiting for players… {free} seat(s) free. Press s to start when full.",
        "waiting": "Waiting for the others…",
        "your_turn_play": "Your turn: play a card (←/→, number, Enter or click).",
        "your_turn_pile": "Choose the card for the bottle's pile (Enter).",
        "your_turn_pass": "Choose the card to pass to {name} (Enter).",
        "confirm_pass": "Pile {pile}; pass {passes}. Enter: confirm · Esc: choose again.",
        "confirm_pass_only": "Pass {passes}. Enter: confirm · Esc: choose again.",
        "to_name": "{card} to {name}",
        "choose_open": "Which hand lies open? 1 or 2 (↑/↓, Enter).",
        "sent": "Sent. Waiting for the others…",
        "spectating": "Watching. +/− changes the speed ({speed}).",
        "game_over_line": "Game over: {name} wins.",
        "reconnecting": "Connection lost, reconnecting…",
        "reconnected": "Reconnected.",
        "refused": "Refused: {msg}",
        "hint_title": "Hint (best first)",
        "hint_wait": "Thinking…",
        "hint_none": "No hint now: it is not your turn.",
        "hint_later": "Confirm (Enter) or choose again (Esc); hints are for the choices.",
        "hint_value": "value",
        "hint_best": "best",
        "hint_close": "Esc/h: close · Enter: play the best card",
        "hand_over": "Hand {n} is over",
        "pile_was": "The pile: {cards} ({points} points)",
        "owner_is": "The bottle stays with {name} (price {price}).",
        "nobody_bought": "Nobody bought the bottle.",
        "why_owner": "owns the bottle: −{pile} pile points",
        "why_owner_hot": "owns the bottle: −({pile} pile + {own} own) points",
        "why_tricks": "{points} points in tricks",
        "why_lopaka": "Lopaka (never counts)",
        "score": "score",
        "continue": "Enter: continue",
        "game_over": "Game over",
        "winner": "{name} wins with {points} points.",
        "sheet": "Score sheet",
        "quit_hint": "q: quit",
        "lobby": "Tables at {target}",
        "lobby_keys": "n: new table · Enter: join · w: watch · r: refresh · q: quit",
        "no_tables": "No tables yet: press n to create one.",
        "col_name": "Table",
        "col_rules": "Rules",
        "col_state": "State",
        "col_seats": "Seats",
        "state_waiting": "waiting",
        "state_playing": "playing",
        "state_finished": "finished",
        "create": "New table",
        "f_name": "Table name",
        "f_players": "Players",
        "f_variant": "Variant",
        "f_end": "Game ends",
        "f_value": "Target points or hands",
        "f_who": "You",
        "w_play": "sit down and play",
        "w_watch": "only watch (bots play)",
        "f_bots": "Bots in the empty seats",
        "v_plain": "plain",
        "v_hot": "hot bottle",
        "v_bright": "bright house (2 players)",
        "e_target": "at a target score",
        "e_hands": "after a number of hands",
        "b_none": "none (wait for people)",
        "b_create": "Create",
        "b_cancel": "Cancel",
        "rules_title": "Rules",
        "seat_empty": "(empty)",
        "seat_bot": "bot",
        "connecting": "Connecting to {target}…",
        "cannot_connect": "Cannot reach {target}: {msg}",
        "log_hand": "— Hand {n}: {name} deals —",
        "log_lopaka": "Lopaka's open hand: {cards}",
        "log_passed": "{a} passed {card} to {b}",
        "log_passed_hidden": "{a} passed a card to {b}",
        "log_open": "{name} lays hand {n} open: {cards}",
        "log_trick": "{name} wins trick {n}",
        "log_buys": "{name} wins trick {n} and buys the bottle at {price}",
        "log_hand_end": "Hand {n} over: {scores}",
        "log_game_end": "Game over: {name} wins.",
        "log_speed": "Speed: {speed}",
        "speed_instant": "instant",
        "speed_s": "{s} s per step",
        "plays": "plays",
        "trick_to": "{name} takes it",
        "my_pile": "Your card in the pile",
        "trick_buys": "{name} buys the bottle at {price}",
        "keys_table": "Enter play · ←→ choose · h hint · ? rules · Esc undo · q quit",
        "keys_watch": "+/− speed · ? rules · q quit",
    },
    "de": {
        "title": "Verfluchte Flasche",
        "hand_no": "Runde {n}",
        "price": "Preis",
        "bottle": "Flasche",
        "nobody": "niemand",
        "pile": "Stapel",
        "cards": "{n} Karten",
        "dealer": "gibt",
        "taken": "Stiche",
        "total": "gesamt",
        "trick": "Stich",
        "last_trick": "Letzter Stich",
        "your_hand": "Deine Hand",
        "hand_n": "Hand {n}",
        "open": "offen",
        "hidden": "verdeckt",
        "log": "Verlauf",
        "shows": "{name} zeigt",
        "lopaka": "Lopaka",
        "you": "du",
        "waiting_start": "Warte auf Mitspieler… {free} Platz/Plätze frei. s startet, wenn voll.",
        "waiting": "Warte auf die anderen…",
        "your_turn_play": "Du bist dran: spiel eine Karte (←/→, Zahl, Enter oder Klick).",
        "your_turn_pile": "Wähle die Karte für den Flaschenstapel (Enter).",
        "your_turn_pass": "Wähle die Karte für {name} (Enter).",
        "confirm_pass": "Stapel {pile}; {passes}. Enter: bestätigen · Esc: neu wählen.",
        "confirm_pass_only": "{passes}. Enter: bestätigen · Esc: neu wählen.",
        "to_name": "{card} an {name}",
        "choose_open": "Welche Hand liegt offen? 1 oder 2 (↑/↓, Enter).",
        "sent": "Gesendet. Warte auf die anderen…",
        "spectating": "Zuschauen. +/− ändert das Tempo ({speed}).",
        "game_over_line": "Spielende: {name} gewinnt.",
        "reconnecting": "Verbindung verloren, verbinde neu…",
        "reconnected": "Wieder verbunden.",
        "refused": "Abgelehnt: {msg}",
        "hint_title": "Tipp (beste zuerst)",
        "hint_wait": "Denke nach…",
        "hint_none": "Kein Tipp: du bist nicht dran.",
        "hint_later": "Bestätigen (Enter) oder neu wählen (Esc); Tipps gibt es beim Wählen.",
        "hint_value": "Wert",
        "hint_best": "beste",
        "hint_close": "Esc/h: schließen · Enter: beste Karte spielen",
        "hand_over": "Runde {n} ist vorbei",
        "pile_was": "Der Stapel: {cards} ({points} Punkte)",
        "owner_is": "Die Flasche bleibt bei {name} (Preis {price}).",
        "nobody_bought": "Niemand hat die Flasche gekauft.",
        "why_owner": "besitzt die Flasche: −{pile} Stapelpunkte",
        "why_owner_hot": "besitzt die Flasche: −({pile} Stapel + {own} eigene) Punkte",
        "why_tricks": "{points} Punkte in Stichen",
        "why_lopaka": "Lopaka (zählt nie)",
        "score": "Wertung",
        "continue": "Enter: weiter",
        "game_over": "Spielende",
        "winner": "{name} gewinnt mit {points} Punkten.",
        "sheet": "Punkteblock",
        "quit_hint": "q: beenden",
        "lobby": "Tische auf {target}",
        "lobby_keys": "n: neuer Tisch · Enter: setzen · w: zuschauen · r: neu laden · q: beenden",
        "no_tables": "Noch keine Tische: n legt einen an.",
        "col_name": "Tisch",
        "col_rules": "Regeln",
        "col_state": "Stand",
        "col_seats": "Plätze",
        "state_waiting": "wartet",
        "state_playing": "läuft",
        "state_finished": "beendet",
        "create": "Neuer Tisch",
        "f_name": "Name des Tischs",
        "f_players": "Spieler",
        "f_variant": "Variante",
        "f_end": "Spielende",
        "f_value": "Zielpunkte oder Runden",
        "f_who": "Du",
        "w_play": "mitspielen",
        "w_watch": "nur zuschauen (Bots spielen)",
        "f_bots": "Bots auf freien Plätzen",
        "v_plain": "normal",
        "v_hot": "heiße Flasche",
        "v_bright": "helles Haus (2 Spieler)",
        "e_target": "bei Zielpunkten",
        "e_hands": "nach Anzahl Runden",
        "b_none": "keine (auf Menschen warten)",
        "b_create": "Anlegen",
        "b_cancel": "Abbrechen",
        "rules_title": "Regeln",
        "seat_empty": "(frei)",
        "seat_bot": "Bot",
        "connecting": "Verbinde mit {target}…",
        "cannot_connect": "{target} nicht erreichbar: {msg}",
        "log_hand": "— Runde {n}: {name} gibt —",
        "log_lopaka": "Lopakas offene Hand: {cards}",
        "log_passed": "{a} gab {card} an {b}",
        "log_passed_hidden": "{a} gab eine Karte an {b}",
        "log_open": "{name} legt Hand {n} offen: {cards}",
        "log_trick": "{name} gewinnt Stich {n}",
        "log_buys": "{name} gewinnt Stich {n} und kauft die Flasche für {price}",
        "log_hand_end": "Runde {n} vorbei: {scores}",
        "log_game_end": "Spielende: {name} gewinnt.",
        "log_speed": "Tempo: {speed}",
        "speed_instant": "sofort",
        "speed_s": "{s} s pro Schritt",
        "plays": "spielt",
        "trick_to": "{name} bekommt ihn",
        "my_pile": "Deine Karte im Stapel",
        "trick_buys": "{name} kauft die Flasche für {price}",
        "keys_table": "Enter spielen · ←→ wählen · h Tipp · ? Regeln · Esc zurück · q Ende",
        "keys_watch": "+/− Tempo · ? Regeln · q Ende",
    },
}


def detect_lang(explicit: str | None = None) -> str:
    """`--lang` wins; otherwise the locale (LC_ALL, LC_MESSAGES, LANG) picks German or English."""
    if explicit:
        return explicit if explicit in LANGS else "en"
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "de" if value.lower().startswith("de") else "en"
    try:
        code = locale.getlocale()[0] or ""
    except ValueError:
        code = ""
    return "de" if code.lower().startswith("de") else "en"


class Tr:
    """Translation for one language; `tr("key", n=1)`."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang if lang in LANGS else "en"
        self._strings = STRINGS[self.lang]

    def __call__(self, key: str, **params: object) -> str:
        text = self._strings.get(key) or STRINGS["en"].get(key, key)
        return text.format(**params) if params else text

    def card(self, card: game_pb2.Card | None) -> str:
        """`10♥`, German `B♠`; an unset card is the price joker."""
        if card is None or not card.code:
            return _JOKER[self.lang]
        rank = card.rank or card.code[:-1]
        return _RANKS[self.lang].get(rank, rank) + _SUIT_SYMBOL.get(card.suit, card.code[-1:])

    def cards(self, cards) -> str:
        return " ".join(self.card(c) for c in sort_cards(cards))

    def rules_text(self) -> str:
        """The player-facing rules shipped with the client (package data)."""
        return resources.files("cursedbottle.client").joinpath(
            f"data/rules-{self.lang}.txt"
        ).read_text(encoding="utf-8")


def suit_letter(card: game_pb2.Card) -> str:
    return _SUIT_LETTER.get(card.suit, card.code[-1:])


def sort_cards(cards) -> list[game_pb2.Card]:
    """The one total order of the game (the server numbers it: `Card.order`)."""
    return sorted(cards, key=lambda c: c.order)
