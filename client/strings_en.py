"""The English words of the client, by message key (German: `strings_de`)."""

EN: dict[str, str] = {
    "title": "Cursed Bottle",
    "hand_no": "Hand {n}",
    "price": "Price",
    "bottle": "Bottle",
    "nobody": "nobody",
    "pile": "Pile",
    "dealer": "dealer",
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
    "waiting_start_1": "Waiting for players… 1 seat free. Press s to start when full.",
    "waiting_start_n": "Waiting for players… {n} seats free. Press s to start when full.",
    "waiting": "Waiting for the others…",
    "seat_from_hand": "A bot plays this seat to the end of the hand; it is yours from "
                      "hand {n}.",
    "your_turn_play": "Your turn: play a card (←/→, number, Enter or click).",
    "no_card_chosen": "No card chosen yet: pick one with ←/→, its key or a click, then Enter.",
    "your_turn_pile": "Choose the card for the bottle's pile (Enter).",
    "your_turn_pass": "Choose the card to pass to {name} (Enter).",
    "confirm_pass": "Pile {pile}; pass {passes}. Enter: confirm · Esc: back one step.",
    "confirm_pass_only": "Pass {passes}. Enter: confirm · Esc: back one step.",
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
    "hint_wait_enter": "Still thinking… Enter plays the best choice once the list is here.",
    "hint_stale": "That hint was for an earlier step: press h for a new one.",
    "undo_sent": "Nothing to take back: your choices were sent.",
    "hint_later": "Confirm (Enter) or go back a step (Esc); hints are for the choices.",
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
    "review_worst_cost": "cost {n}",
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
    "tutor_dropped": "You pressed q while the tutor was thinking: {card} was not played.",
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
    # issue 16: H — the player as subject ("_you") and as object ("_to_you")
    "you_name": "You",
    "your_table": "Your table",
    "table_of": "{name}'s table",
    "winner_you": "You win with {points} points.",
    "owner_is_you": "The bottle stays with you (price {price}).",
    "log_passed_you": "You passed {card} to {b}",
    "log_passed_to_you": "{a} passed {card} to you",
    "log_passed_hand_you": "You passed {card} to {b} (hand {n})",
    "log_passed_hand_to_you": "{a} passed {card} to you (hand {n})",
    "review_dealer_you": "You deal",
    "review_takes_you": "You take trick {n}",
    "review_buys_you": "You take trick {n} and buy the bottle at {price}",
    "cards_1": "1 card",
    "cards_n": "{n} cards",
    "and": " and ",
    "seat_n": "seat {n}",
    "bot_random": "random bot",
    "bot_rule": "rule bot",
    "bot_heuristic": "heuristic bot",
    "bot_pimc": "pimc bot",
    "bot_strong": "strong bot",
    "bot_other": "{kind} bot",
    # refusals, from the server's rule and facts (client/refusals.py)
    "err_other": "The server refused that.",
    "err_link_down": "The server cannot be reached.",
    "err_slow": "The server did not answer in time.",
    "err_game_over": "The hand is over.",
    "err_wrong_phase": "Not now: the hand asks for something else.",
    "err_not_your_turn": "It is not your turn.",
    "err_not_your_turn_turn": "It is not your turn: {turn} is to play.",
    "not_your_turn_wait": "It is not your turn: waiting for {names}.",
    "err_no_such_seat": "There is no such seat at this table.",
    "err_lopaka_plays_himself": "Lopaka plays by his own policy.",
    "err_card_not_held": "You do not hold {card}.",
    "err_card_not_held_hand": "You do not hold {card} in hand {n}.",
    "err_already_chosen": "You have already chosen that.",
    "err_pass_to_non_neighbour": "You may pass only to {recipients}.",
    "err_same_card_twice": (
        "{card} is already chosen for {other}: each neighbour gets a card of their own."
    ),
    "err_follow_suit": "You must follow the suit led ({suit}).",
    "err_follow_suit_hand": (
        "You must follow the suit led ({suit}) from hand {n}: each hand follows on its own."
    ),
    "err_wrong_hand": "There are only hands 1 and 2.",
    "err_dealer_keeps_cards": "You deal, so you lay no card into the pile.",
    "err_seats_empty_1": "Seat {seats} is empty: someone must join or a bot be added first.",
    "err_seats_empty_n": "Seats {seats} are empty: someone must join or bots be added first.",
    "err_not_playing": "Hints are for a game in progress.",
    "err_hint_in_flight": "Your last hint is still being worked out.",
    "err_already_started": "The game has already started.",
    "err_table_full": "The table has no empty seat.",
    "err_seat_taken": "{holder} already sits in {seat}: pick an empty one.",
    "err_stale_turn": "That was meant for a turn that is over; nothing changed.",
    "err_unknown_token": "The server no longer knows this seat: join again.",
    "err_wrong_password": "Wrong password.",
    "err_name_taken": "Someone at this table is already called {name}: choose another name.",
    "err_reserved_name": "That is how the server names a bot or Lopaka: choose another name.",
    "err_not_a_bot": "No bot sits in {seat}.",
    "err_unknown_bot": "The server knows no such bot.",
    "err_storage": "The server could not save this, so nothing changed.",
    "err_shutting_down": "The server is shutting down.",
    "err_no_such_hand": "The server has no such hand.",
    "err_no_such_table": "There is no table '{table}' (any more).",
    "err_host_only": "Only the table's host may do that.",
    "err_too_many_tables": "The server has too many tables open: try again later.",
    "err_too_many_streams": "The server has too many connections open: try again later.",
    "err_too_many_guesses": "Too many wrong passwords: wait a little, then try again.",
    "err_too_many_reviews": "The server is analysing too many hands: try again later.",
    # issue 16: F
    "f_points_1": "1 point",
    "f_points_n": "{n} points",
    "f_coins_1": "1 coin",
    "f_coins_n": "{n} coins",
    "f_log_cards": "  {cards}",
    "f_tricks_title": "The tricks of hand {n}, each card in play order (small: its points)",
    "f_no_tricks": "No trick taken yet.",
    "f_close": "Esc, l or Enter: close",
    "f_follow_suit": "You must follow suit: {suit} were led and you hold {cards}.",
    "f_follow_suit_hand": (
        "You must follow suit: {suit} were led and your hand {n}, which {card} is in, "
        "holds {cards} (each hand follows on its own)."
    ),
    "f_follow_colour": "You must follow the colour: {suit} was led and you hold {cards}.",
    "f_follow_colour_hand": (
        "You must follow the colour: {suit} was led and your hand {n}, which {card} is in, "
        "holds {cards} (each hand follows on its own)."
    ),
    "f_keys_table": (
        "Enter play · ←→ or 1–9 0 - = choose · h hint · l tricks · v points · ? rules"
        " · Esc undo · q quit"
    ),
    "f_keys_table_online": (
        "Enter play · ←→ or 1–9 0 - = choose · h hint · t tutor {state} · l tricks · v points"
        " · ? rules · Esc undo · q quit"
    ),
    "f_rules_top": "In short · below: Full rules",
    "f_rules_close": "↑↓ PgUp PgDn: scroll · Esc, ? or q: close",
    "f_standings": "Final standings",
    "f_over_keys": "n: play again · l: back to the lobby · Enter: look at the table · q: quit",
    "f_over_keys_offline": "Enter: look at the table · q: quit",
    "f_over_cue": "Enter: the final standings · q: quit",
    "f_quit_title": "Quit this game?",
    "f_quit_keys": "y: quit · n or Esc: keep playing",
    "f_keys_seats": "o seats",
    "f_hand_title_off": "Your cards · keys 1–9 0 - = · v: their {unit}",
    "f_hand_title_shown": "Your cards · keys 1–9 0 - = · under each: its {unit} (v hides)",
    "f_hand_title_on": "Your cards · keys 1–9 0 - = · on each card's edge: its {unit}",
    "f_values_points": "points",
    "f_values_coins": "coins",
    "f_last_all": "l: all",
    "f_points_at_table": "(at a table, ? lists them for its game)",
    "f_keys_lan_narrow": (
        "Enter play · ←→ choose · h hint · t tutor {state} · o seats"
        " · ? rules · q quit"
    ),
    "f_over_keys_play": "n: play again · Enter: look at the table · q: quit",
    # issue 16: L
    "f_fill": "Fill the other seats",
    "l_open": "open: a person joins",
    "f_seat": "Seat {n}",
    "l_you": "{name} (you)",
    "f_stand_in": "Absent players",
    "f_stand_in_bot": "Stand-in bot",
    "l_stand_never": "wait for them (no stand-in)",
    "l_stand_after": "a bot stands in after {s} s",
    "r_stand_in": "away, a bot plays for now",
    "r_away": "away",
    "r_col_seat": "Seat",
    "r_col_who": "Who sits there",
    "r_title": "{name} · {rules} · the seats before the game",
    "r_level": "Level of a new bot (b, f): {bot} · l: change",
    "r_stand_ins": "Absent players: {what}",
    "r_seat": "seat {n}",
    "r_keys": (
        "↑/↓ seat · b bot here · x remove the bot · f bots in every open seat · "
        "Enter/s start · q back to the lobby"
    ),
    "r_keys_watch": "q back to the lobby · ? rules",
    "r_keys_host": "a absent players: how soon a bot stands in (you are the host)",
    "r_waiting": (
        "Waiting for players. Open: {seats}. A friend joins from the lobby, "
        "or b puts a bot there."
    ),
    "r_full": "Every seat is taken: Enter or s starts the game.",
    "r_not_open": "A person sits there: choose an open seat or a bot's (↑/↓).",
    "r_not_bot": "No bot sits there (↑/↓ chooses the seat).",
    "r_host_only": "Only the table's host may change that.",
    "o_all_here": "Everyone is at the table.",
    "o_away": "Away: {names}.",
    "o_keys": "Esc close",
    "o_keys_host": (
        "↑/↓ seat · r give an absent player's seat to a bot for good · l level · "
        "a absent players · Esc close"
    ),
    "o_not_away": "Choose a player who is away (↑/↓): only their seat can go to a bot.",
    "seat_stand_in": "(bot)",
    "q_stand_in": "At this table a bot plays for you after {s} s away, until you are back.",
    "q_no_stand_in": (
        "This table has no stand-in: the others wait for you (its host can give your seat "
        "to a bot)."
    ),
}
