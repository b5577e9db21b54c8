"""The German words of the client, by message key (English, the fallback: `strings_en`)."""

DE: dict[str, str] = {
    "title": "Verfluchte Flasche",
    "hand_no": "Runde {n}",
    "price": "Preis",
    "bottle": "Flasche",
    "nobody": "niemand",
    "pile": "Stapel",
    "dealer": "Geber",
    "taken": "Punkte",
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
    "waiting_start_1": "Warte auf Mitspieler… 1 Platz frei. s startet, wenn voll.",
    "waiting_start_n": "Warte auf Mitspieler… {n} Plätze frei. s startet, wenn voll.",
    "waiting": "Warte auf die anderen…",
    "seat_from_hand": "Ein Bot spielt diesen Platz bis zum Ende der Hand; ab Hand {n} "
                      "ist er deiner.",
    "your_turn_play": "Du bist dran: spiel eine Karte (←/→, Zahl, Enter oder Klick).",
    "no_card_chosen": ("Noch keine Karte gewählt: wähle eine mit ←/→, ihrer Taste oder einem"
                       " Klick, dann Enter."),
    "your_turn_pile": "Wähle die Karte für den Flaschenstapel (Enter).",
    "your_turn_pass": "Wähle die Karte für {name} (Enter).",
    "confirm_pass": "Stapel {pile}; {passes}. Enter: bestätigen · Esc: einen Schritt zurück.",
    "confirm_pass_only": "{passes}. Enter: bestätigen · Esc: einen Schritt zurück.",
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
    "hint_wait_enter": "Denke noch nach… Enter spielt die beste Wahl, sobald die Liste da ist.",
    "hint_stale": "Der Tipp galt einem früheren Schritt: h gibt einen neuen.",
    "undo_sent": "Nichts zurückzunehmen: deine Wahl ist schon gesendet.",
    "hint_later": "Bestätigen (Enter) oder einen Schritt zurück (Esc); Tipps gibt es beim Wählen.",
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
    "why_takes": "nimmt den Stich und dessen {pts}",
    "why_takes_owned": (
        "nimmt den Stich und dessen {pts}; solange du die Flasche hast, zählt das nichts"
    ),
    "why_takes_hot": (
        "nimmt den Stich und dessen {pts}; solange du die Flasche hast, zählt das gegen dich"
    ),
    "why_loses": "kann den Stich nicht bekommen; der Gewinner bekommt dessen {pts}",
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
    "review_worst_cost": "Kosten {n}",
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
    "tutor_dropped": "Du hast q gedrückt, während der Tutor nachdachte: "
                     "{card} wurde nicht gespielt.",
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
    # issue 16: H — der Spieler als Subjekt ("_you") und als Objekt ("_to_you")
    "you_name": "Du",
    "your_table": "Dein Tisch",
    "table_of": "Tisch von {name}",
    "winner_you": "Du gewinnst mit {points} Punkten.",
    "owner_is_you": "Die Flasche bleibt bei dir (Preis {price}).",
    "log_passed_you": "Du gabst {card} an {b}",
    "log_passed_to_you": "{a} gab dir {card}",
    "log_passed_hand_you": "Du gabst {card} an {b} (Hand {n})",
    "log_passed_hand_to_you": "{a} gab dir {card} (Hand {n})",
    "review_dealer_you": "Du gibst",
    "review_takes_you": "Du bekommst Stich {n}",
    "review_buys_you": "Du bekommst Stich {n} und kaufst die Flasche für {price}",
    "cards_1": "1 Karte",
    "cards_n": "{n} Karten",
    "and": " und ",
    "seat_n": "Platz {n}",
    "bot_random": "Zufalls-Bot",
    "bot_rule": "Regel-Bot",
    "bot_heuristic": "Faustregel-Bot",
    "bot_pimc": "PIMC-Bot",
    "bot_strong": "Profi-Bot",
    "bot_other": "Bot {kind}",
    # Ablehnungen, aus Regel und Fakten des Servers (client/refusals.py)
    "err_other": "Der Server lehnt das ab.",
    "err_link_down": "Der Server ist nicht erreichbar.",
    "err_slow": "Der Server hat nicht rechtzeitig geantwortet.",
    "err_game_over": "Die Runde ist vorbei.",
    "err_wrong_phase": "Jetzt nicht: die Runde verlangt gerade etwas anderes.",
    "err_not_your_turn": "Du bist nicht dran.",
    "err_not_your_turn_turn": "Du bist nicht dran: {turn} spielt.",
    "not_your_turn_wait": "Du bist nicht dran: wir warten auf {names}.",
    "err_no_such_seat": "Diesen Platz gibt es an diesem Tisch nicht.",
    "err_lopaka_plays_himself": "Lopaka spielt nach seiner eigenen Regel.",
    "err_card_not_held": "Du hast {card} nicht.",
    "err_card_not_held_hand": "Du hast {card} nicht in Hand {n}.",
    "err_already_chosen": "Das hast du schon gewählt.",
    "err_pass_to_non_neighbour": "Du darfst nur an {recipients} weitergeben.",
    "err_same_card_twice": (
        "{card} ist schon für {other} gewählt: jeder Nachbar bekommt eine eigene Karte."
    ),
    "err_follow_suit": "Du musst die ausgespielte Farbe bedienen ({suit}).",
    "err_follow_suit_hand": (
        "Du musst die ausgespielte Farbe ({suit}) aus Hand {n} bedienen: jede Hand bedient "
        "für sich."
    ),
    "err_wrong_hand": "Es gibt nur Hand 1 und 2.",
    "err_dealer_keeps_cards": "Du gibst, also legst du keine Karte in den Stapel.",
    "err_seats_empty_1": (
        "Platz {seats} ist frei: erst muss jemand beitreten oder ein Bot dazukommen."
    ),
    "err_seats_empty_n": (
        "Plätze {seats} sind frei: erst müssen Leute beitreten oder Bots dazukommen."
    ),
    "err_not_playing": "Tipps gibt es nur während eines Spiels.",
    "err_hint_in_flight": "Dein letzter Tipp wird noch berechnet.",
    "err_already_started": "Das Spiel hat schon begonnen.",
    "err_table_full": "An diesem Tisch ist kein Platz frei.",
    "err_seat_taken": "{holder} sitzt schon auf {seat}: wähle einen freien Platz.",
    "err_stale_turn": "Das galt einem Zug, der vorbei ist; nichts hat sich geändert.",
    "err_unknown_token": "Der Server kennt diesen Platz nicht mehr: tritt neu bei.",
    "err_wrong_password": "Falsches Passwort.",
    "err_name_taken": "Jemand an diesem Tisch heißt schon {name}: wähle einen anderen Namen.",
    "err_reserved_name": "So nennt der Server einen Bot oder Lopaka: wähle einen anderen Namen.",
    "err_not_a_bot": "Auf {seat} sitzt kein Bot.",
    "err_unknown_bot": "Diesen Bot kennt der Server nicht.",
    "err_storage": "Der Server konnte das nicht speichern; nichts hat sich geändert.",
    "err_shutting_down": "Der Server fährt herunter.",
    "err_no_such_hand": "Diese Runde hat der Server nicht.",
    "err_no_such_table": "Einen Tisch '{table}' gibt es nicht (mehr).",
    "err_host_only": "Das darf nur, wer den Tisch angelegt hat.",
    "err_too_many_tables": "Der Server hat zu viele Tische offen: versuche es später.",
    "err_too_many_streams": "Der Server hat zu viele Verbindungen offen: versuche es später.",
    "err_too_many_guesses": "Zu viele falsche Passwörter: warte kurz und versuche es dann.",
    "err_too_many_reviews": "Der Server analysiert zu viele Runden: versuche es später.",
    # issue 16: F
    "f_points_1": "1 Punkt",
    "f_points_n": "{n} Punkte",
    "f_coins_1": "1 Münze",
    "f_coins_n": "{n} Münzen",
    "f_log_cards": "  {cards}",
    "f_tricks_title": "Die Stiche der Runde {n}, jede Karte in Spielfolge (klein: ihre Punkte)",
    "f_no_tricks": "Noch kein Stich.",
    "f_close": "Esc, l oder Enter: schließen",
    "f_follow_suit": "Du musst Farbe bedienen: {Suit} wurde ausgespielt, und du hast {cards}.",
    "f_follow_suit_hand": (
        "Du musst Farbe bedienen: {Suit} wurde ausgespielt, und deine Hand {n}, in der {card} "
        "liegt, hat {cards} (jede Hand bedient für sich)."
    ),
    "f_follow_colour": "Du musst Farbe bedienen: {Suit} wurde ausgespielt, und du hast {cards}.",
    "f_follow_colour_hand": (
        "Du musst Farbe bedienen: {Suit} wurde ausgespielt, und deine Hand {n}, in der {card} "
        "liegt, hat {cards} (jede Hand bedient für sich)."
    ),
    "f_keys_table": (
        "Enter spielen · ←→ oder 1–9 0 - = wählen · h Tipp · l Stiche · v Punkte · ? Regeln"
        " · Esc zurück · q Ende"
    ),
    "f_keys_table_online": (
        "Enter spielen · ←→ oder 1–9 0 - = wählen · h Tipp · t Tutor {state} · l Stiche"
        " · v Punkte · ? Regeln · Esc zurück · q Ende"
    ),
    "f_rules_top": "Kurz gefasst · darunter: Ausführliche Regeln",
    "f_rules_close": "↑↓ Bild↑ Bild↓: blättern · Esc, ? oder q: schließen",
    "f_standings": "Endstand",
    "f_over_keys": "n: noch einmal · l: zurück zur Lobby · Enter: den Tisch ansehen · q: beenden",
    "f_over_keys_offline": "Enter: den Tisch ansehen · q: beenden",
    "f_over_cue": "Enter: der Endstand · q: beenden",
    "f_quit_title": "Dieses Spiel beenden?",
    "f_quit_keys": "j: beenden · n oder Esc: weiterspielen",
    "f_keys_seats": "o Plätze",
    "f_hand_title_off": "Deine Karten · Tasten 1–9 0 - = · v: ihre {unit}",
    "f_hand_title_shown": (
        "Deine Karten · Tasten 1–9 0 - ="
        " · darunter: ihre {unit} (v blendet aus)"
    ),
    "f_hand_title_on": "Deine Karten · Tasten 1–9 0 - = · am unteren Rand: ihre {unit}",
    "f_values_points": "Punkte",
    "f_values_coins": "Münzen",
    "f_last_all": "l: alle",
    "f_points_at_table": "(an einem Tisch nennt ? sie für sein Spiel)",
    "f_keys_lan_narrow": (
        "Enter spielen · ←→ wählen · h Tipp · t Tutor {state} · o Plätze"
        " · ? Regeln · q Ende"
    ),
    "f_over_keys_play": "n: noch einmal · Enter: den Tisch ansehen · q: beenden",
    # issue 16: L
    "f_fill": "Andere Plätze füllen",
    "l_open": "frei: ein Mensch setzt sich",
    "f_seat": "Platz {n}",
    "l_you": "{name} (du)",
    "f_stand_in": "Abwesende Spieler",
    "f_stand_in_bot": "Vertretungs-Bot",
    "l_stand_never": "auf sie warten (keine Vertretung)",
    "l_stand_after": "ein Bot vertritt nach {s} s",
    "r_stand_in": "weg, ein Bot spielt vorerst",
    "r_away": "weg",
    "r_col_seat": "Platz",
    "r_col_who": "Wer dort sitzt",
    "r_title": "{name} · {rules} · die Plätze vor dem Spiel",
    "r_level": "Stärke eines neuen Bots (b, f): {bot} · l: ändern",
    "r_stand_ins": "Abwesende Spieler: {what}",
    "r_seat": "Platz {n}",
    "r_keys": (
        "↑/↓ Platz · b Bot hierher · x Bot entfernen · f Bots auf alle freien Plätze · "
        "Enter/s Start · q zurück zur Lobby"
    ),
    "r_keys_watch": "q zurück zur Lobby · ? Regeln",
    "r_keys_host": "a abwesende Spieler: wie bald ein Bot vertritt (du bist Gastgeber)",
    "r_waiting": (
        "Warte auf Mitspieler. Frei: {seats}. Freunde setzen sich über die Lobby, "
        "oder b setzt einen Bot hin."
    ),
    "r_full": "Alle Plätze sind besetzt: Enter oder s startet das Spiel.",
    "r_not_open": "Dort sitzt ein Mensch: wähle einen freien Platz oder einen Bot (↑/↓).",
    "r_not_bot": "Dort sitzt kein Bot (↑/↓ wählt den Platz).",
    "r_host_only": "Das darf nur der Gastgeber des Tisches.",
    "o_all_here": "Alle sind am Tisch.",
    "o_away": "Weg: {names}.",
    "o_keys": "Esc schließen",
    "o_keys_host": (
        "↑/↓ Platz · r Platz eines Abwesenden für immer an einen Bot · l Stärke · "
        "a abwesende Spieler · Esc schließen"
    ),
    "o_not_away": "Wähle jemanden, der weg ist (↑/↓): nur dessen Platz geht an einen Bot.",
    "seat_stand_in": "(Bot)",
    "q_stand_in": "An diesem Tisch spielt nach {s} s ein Bot für dich, bis du zurück bist.",
    "q_no_stand_in": (
        "Dieser Tisch hat keine Vertretung: die anderen warten auf dich (der Gastgeber kann "
        "deinen Platz einem Bot geben)."
    ),
}
