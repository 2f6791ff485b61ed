# ruff: noqa: RUF005, E501, B905
"""Writes the Rat-a-Tat Roll scenario files (run: python tests/games/ratatat_scenario_writer.py).

Every expectation is worked out by hand from the rules and the default board (see the comments); the JSON
files are what the tests read.
"""

import json
import pathlib

OUT = pathlib.Path(__file__).parent / "scenarios" / "ratatat"
P3 = ["Ana", "Bob", "Cid"]


def deal(*cards):
    """cards: (value, balloon) for regions 0-4."""
    return [{"type": "reveal", "region": r, "value": v, "balloon": b} for r, (v, b) in enumerate(cards)]


PLAIN = deal((5, False), (6, False), (7, False), (8, False), (3, False))


def rev(region, value, balloon=False):
    return {"type": "reveal", "region": region, "value": value, "balloon": balloon}


def roll(*d):
    return {"type": "roll", "dice": list(d)}


MOVE = {"type": "move"}
TAKE = {"type": "take_region"}


def write(name, description, players, actions, expect=None, error=None, settings=None):
    data = {"description": description, "players": players, "settings": settings or {}, "actions": actions}
    if error is not None:
        data["error"] = error
    if expect is not None:
        data["expect"] = expect
    (OUT / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")


# Default board: 0 P | 1-6 region0 card,balloon,card,leopard,card,card | 7 P | 8-13 region1 card,leopard,card,balloon,card,card
# | 14 P | 15-20 region2 balloon,card,card,leopard,card,card | 21 P | 22-27 region3 card,card,balloon,card,leopard,card
# | 28 P | 29-34 region4 card,leopard,card,card,balloon,card ; ring of 35, statue starts on space 0.

write(
    "setup_three_players",
    "3 players: 2 tokens each, 9 in the bank, one secret card each, five face-up to enter",
    P3,
    [],
    {"phase": "deal", "bank": 9, "tokens": [2, 2, 2], "row_sizes": [1, 1, 1], "pile": 42, "statue": 0},
)
write(
    "deal_then_first_turn",
    "after the five face-up cards are entered, the first player rolls",
    P3,
    PLAIN,
    {"phase": "roll", "current": "Ana", "pile": 37, "face_up_values": [5, 6, 7, 8, 3]},
)
write(
    "balloon_space_balloon_card",
    "balloon space + balloon card: 2 tokens from the bank",
    P3,
    deal((5, True), (6, False), (7, False), (8, False), (3, False)) + [roll(2), MOVE, TAKE],
    {
        "phase": "reveal",
        "statue": 2,
        "tokens": [4, 2, 2],
        "bank": 7,
        "row_sizes": [2, 1, 1],
        "events_include": ["+1 re-roll token (balloon card)", "+1 re-roll token (balloon space)"],
    },
)
write(
    "balloon_space_plain_card",
    "balloon space with a plain card: 1 token; refill ends the turn",
    P3,
    PLAIN + [roll(2), MOVE, TAKE, rev(0, 4)],
    {
        "phase": "roll",
        "current": "Bob",
        "tokens": [3, 2, 2],
        "bank": 8,
        "row_sizes": [2, 1, 1],
        "pile": 36,
        "face_up_values": [4, 6, 7, 8, 3],
    },
)
write(
    "card_space_balloon_card",
    "card space, region card has a balloon: 1 token",
    P3,
    deal((5, True), (6, False), (7, False), (8, False), (3, False)) + [roll(1), MOVE, TAKE],
    {"tokens": [3, 2, 2], "bank": 8},
)
write(
    "card_space_pile_top_with_balloon",
    "card space: the top of the pile instead; it shows a balloon: 1 token; no refill",
    P3,
    PLAIN + [roll(1), MOVE, {"type": "take_pile", "balloon": True}],
    {"phase": "roll", "current": "Bob", "tokens": [3, 2, 2], "bank": 8, "pile": 36, "face_up_values": [5, 6, 7, 8, 3]},
)
write(
    "balloon_space_no_pile",
    "a balloon space gives the region's card, not the pile's",
    P3,
    PLAIN + [roll(2), MOVE, {"type": "take_pile", "balloon": False}],
    error="the draw pile is only for card spaces: on a balloon space Ana takes the region's card",
)
write(
    "leopard_take_and_look",
    "leopard space: take the card, then look at one card of another player",
    P3,
    PLAIN + [roll(4), MOVE, TAKE, rev(0, 1), {"type": "look", "at": "Cid", "card": 0}],
    {"phase": "roll", "current": "Bob", "row_sizes": [2, 1, 1], "tokens": [2, 2, 2]},
)
write(
    "leopard_look_waits_for_refill",
    "leopard: the board is refilled before the look",
    P3,
    PLAIN + [roll(4), MOVE, TAKE],
    {"phase": "reveal"},
)
write(
    "leopard_look_bad_card",
    "leopard: looking at a card the other player does not have",
    P3,
    PLAIN + [roll(4), MOVE, TAKE, rev(0, 1), {"type": "look", "at": "Cid", "card": 3}],
    error="Cid has cards 1-1",
)
# Five players: bank 15 - 10 = 5.
P5 = ["Ana", "Bob", "Cid", "Dee", "Eve"]
write(
    "empty_bank",
    "5 players drain the bank (5 tokens); the next balloon gives nothing",
    P5,
    deal((5, True), (6, False), (7, True), (8, False), (3, False))
    + [
        roll(2),
        MOVE,
        TAKE,
        rev(0, 4),  # Ana: balloon space 2 + balloon card: +2, bank 3
        roll(6, 6, 1),
        MOVE,
        TAKE,
        rev(2, 6),  # Bob: 2+13 = 15 balloon space, balloon card: +2, bank 1
        roll(4, 5),
        MOVE,
        TAKE,
        rev(3, 2),  # Cid: 15+9 = 24 balloon space, plain card: +1, bank 0
        roll(3, 6),
        MOVE,
        TAKE,
    ],  # Dee: 24+9 = 33 balloon space: bank empty
    {
        "phase": "reveal",
        "statue": 33,
        "bank": 0,
        "tokens": [4, 4, 3, 2, 2],
        "row_sizes": [2, 2, 2, 2, 1],
        "events_include": ["the bank is empty: no token"],
    },
)
write("five_players_bank", "5 players: bank starts with 5", P5, [], {"bank": 5, "tokens": [2, 2, 2, 2, 2]})
write(
    "reroll_some_dice",
    "re-roll one of two dice: token back to the bank, the other die kept",
    P3,
    PLAIN + [roll(3, 4), {"type": "reroll", "indices": [1], "values": [6]}],
    {"phase": "rolled", "dice": [3, 6], "tokens": [1, 2, 2], "bank": 10},
)
write(
    "reroll_twice_then_move",
    "two tokens, two re-rolls in one turn, then the statue moves by the new sum",
    P3,
    PLAIN
    + [
        roll(3, 4),
        {"type": "reroll", "indices": [0, 1], "values": [1, 1]},
        {"type": "reroll", "indices": [0], "values": [2]},
        MOVE,
    ],
    {"phase": "space", "statue": 3, "tokens": [0, 2, 2], "bank": 11},
)
write(
    "reroll_without_token",
    "a third re-roll with no token left",
    P3,
    PLAIN
    + [
        roll(3),
        {"type": "reroll", "indices": [0], "values": [1]},
        {"type": "reroll", "indices": [0], "values": [2]},
        {"type": "reroll", "indices": [0], "values": [5]},
    ],
    error="you have no re-roll token",
)
write(
    "reroll_cannot_add_die",
    "a re-roll may not add a die",
    P3,
    PLAIN + [roll(3, 4), {"type": "reroll", "indices": [0, 1, 2], "values": [1, 2, 3]}],
    error="a re-roll cannot add a die: you rolled 2",
)
write("four_dice", "4 number dice are refused", P3, PLAIN + [roll(1, 2, 3, 4)], error="4 dice are not allowed")
write("die_face_seven", "a die face out of range", P3, PLAIN + [roll(7)], error="a die shows 1 to 6")
write(
    "reroll_after_move",
    "no re-roll once the statue has moved",
    P3,
    PLAIN + [roll(3), MOVE, {"type": "reroll", "indices": [0], "values": [1]}],
    error="not now",
)
write(
    "roll_before_deal",
    "no roll before the five face-up cards are entered",
    P3,
    [roll(3)],
    error="enter the five face-up cards first",
)
write(
    "token_earned_this_turn_counts_next_turn",
    "a token earned on a balloon is fresh this turn, usable next turn",
    P3,
    PLAIN
    + [
        roll(1),
        {"type": "reroll", "indices": [0], "values": [2]},
        {"type": "reroll", "indices": [0], "values": [2]},
        MOVE,
        TAKE,
    ],
    {"phase": "reveal", "tokens": [1, 2, 2], "fresh": [1, 0, 0], "bank": 10},
)
write(
    "token_earned_used_next_turn",
    "Ana's balloon token (earned with none left) pays a re-roll on her next turn",
    P3,
    PLAIN
    + [
        roll(1),
        {"type": "reroll", "indices": [0], "values": [2]},
        {"type": "reroll", "indices": [0], "values": [2]},
        MOVE,
        TAKE,
        rev(0, 2),
        roll(1),
        MOVE,
        TAKE,
        rev(0, 3),
        roll(2),
        MOVE,
        TAKE,
        rev(0, 4),
        roll(1),
        {"type": "reroll", "indices": [0], "values": [1]},
    ],
    {"phase": "rolled", "current": "Ana", "tokens": [0, 2, 2], "fresh": [0, 0, 0], "bank": 11, "statue": 5},
)
# picture die: statue 0 + 7 = space 7 (picture)
CAT_TIE = deal((2, False), (5, False), (2, False), (9, False), (9, False))
write(
    "cat_tie_must_choose",
    "cat with two equal lowest cards: the player must say which",
    P3,
    CAT_TIE + [roll(3, 4), MOVE, {"type": "picture", "face": "cat"}, TAKE],
    error="several face-up cards tie",
)
write(
    "cat_tie_pick",
    "cat with a tie: the player picks region 2 (value 2); refill there",
    P3,
    CAT_TIE + [roll(3, 4), MOVE, {"type": "picture", "face": "cat"}, {"type": "take_region", "region": 2}, rev(2, 7)],
    {"phase": "roll", "current": "Bob", "row_sizes": [2, 1, 1], "face_up_values": [2, 5, 7, 9, 9], "pile": 36},
)
write(
    "cat_not_lowest",
    "cat cannot take a card that is not the lowest",
    P3,
    CAT_TIE + [roll(3, 4), MOVE, {"type": "picture", "face": "cat"}, {"type": "take_region", "region": 1}],
    error="the cat takes the lowest face-up card",
)
write(
    "rat_tie_pick",
    "rat with two 9s: the player picks region 4",
    P3,
    CAT_TIE + [roll(3, 4), MOVE, {"type": "picture", "face": "rat"}, {"type": "take_region", "region": 4}],
    {"phase": "reveal", "face_up_values": [2, 5, 2, 9, None]},
)
write(
    "rat_not_highest",
    "rat cannot take a low card",
    P3,
    CAT_TIE + [roll(3, 4), MOVE, {"type": "picture", "face": "rat"}, {"type": "take_region", "region": 0}],
    error="the rat takes the highest face-up card",
)
write(
    "cat_single_lowest",
    "cat with one lowest card needs no choice",
    P3,
    PLAIN + [roll(3, 4), MOVE, {"type": "picture", "face": "cat"}, TAKE],
    {"phase": "reveal", "face_up_values": [5, 6, 7, 8, None]},
)
write(
    "picture_reroll_with_token",
    "the picture die may be re-rolled with a token",
    P3,
    PLAIN + [roll(3, 4), MOVE, {"type": "picture", "face": "swap"}, {"type": "reroll", "picture": "cat"}],
    {"phase": "picture_rolled", "picture": "cat", "tokens": [1, 2, 2], "bank": 10},
)
write(
    "swap_declined",
    "swap is optional: declined, nothing changes, next player",
    P3,
    PLAIN + [roll(3, 4), MOVE, {"type": "picture", "face": "swap"}, {"type": "no_swap"}],
    {
        "phase": "roll",
        "current": "Bob",
        "rows": [[{"id": 1, "from": "deal"}], [{"id": 2, "from": "deal"}], [{"id": 3, "from": "deal"}]],
        "face_up_values": [5, 6, 7, 8, 3],
    },
)
write(
    "swap_done",
    "swap: own card 1 with Cid's card 1, face down, rows keep their places",
    P3,
    PLAIN
    + [roll(3, 4), MOVE, {"type": "picture", "face": "swap"}, {"type": "swap", "mine": 0, "other": "Cid", "theirs": 0}],
    {
        "phase": "roll",
        "current": "Bob",
        "rows": [[{"id": 3, "from": "deal"}], [{"id": 2, "from": "deal"}], [{"id": 1, "from": "deal"}]],
    },
)
write(
    "swap_with_self",
    "swap needs another player",
    P3,
    PLAIN
    + [roll(3, 4), MOVE, {"type": "picture", "face": "swap"}, {"type": "swap", "mine": 0, "other": "Ana", "theirs": 0}],
    error="another player",
)
write(
    "picture_face_unknown",
    "a face the picture die does not have",
    P3,
    PLAIN + [roll(3, 4), MOVE, {"type": "picture", "face": "dog"}],
    error="the picture die shows cat, rat, swap",
)

# Reshuffle trigger. Start: r1 and r2 balloons; Ana takes r0 (card space 1, plain), refill r0 with a balloon -> 3.
THREE = deal((5, False), (6, True), (7, True), (8, False), (3, False)) + [roll(1), MOVE, TAKE, rev(0, 4, True)]
write(
    "reshuffle_ko_at_three",
    "Korean rules: exactly 3 balloons face up after the refill: reshuffle, five new cards",
    P3,
    THREE,
    {
        "phase": "reveal",
        "to_reveal": [0, 1, 2, 3, 4],
        "reshuffles": 1,
        "pile": 41,
        "face_up_values": [None, None, None, None, None],
        "current": "Ana",
    },
)
write(
    "reshuffle_ko_new_five",
    "Korean rules: after the reshuffle the five new cards are entered, then Bob's turn",
    P3,
    THREE + deal((1, False), (2, True), (3, False), (4, False), (0, False)),
    {"phase": "roll", "current": "Bob", "reshuffles": 1, "pile": 36, "face_up_values": [1, 2, 3, 4, 0]},
)
write(
    "reshuffle_ko_again",
    "Korean rules: the new five show 3 balloons again: a second reshuffle",
    P3,
    THREE + deal((1, True), (2, True), (3, True), (4, False), (0, False)),
    {"phase": "reveal", "current": "Ana", "reshuffles": 2, "pile": 41},
)
write(
    "reshuffle_en_three_no",
    "English edition: exactly 3 balloons is not more than 3: no reshuffle",
    P3,
    THREE,
    {"phase": "roll", "current": "Bob", "reshuffles": 0, "pile": 36, "face_up_values": [4, 6, 7, 8, 3]},
    settings={"edition": "en"},
)
write(
    "reshuffle_en_four",
    "English edition: 4 balloons triggers the reshuffle",
    P3,
    deal((5, False), (6, True), (7, True), (8, True), (3, False)) + [roll(1), MOVE, TAKE, rev(0, 4, True)],
    {"phase": "reveal", "reshuffles": 1, "pile": 41},
    settings={"edition": "en"},
)
write(
    "reshuffle_ko_two_no",
    "Korean rules: 2 balloons: no reshuffle",
    P3,
    deal((5, False), (6, True), (7, False), (8, False), (3, False)) + [roll(1), MOVE, TAKE, rev(0, 4, True)],
    {"phase": "roll", "reshuffles": 0, "current": "Bob"},
)
write(
    "reveal_too_many_of_a_value",
    "five face-up 0s: the deck has only four",
    P3,
    deal((0, False), (0, False), (0, False), (0, False), (0, False)),
    error="the deck has only 4 cards of 0",
)
write("reveal_unknown_value", "a value not in the deck", P3, [rev(0, 12)], error="no card in this deck shows 12")

# End game. Each normal turn adds one card; 3 players, threshold 4: three rounds of plain takes.
# From space 0 these steps land on card spaces only: 1, 3, 5, 6, 8, 10, 12, 13, 16, 17, 19, 20.
STEPS = [1, 2, 2, 1, 2, 2, 2, 1, 3, 1, 2, 1]


def plain_turns(n):
    """The game's first n turns, each taking the pile's top card on a card space."""
    acts = []
    for step in STEPS[:n]:
        acts += [roll(step), MOVE, {"type": "take_pile", "balloon": False}]
    return acts


THREE_ROUNDS = PLAIN + plain_turns(9)
write(
    "endgame_mode",
    "3 players, 4 cards: no more number dice, pass or picture die; final round starts",
    P3,
    THREE_ROUNDS,
    {"phase": "endgame", "current": "Ana", "row_sizes": [4, 4, 4], "final_round": True, "last_to_threshold": 2},
)
write(
    "endgame_no_number_dice",
    "a player at the threshold may not roll number dice",
    P3,
    THREE_ROUNDS + [roll(3)],
    error="Ana has 4 cards: pass or roll the picture die",
)
write(
    "endgame_give_back",
    "end game: cat gives a card, one old card goes back blind to the bottom of the pile",
    P3,
    THREE_ROUNDS + [{"type": "picture", "face": "cat"}, TAKE],
    {"phase": "give_back", "row_sizes": [5, 4, 4], "face_up_values": [5, 6, 7, 8, None]},
)
write(
    "endgame_give_back_done",
    "end game give-back: row back to 4, pile +1, then the refill",
    P3,
    THREE_ROUNDS + [{"type": "picture", "face": "cat"}, TAKE, {"type": "give_back", "card": 1}, rev(4, 0)],
    {"phase": "endgame", "current": "Bob", "row_sizes": [4, 4, 4], "pile": 37 - 9 + 1 - 1, "rows0_ids": [1, 7, 10, 13]},
)
write(
    "endgame_give_back_new_card",
    "the card just taken cannot be the one given back",
    P3,
    THREE_ROUNDS + [{"type": "picture", "face": "cat"}, TAKE, {"type": "give_back", "card": 4}],
    error="give back one of the cards you held before",
)
write(
    "endgame_swap",
    "end game: swap is allowed (optional)",
    P3,
    THREE_ROUNDS + [{"type": "picture", "face": "swap"}, {"type": "swap", "mine": 3, "other": "Bob", "theirs": 0}],
    {"phase": "endgame", "current": "Bob", "row_sizes": [4, 4, 4], "rows0_ids": [1, 4, 7, 2]},
)
write(
    "final_round_ends_on_last",
    "final round: Ana, Bob, Cid each one more turn; ends after Cid (last to 4)",
    P3,
    THREE_ROUNDS + [{"type": "pass"}, {"type": "pass"}, {"type": "pass"}],
    {"phase": "final_reveal", "current": "Cid"},
)
write(
    "final_round_not_before_last",
    "final round: after Ana and Bob the game is not over yet",
    P3,
    THREE_ROUNDS + [{"type": "pass"}, {"type": "pass"}],
    {"phase": "endgame", "current": "Cid"},
)
# Bob first: Ana is the last to reach 4, so the final round ends on Ana.
write(
    "final_round_right_player",
    "Bob starts, Ana is last to 4 cards: final round Bob, Cid, Ana; ends after Ana",
    P3,
    THREE_ROUNDS + [{"type": "pass"}, {"type": "pass"}],
    {"phase": "endgame", "current": "Ana", "last_to_threshold": 0, "final_round": True},
    settings={"first_player": 1},
)
write(
    "final_round_right_player_end",
    "Bob starts: the game ends when Ana finishes the final round",
    P3,
    THREE_ROUNDS + [{"type": "pass"}, {"type": "pass"}, {"type": "pass"}],
    {"phase": "final_reveal", "current": "Ana"},
    settings={"first_player": 1},
)
write(
    "endgame_before_final_round",
    "Ana at 4 while others still roll: she passes, no final round yet",
    P3,
    PLAIN + plain_turns(7),
    {"phase": "roll", "current": "Bob", "row_sizes": [4, 3, 3], "final_round": False},
)
write(
    "endgame_before_final_round_turn",
    "Ana at 4 while others still roll: her turn is pass or picture die",
    P3,
    PLAIN + plain_turns(9),
    {"phase": "endgame", "current": "Ana", "row_sizes": [4, 4, 4], "final_round": True},
)
P2 = ["Ana", "Bob"]
write(
    "two_player_threshold_five",
    "2 players: 4 cards is not yet the end game; Ana rolls again",
    P2,
    PLAIN + plain_turns(6),
    {"phase": "roll", "current": "Ana", "row_sizes": [4, 4], "threshold": 5},
)
write(
    "two_player_endgame_at_five",
    "2 players: at 5 cards no number dice",
    P2,
    PLAIN + plain_turns(8) + [roll(2)],
    error="Ana has 5 cards",
)
write("two_player_setup", "2 players: bank 11", P2, [], {"bank": 11, "threshold": 5, "pile": 43})
SCORE = THREE_ROUNDS + [{"type": "pass"}] * 3
write(
    "scores_lowest_wins",
    "reveal: the lowest total wins",
    P3,
    SCORE
    + [
        {"type": "hand", "player": "Ana", "values": [0, 1, 2, 3]},
        {"type": "hand", "player": "Bob", "values": [9, 9, 9, 9]},
        {"type": "hand", "player": "Cid", "values": [4, 4, 1, 2]},
    ],
    {"phase": "over", "scores": {"Ana": 6, "Bob": 36, "Cid": 11, "winners": ["Ana"]}},
)
write(
    "scores_tie_shares",
    "reveal: equal lowest totals share the win",
    P3,
    SCORE
    + [
        {"type": "hand", "player": "Ana", "values": [0, 1, 2, 3]},
        {"type": "hand", "player": "Bob", "values": [9, 9, 9, 9]},
        {"type": "hand", "player": "Cid", "values": [3, 3, 0, 0]},
    ],
    {"phase": "over", "scores": {"Ana": 6, "Bob": 36, "Cid": 6, "winners": ["Ana", "Cid"]}},
)
write(
    "reveal_wrong_count",
    "a hand must have as many values as cards",
    P3,
    SCORE + [{"type": "hand", "player": "Ana", "values": [0, 1, 2]}],
    error="Ana has 4 cards: enter 4 values",
)
write(
    "reveal_impossible_counts",
    "more 9s than the deck holds across hands",
    P3,
    SCORE
    + [
        {"type": "hand", "player": "Ana", "values": [9, 9, 9, 9]},
        {"type": "hand", "player": "Bob", "values": [9, 9, 9, 9]},
        {"type": "hand", "player": "Cid", "values": [9, 9, 0, 0]},
    ],
    error="the deck has only 9 cards of 9",
)
write(
    "no_actions_after_over",
    "nothing after the game ends",
    P3,
    SCORE + [{"type": "hand", "player": n, "values": [v] * 4} for n, v in zip(P3, [1, 2, 4])] + [{"type": "pass"}],
    error="the game is over",
)
print(len(list(OUT.glob("*.json"))))
