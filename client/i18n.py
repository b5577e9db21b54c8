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
_SUIT_LETTER = {
    game_pb2.SUIT_DIAMONDS: "D", game_pb2.SUIT_HEARTS: "H", game_pb2.SUIT_SPADES: "S",
    game_pb2.SUIT_YELLOW: "Y", game_pb2.SUIT_BLUE: "B", game_pb2.SUIT_RED: "R",
}
#: The Bottle Imp's colours have no sign: a card face is its number and the colour's
#: initial in the reader's language (and it is drawn in that colour).
_COLOUR_LETTER = {
    "en": {game_pb2.SUIT_YELLOW: "Y", game_pb2.SUIT_BLUE: "B", game_pb2.SUIT_RED: "R"},
    "de": {game_pb2.SUIT_YELLOW: "G", game_pb2.SUIT_BLUE: "B", game_pb2.SUIT_RED: "R"},
}
SUIT_NAMES = {
    "en": {
        game_pb2.SUIT_DIAMONDS: "diamonds", game_pb2.SUIT_HEARTS: "hearts",
        game_pb2.SUIT_SPADES: "spades", game_pb2.SUIT_YELLOW: "yellow",
        game_pb2.SUIT_BLUE: "blue", game_pb2.SUIT_RED: "red",
    },
    "de": {
        game_pb2.SUIT_DIAMONDS: "Karo", game_pb2.SUIT_HEARTS: "Herz",
        game_pb2.SUIT_SPADES: "Pik", game_pb2.SUIT_YELLOW: "gelb",
        game_pb2.SUIT_BLUE: "blau", game_pb2.SUIT_RED: "rot",
    },
}
#: Short rank names (RULES.md: German Bube = B, Dame = D; the ace stays "A" on a
#: card face so that a hand of 12 cards fits 80 columns).
_RANKS = {"en": {}, "de": {"J": "B", "Q": "D"}}
_JOKER = {"en": "joker (6½)", "de": "Joker (6½)"}
#: What the wire calls the Cursed Bottle's starting price (`Rules.start_price`).
_JOKER_NAME = "JOKER"
#: The original's Hell card, when an older server leaves `Rules.start_price` empty.
_HELL_CARD = "19"

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
        "seat_from_hand": "A bot plays this seat to the end of the hand; it is yours from "
                          "hand {n}.",
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
        "game_over_line_you": "Game over: you win.",
        "reconnecting": "Connection lost, reconnecting…",
        "reconnected": "Reconnected.",
        "refused": "Refused: {msg}",
        "hint_title": "Hint (best first)",
        "hint_wait": "Thinking…",
        "hint_none": "No hint now: it is not your turn.",
        "hint_later": "Confirm (Enter) or choose again (Esc); hints are for the choices.",
        "hint_points": "{value} points",
        "hint_col_points": "points",
        "hint_col_gap": "against the best",
        "hint_col_share": "best in",
        "hint_gap_best": "the best",
        "hint_gap": "{gap} less",
        "hint_gap_close": "{gap} less, too close to call",
        "hint_gap_same": "as good as the best",
        "hint_means_none": "There is only one choice: nothing to weigh.",
        "hint_means_maxn": (
            "Points: what you score this hand if everyone then plays perfectly for themself "
            "with all cards face up, averaged over {deals} that fit what you have seen; best "
            "in: how often the choice was best on those deals (ties shared)."
        ),
        "hint_means_paranoid": (
            "Points: what you score this hand if the others then all play against you with "
            "all cards face up (the worst case), averaged over {deals} that fit what you have "
            "seen; best in: how often the choice was best on those deals (ties shared)."
        ),
        "hint_means_rollouts": (
            "Points: what you score this hand if everyone then plays by simple rules of "
            "thumb, averaged over {deals} that fit what you have seen; best in: how often the "
            "choice was best on those deals (ties shared)."
        ),
        "hint_means_setup": (
            "Points: what you score this hand if the others pile and pass by the tips and "
            "everyone then plays by simple rules of thumb, averaged over {deals} that fit what "
            "you have seen; best in: how often the choice was best on those deals (ties "
            "shared)."
        ),
        "hint_close_note": (
            "Too close to call: the difference may be the luck of the guessed deals."
        ),
        "deals_1": "1 deal",
        "deals_n": "{n} deals",
        "points_1": "1 point",
        "points_n": "{n} points",
        "why_only": "the only legal choice",
        "why_pile": "puts {card} ({pts}) into the bottle's pile",
        "why_pass": "passes {card} to {to}",
        "why_open": "lays hand {n} open",
        "why_buys": (
            "buys the bottle at {card}: it is yours until someone buys it with a lower card"
        ),
        "why_buys_unless": (
            "buys the bottle at {card}, unless a later card in this trick is higher and still "
            "below the price"
        ),
        "why_takes": "takes the trick and its {pts}",
        "why_takes_owned": (
            "takes the trick and its {pts}, which count for nothing while you hold the bottle"
        ),
        "why_takes_hot": (
            "takes the trick and its {pts}, which count against you while you hold the bottle"
        ),
        "why_loses": "cannot take the trick; the winner gets its {pts}",
        "why_loses_free": "cannot take the trick, and it carries no points",
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
        "log_hand_you": "— Hand {n}: you deal —",
        "log_lopaka": "Lopaka's open hand: {cards}",
        "log_passed": "{a} passed {card} to {b}",
        "log_passed_hidden": "{a} passed a card to {b}",
        "log_open": "{name} lays hand {n} open: {cards}",
        "log_open_you": "You lay hand {n} open: {cards}",
        "log_trick": "{name} wins trick {n}",
        "log_trick_you": "You win trick {n}",
        "log_buys": "{name} wins trick {n} and buys the bottle at {price}",
        "log_buys_you": "You win trick {n} and buy the bottle at {price}",
        "log_hand_end": "Hand {n} over: {scores}",
        "log_game_end": "Game over: {name} wins.",
        "log_game_end_you": "Game over: you win.",
        "log_speed": "Speed: {speed}",
        "speed_instant": "instant",
        "speed_s": "{s} s per step",
        "plays": "plays",
        "trick_to": "{name} takes it",
        "trick_to_you": "You take it",
        "my_pile": "Your card in the pile",
        "my_pile_n": "Your cards in the pile",
        "trick_buys": "{name} buys the bottle at {price}",
        "trick_buys_you": "You buy the bottle at {price}",
        "keys_table": "Enter play · ←→ choose · h hint · ? rules · Esc undo · q quit",
        "keys_watch": "+/− speed · ? rules · q quit",
        "keys_table_online": (
            "Enter play · ←→ choose · h hint · t tutor {state} · ? rules · Esc undo · q quit"
        ),
        "on": "on",
        "off": "off",
        "continue_review": "Enter: continue · r: review this hand",
        "lobby_keys": (
            "n: new table · Enter: join · w: watch · h: history · r: refresh · q: quit"
        ),
        "lobby_held": "★ = you hold a seat there (Enter resumes it)",
        "history": "Finished hands at {target}",
        "history_keys": "Enter: review · r: refresh · Esc: back",
        "history_none": "No finished hands yet.",
        "history_loading": "Loading…",
        "col_hand": "Hand",
        "col_players": "Players and scores",
        "col_when": "Finished",
        "review": "Review",
        "review_hands": "The hands as played",
        "review_title": "Review: {table}, hand {n}",
        "review_wait": (
            "Analysing… (the solver plays every card out for every player; this can take "
            "a while)"
        ),
        "review_failed": "No review: {msg}",
        "review_keys": "↑/↓/PgUp/PgDn: scroll · Esc: close",
        "review_dealer": "{name} deals",
        "review_from": "Cards are valued from trick {n} on.",
        "review_seat": "Seat",
        "review_card": "Card",
        "review_value": "Value",
        "review_best": "Best",
        "review_loss": "Cost",
        "review_forced": "forced",
        "review_takes": "{name} takes trick {n}",
        "review_buys": "{name} takes trick {n} and buys the bottle at {price}",
        "review_summary": "Against perfect play (each for themself)",
        "review_worst": "Worst case",
        "review_score": "Score",
        "review_total_loss": "Lost",
        "review_mistakes": "Mistakes",
        "review_analysed": "Cards valued",
        "review_price": "Final price: {price}",
        "review_means": (
            "Value: the points the player ends this hand with if, from that card on, everyone "
            "plays perfectly for themself with all cards face up; cost: the points the card "
            "played gave away against the best card (a mistake when above 0)."
        ),
        "review_means_worst": (
            "Worst case: the same value if the others all played against them."
        ),
        "review_skipped": (
            "Cards of tricks {first}–{last} are not valued: solving them exactly for every "
            "player takes too long."
        ),
        "review_skipped_one": (
            "Cards of trick {first} are not valued: solving them exactly for every player "
            "takes too long."
        ),
        "tutor_on": "Tutor on: you are asked before a card that loses more than {points} points.",
        "tutor_off": "Tutor off.",
        "tutor_thinking": "The tutor is thinking…",
        "tutor_title": "Are you sure?",
        "quit_title": "Quit the game?",
        "quit_keys": (
            "k  keep my seat: join again later (Enter on the starred table);\n"
            "   a stand-in bot plays for you if the table has one\n"
            "l  give my seat up for another player or a bot\n"
            "Esc  stay"
        ),
        "tutor_text": "{card} is worth {value}; {best} is worth {best_value} ({loss} points more).",
        "tutor_keys": "y: play it anyway · n/Esc: choose again",
        "tutor_failed": "The tutor could not answer ({msg}); the card was not played.",
        "resumed": "Resumed your seat {seat} at this table.",
        "g_cursed": "Cursed Bottle",
        "g_imp": "Bottle Imp",
        "f_game": "Game",
        "f_teams": "Teams (4–6 players)",
        "t_off": "none: everyone alone",
        "t_on": "partners sit opposite",
        "t_singles": "six: two pairs, two alone (2-2-1-1)",
        "e_default": "each player deals twice",
        "v_none": "— (Cursed Bottle only)",
        "team": "team",
        "teams_short": "teams",
        "bottles": "Bottles",
        "f_bottles": "Bottles (5–6 players)",
        "bo_one": "one",
        "bo_two": "two: the second bottle",
        "two_bottles": "2 bottles",
        "solo": "solo",
        "partner": "partner",
        "winner_team": "{name} win with {points} points.",
        "game_over_line_team": "Game over: {name} win.",
        "log_game_end_team": "Game over: {name} win.",
        "team_note": "Partners share their score; a player alone (solo) counts double.",
        "dealer_no_pile": "You deal: no card for the pile this hand. Waiting for the others…",
        "g_devils_eye": "Devil's Eye",
        "p_devils_eye": "2: Devil's Eye",
        "your_turn_pile_n": "Choose pile card {i} of {n} for the bottle's pile (Enter).",
        "your_turn_pass_hand": "Choose the card for {name}'s hand {n} ({which}) (Enter).",
        "to_name_hand": "{card} to {name} (hand {n})",
        "log_passed_hand": "{a} passed {card} to {b} (hand {n})",
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
        "seat_from_hand": "Ein Bot spielt diesen Platz bis zum Ende der Hand; ab Hand {n} "
                          "ist er deiner.",
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
        "game_over_line_you": "Spielende: du gewinnst.",
        "reconnecting": "Verbindung verloren, verbinde neu…",
        "reconnected": "Wieder verbunden.",
        "refused": "Abgelehnt: {msg}",
        "hint_title": "Tipp (beste zuerst)",
        "hint_wait": "Denke nach…",
        "hint_none": "Kein Tipp: du bist nicht dran.",
        "hint_later": "Bestätigen (Enter) oder neu wählen (Esc); Tipps gibt es beim Wählen.",
        "hint_points": "{value} Punkte",
        "hint_col_points": "Punkte",
        "hint_col_gap": "gegenüber der besten",
        "hint_col_share": "am besten",
        "hint_gap_best": "die beste",
        "hint_gap": "{gap} weniger",
        "hint_gap_close": "{gap} weniger, zu knapp",
        "hint_gap_same": "so gut wie die beste",
        "hint_means_none": "Es gibt nur eine Wahl: nichts abzuwägen.",
        "hint_means_maxn": (
            "Punkte: was du in dieser Runde bekommst, wenn danach alle mit offenen Karten "
            "perfekt für sich selbst spielen, gemittelt über {deals}, die zu dem passen, was "
            "du gesehen hast; am besten: wie oft die Wahl dabei die beste war (Gleichstände "
            "geteilt)."
        ),
        "hint_means_paranoid": (
            "Punkte: was du in dieser Runde bekommst, wenn danach alle anderen mit offenen "
            "Karten gegen dich spielen (der schlimmste Fall), gemittelt über {deals}, die zu "
            "dem passen, was du gesehen hast; am besten: wie oft die Wahl dabei die beste war "
            "(Gleichstände geteilt)."
        ),
        "hint_means_rollouts": (
            "Punkte: was du in dieser Runde bekommst, wenn danach alle nach einfachen "
            "Faustregeln spielen, gemittelt über {deals}, die zu dem passen, was du gesehen "
            "hast; am besten: wie oft die Wahl dabei die beste war (Gleichstände geteilt)."
        ),
        "hint_means_setup": (
            "Punkte: was du in dieser Runde bekommst, wenn die anderen nach den Tipps ablegen "
            "und weitergeben und danach alle nach einfachen Faustregeln spielen, gemittelt "
            "über {deals}, die zu dem passen, was du gesehen hast; am besten: wie oft die Wahl "
            "dabei die beste war (Gleichstände geteilt)."
        ),
        "hint_close_note": (
            "Zu knapp: der Unterschied kann am Zufall der geratenen Verteilungen liegen."
        ),
        "deals_1": "1 Verteilung",
        "deals_n": "{n} Verteilungen",
        "points_1": "1 Punkt",
        "points_n": "{n} Punkte",
        "why_only": "die einzige erlaubte Wahl",
        "why_pile": "legt {card} ({pts}) in den Stapel der Flasche",
        "why_pass": "gibt {card} an {to}",
        "why_open": "legt Hand {n} offen",
        "why_buys": (
            "kauft die Flasche für {card}: sie gehört dir, bis jemand sie mit einer "
            "niedrigeren Karte kauft"
        ),
        "why_buys_unless": (
            "kauft die Flasche für {card}, außer eine spätere Karte dieses Stichs ist höher "
            "und noch unter dem Preis"
        ),
        "why_takes": "nimmt den Stich und seine {pts}",
        "why_takes_owned": (
            "nimmt den Stich und seine {pts}, die nichts zählen, solange du die Flasche hast"
        ),
        "why_takes_hot": (
            "nimmt den Stich und seine {pts}, die gegen dich zählen, solange du die Flasche hast"
        ),
        "why_loses": "kann den Stich nicht bekommen; der Gewinner bekommt ihre {pts}",
        "why_loses_free": "kann den Stich nicht bekommen und bringt keine Punkte",
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
        "log_hand_you": "— Runde {n}: du gibst —",
        "log_lopaka": "Lopakas offene Hand: {cards}",
        "log_passed": "{a} gab {card} an {b}",
        "log_passed_hidden": "{a} gab eine Karte an {b}",
        "log_open": "{name} legt Hand {n} offen: {cards}",
        "log_open_you": "Du legst Hand {n} offen: {cards}",
        "log_trick": "{name} gewinnt Stich {n}",
        "log_trick_you": "Du gewinnst Stich {n}",
        "log_buys": "{name} gewinnt Stich {n} und kauft die Flasche für {price}",
        "log_buys_you": "Du gewinnst Stich {n} und kaufst die Flasche für {price}",
        "log_hand_end": "Runde {n} vorbei: {scores}",
        "log_game_end": "Spielende: {name} gewinnt.",
        "log_game_end_you": "Spielende: du gewinnst.",
        "log_speed": "Tempo: {speed}",
        "speed_instant": "sofort",
        "speed_s": "{s} s pro Schritt",
        "plays": "spielt",
        "trick_to": "{name} bekommt ihn",
        "trick_to_you": "Du bekommst ihn",
        "my_pile": "Deine Karte im Stapel",
        "my_pile_n": "Deine Karten im Stapel",
        "trick_buys": "{name} kauft die Flasche für {price}",
        "trick_buys_you": "Du kaufst die Flasche für {price}",
        "keys_table": "Enter spielen · ←→ wählen · h Tipp · ? Regeln · Esc zurück · q Ende",
        "keys_watch": "+/− Tempo · ? Regeln · q Ende",
        "keys_table_online": (
            "Enter spielen · ←→ wählen · h Tipp · t Tutor {state} · ? Regeln · Esc neu · q "
            "Ende"
        ),
        "on": "an",
        "off": "aus",
        "continue_review": "Enter: weiter · r: diese Runde analysieren",
        "lobby_keys": (
            "n: neu · Enter: setzen · w: zuschauen · h: Verlauf · r: neu laden · q: Ende"
        ),
        "lobby_held": "★ = du hast dort einen Platz (Enter setzt dich wieder hin)",
        "history": "Beendete Runden auf {target}",
        "history_keys": "Enter: analysieren · r: neu laden · Esc: zurück",
        "history_none": "Noch keine beendeten Runden.",
        "history_loading": "Lade…",
        "col_hand": "Runde",
        "col_players": "Spieler und Wertung",
        "col_when": "Beendet",
        "review": "Analyse",
        "review_hands": "Die Hände, wie sie gespielt wurden",
        "review_title": "Analyse: {table}, Runde {n}",
        "review_wait": (
            "Analysiere… (der Löser spielt jede Karte für alle Spieler aus; das kann eine "
            "Weile dauern)"
        ),
        "review_failed": "Keine Analyse: {msg}",
        "review_keys": "↑/↓/Bild↑/Bild↓: blättern · Esc: schließen",
        "review_dealer": "{name} gibt",
        "review_from": "Karten werden ab Stich {n} bewertet.",
        "review_seat": "Platz",
        "review_card": "Karte",
        "review_value": "Wert",
        "review_best": "Beste",
        "review_loss": "Kosten",
        "review_forced": "erzwungen",
        "review_takes": "{name} bekommt Stich {n}",
        "review_buys": "{name} bekommt Stich {n} und kauft die Flasche für {price}",
        "review_summary": "Gegen perfektes Spiel (jeder für sich)",
        "review_worst": "Schlimmstfall",
        "review_score": "Wertung",
        "review_total_loss": "Verlust",
        "review_mistakes": "Fehler",
        "review_analysed": "Bewertet",
        "review_price": "Endpreis: {price}",
        "review_means": (
            "Wert: die Punkte, mit denen der Spieler diese Runde beendet, wenn ab dieser Karte "
            "alle mit offenen Karten perfekt für sich selbst spielen; Kosten: die Punkte, die "
            "die gespielte Karte gegenüber der besten verschenkte (ein Fehler, wenn über 0)."
        ),
        "review_means_worst": (
            "Schlimmstfall: derselbe Wert, wenn alle anderen gegen ihn gespielt hätten."
        ),
        "review_skipped": (
            "Karten der Stiche {first}–{last} werden nicht bewertet: sie für alle Spieler "
            "genau zu lösen dauert zu lange."
        ),
        "review_skipped_one": (
            "Karten von Stich {first} werden nicht bewertet: sie für alle Spieler genau zu "
            "lösen dauert zu lange."
        ),
        "tutor_on": (
            "Tutor an: du wirst gefragt vor einer Karte, die mehr als {points} Punkte "
            "verliert."
        ),
        "tutor_off": "Tutor aus.",
        "tutor_thinking": "Der Tutor denkt nach…",
        "tutor_title": "Bist du sicher?",
        "quit_title": "Spiel beenden?",
        "quit_keys": (
            "b  Platz behalten: später wieder beitreten (Enter am markierten Tisch);\n"
            "   ein Ersatz-Bot spielt für dich, wenn der Tisch einen hat\n"
            "a  Platz aufgeben für andere Spieler oder einen Bot\n"
            "Esc  bleiben"
        ),
        "tutor_text": "{card} ist {value} wert; {best} ist {best_value} wert ({loss} Punkte mehr).",
        "tutor_keys": "j/y: trotzdem spielen · n/Esc: neu wählen",
        "tutor_failed": "Der Tutor konnte nicht antworten ({msg}); die Karte wurde nicht gespielt.",
        "resumed": "Dein Platz {seat} an diesem Tisch ist wieder da.",
        "g_cursed": "Verfluchte Flasche",
        "g_imp": "Flaschenteufel",
        "f_game": "Spiel",
        "f_teams": "Teams (4–6 Spieler)",
        "t_off": "keine: jeder für sich",
        "t_on": "Partner sitzen gegenüber",
        "t_singles": "sechs: zwei Paare, zwei allein (2-2-1-1)",
        "e_default": "jeder gibt zweimal",
        "v_none": "— (nur Verfluchte Flasche)",
        "team": "Team",
        "teams_short": "Teams",
        "bottles": "Flaschen",
        "f_bottles": "Flaschen (5–6 Spieler)",
        "bo_one": "eine",
        "bo_two": "zwei: die zweite Flasche",
        "two_bottles": "2 Flaschen",
        "solo": "solo",
        "partner": "Partner",
        "winner_team": "{name} gewinnen mit {points} Punkten.",
        "game_over_line_team": "Spielende: {name} gewinnen.",
        "log_game_end_team": "Spielende: {name} gewinnen.",
        "team_note": "Partner teilen ihre Wertung; wer allein spielt (solo), zählt doppelt.",
        "dealer_no_pile": "Du gibst: diesmal keine Karte für den Stapel. Warte auf die anderen…",
        "g_devils_eye": "Teufelsauge",
        "p_devils_eye": "2: Teufelsauge",
        "your_turn_pile_n": "Wähle Karte {i} von {n} für den Flaschenstapel (Enter).",
        "your_turn_pass_hand": "Wähle die Karte für Hand {n} von {name} ({which}) (Enter).",
        "to_name_hand": "{card} an {name} (Hand {n})",
        "log_passed_hand": "{a} gab {card} an {b} (Hand {n})",
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

    def __init__(self, lang: str = "en", rules: game_pb2.Rules | None = None) -> None:
        self.lang = lang if lang in LANGS else "en"
        self._strings = STRINGS[self.lang]
        #: The game whose cards and rules text this speaks of (Cursed Bottle unless
        #: `use_rules` says otherwise) and the name of its starting price.
        self.game = game_pb2.GAME_CURSED_BOTTLE
        self.start_price = ""
        if rules is not None:
            self.use_rules(rules)

    def use_rules(self, rules: game_pb2.Rules) -> None:
        """Speak of this rule set's game: its price before the first purchase ("19" in
        the Bottle Imp) and its rules text."""
        self.game = rules.game or game_pb2.GAME_CURSED_BOTTLE
        price = rules.start_price
        if not price and self.game == game_pb2.GAME_BOTTLE_IMP:
            price = _HELL_CARD
        self.start_price = "" if price == _JOKER_NAME else price

    def for_rules(self, rules: game_pb2.Rules) -> Tr:
        """A translator of the same language for a table with these rules."""
        return Tr(self.lang, rules)

    @property
    def bottle_imp(self) -> bool:
        return self.game == game_pb2.GAME_BOTTLE_IMP

    def has(self, key: str) -> bool:
        return key in self._strings

    def __call__(self, key: str, **params: object) -> str:
        text = self._strings.get(key) or STRINGS["en"].get(key, key)
        return text.format(**params) if params else text

    def card(self, card: game_pb2.Card | None) -> str:
        """`10♥`, German `B♠`; the Bottle Imp's `2.5Y`, `17B` (German `2.5G`); an unset
        card is the starting price: the joker, or the Bottle Imp's Hell card `19`."""
        if card is None or not card.code:
            return self.start_price or _JOKER[self.lang]
        rank = card.rank or card.code[:-1]
        colour = _COLOUR_LETTER[self.lang].get(card.suit)
        if colour is not None:
            return rank + colour
        return _RANKS[self.lang].get(rank, rank) + _SUIT_SYMBOL.get(card.suit, card.code[-1:])

    def suit(self, suit: int) -> str:
        """The suit's or colour's name: `hearts`, `yellow`, German `Herz`, `gelb`."""
        return SUIT_NAMES[self.lang].get(suit, "?")

    def number(self, value: float, signed: bool = False, digits: int = 1) -> str:
        """`+3.2`, German `+3,2` (a decimal comma); `signed` shows the sign of 0 and up."""
        text = f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"
        return text.replace(".", ",") if self.lang == "de" else text

    def count(self, key: str, n: int) -> str:
        """`1 deal` / `40 deals` (`deals_1`, `deals_n`), in the language."""
        return self(f"{key}_1") if n == 1 else self(f"{key}_n", n=n)

    def cards(self, cards) -> str:
        return " ".join(self.card(c) for c in sort_cards(cards))

    def rules_text(self) -> str:
        """The player-facing rules of this game shipped with the client (package data)."""
        name = "rules-bottle-imp" if self.bottle_imp else "rules"
        return resources.files("cursedbottle.client").joinpath(
            f"data/{name}-{self.lang}.txt"
        ).read_text(encoding="utf-8")

    def game_name(self, game: int) -> str:
        return self("g_imp") if game == game_pb2.GAME_BOTTLE_IMP else self("g_cursed")


def suit_letter(card: game_pb2.Card) -> str:
    return _SUIT_LETTER.get(card.suit, card.code[-1:])


def sort_cards(cards) -> list[game_pb2.Card]:
    """The one total order of the game (the server numbers it: `Card.order`)."""
    return sorted(cards, key=lambda c: c.order)
