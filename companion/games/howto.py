"""How to play: a short rules page per game (what the game is, a turn, the end and scoring, what the app does for
you), written from the rulebooks in ``shared/rules`` (the editions the app defaults to, the other edition named
where it differs). Standard library and :mod:`companion.i18n` only: the words are chosen when the page is shown,
so a language switch re-words it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.i18n import _


@dataclass(frozen=True)
class Section:
    """One part of a rules page: a heading and its paragraphs."""

    heading: str
    paragraphs: tuple[str, ...]


class NoRulesPage(LookupError):
    """A game without a rules page (an unknown game id)."""


def _what() -> str:
    return _("The game")


def _turn() -> str:
    return _("A turn")


def _end() -> str:
    return _("The end and the scores")


def _app() -> str:
    return _("What the app does for you")


def _ratatat() -> tuple[Section, ...]:
    return (
        Section(
            _what(),
            (
                _(
                    "2–5 players. Move the statue round the board with the number dice and take the cards where it "
                    "lands. Your cards lie face down in a row: remember what you hold. The lowest total at the end "
                    "wins."
                ),
            ),
        ),
        Section(
            _turn(),
            (
                _(
                    "Choose 1, 2 or 3 number dice and roll them: the statue moves clockwise by their sum. Before it "
                    "moves you may spend re-roll tokens, one for each re-roll, to roll some or all of those dice "
                    "again."
                ),
                _(
                    "Then do what the space says. Card: take that region's face-up card, or the top card of the "
                    "pile. Balloon: take the region's card and a token. Leopard: take the region's card, then look "
                    "at all your own cards or at one card of another player. Picture die: roll it; the cat takes "
                    "the lowest face-up card, the rat the highest, and swap lets you swap one of your cards with "
                    "another player's, face down, nobody looks."
                ),
                _(
                    "A taken card with a balloon earns a token too. Taken cards go face down at the end of your "
                    "row, and the region gets the pile's top card. When 3 or more face-up cards show a balloon (the "
                    "English edition: more than 3), all five are shuffled into the pile and five new ones are laid."
                ),
            ),
        ),
        Section(
            _end(),
            (
                _(
                    "With 4 cards (5 with two players) you no longer roll number dice: on your turn you pass or roll "
                    "the picture die, and a card the cat or rat gives you means handing one of your own back, "
                    "unseen, to the bottom of the pile. Once everybody has that many, one last round is played."
                ),
                _("Then everyone turns their cards over and adds them up: the lowest total wins; ties share the win."),
            ),
        ),
        Section(
            _app(),
            (
                _(
                    "It reads the number dice and the picture die with the camera (or you tap them), moves the "
                    "statue, rings the spaces the dice can reach and shows the chance of the lowest card with 1, 2 "
                    "or 3 dice. It offers only what the space allows, keeps the tokens and the bank, says when to "
                    "reshuffle and when the end game starts, and adds up the cards at the end. It never knows a "
                    "face-down card until the final reveal."
                ),
            ),
        ),
    )


def _lowdown() -> tuple[Section, ...]:
    return (
        Section(
            _what(),
            (
                _(
                    "2–4 players. A roll-and-write dice game: write numbers into the three colour grids of your "
                    "board and keep your total low. The lowest score wins."
                ),
            ),
        ),
        Section(
            _turn(),
            (
                _(
                    "The active player rolls 2 colour and 2 number dice in the open; at the same time the player "
                    "before them rolls 1 colour and 1 number die in secret. The active player takes one colour and "
                    "one number from the open dice, or the secret pair instead (once looked at, it must be used), "
                    "and writes the number in a free square of that colour."
                ),
                _(
                    "Then every other player takes one colour and one number from the dice the active player left "
                    "and writes it. Four times a game you may use a wild colour and write in any colour; when the "
                    "active player does, one colour die is taken away from the others. Who cannot write and has no "
                    "wild left shades a square: it counts 6."
                ),
                _(
                    "Three squares in a line in one grid (across, down or diagonal) whose numbers are equal or add "
                    "up to 10 may be crossed out: they count 0. Lines may not cross each other."
                ),
            ),
        ),
        Section(
            _end(),
            (
                _(
                    "The game ends when a player has filled 2 of their 3 grids; the others finish the turn. Your "
                    "score is every number not crossed out, plus 6 for each shaded square. The lowest score wins."
                ),
            ),
        ),
        Section(
            _app(),
            (
                _(
                    "It reads the colour and number dice with the camera (tap them if it cannot), can roll the "
                    "secret pair for you, keeps every player's board, offers only the squares and crossings the "
                    "rules allow, counts the wild colours, shaded squares and crossed lines, and scores the game."
                ),
            ),
        ),
    )


def _ratuki() -> tuple[Section, ...]:
    return (
        Section(
            _what(),
            (
                _(
                    "2–5 players. A fast card game without turns: everybody plays at once onto stacks in the "
                    "middle, counting up or down, and takes a stack with a 5 on a 4 or a wild Ratuki card. The "
                    "first to 100 points wins."
                ),
            ),
        ),
        Section(
            _turn(),
            (
                _(
                    "Hold 3 cards from your own deck. A stack is started with a 1; play one card at a time onto any "
                    "stack, one up or one down from its top card. A 5 on a 4, or a Ratuki card on any stack, takes "
                    "the stack: press your button (the “Ratuki!” call) and put the stack on your score pile."
                ),
                _(
                    "If you cannot play, discard a card and draw one. When two cards land on one stack at the same "
                    "moment, both go back to their owners' discard piles."
                ),
            ),
        ),
        Section(
            _end(),
            (
                _(
                    "A round ends when a player has no cards left in their draw and discard piles, or when nobody "
                    "can play. Each player scores the cards in their score pile minus the cards left in their draw "
                    "and discard piles. Rounds are played until somebody reaches 100 (or the higher target agreed); "
                    "the highest total wins, and equal highest is a draw."
                ),
            ),
        ),
        Section(
            _app(),
            (
                _(
                    "The buttons are the “Ratuki!” call: the first press wins the stack, and presses closer "
                    "together than the tie window are a stack tie, shown with the milliseconds between them. It "
                    "keeps the round clock and the score sheet, round by round: at the end of a round you enter "
                    "each player's score pile and the cards they have left."
                ),
            ),
        ),
    )


def _artcollectors() -> tuple[Section, ...]:
    return (
        Section(
            _what(),
            (
                _(
                    "2–5 players. Draw painting tokens from the bag, steal from the tops of the other piles, and "
                    "win each painting by holding the most of its tokens. The highest total wins."
                ),
            ),
        ),
        Section(
            _turn(),
            (
                _(
                    "Draw tokens from the bag one by one. Stop when you like and put this turn's tokens on top of "
                    "your pile, in any order. Draw a painting you already drew this turn and all of this turn's "
                    "tokens go back into the bag."
                ),
                _(
                    "Each time you draw a token you may take the same painting's tokens from the top of other "
                    "players' piles. The musician cats (11) are wild: take every cat on top of the other piles, or "
                    "swap the cat for another player's top token. In the full game the characters have abilities: "
                    "Robin Tell, the banker, the cheater, the angel, and the swimmer, writer and fortune teller "
                    "together."
                ),
            ),
        ),
        Section(
            _end(),
            (
                _(
                    "When the bag is empty, each painting goes to the player with the most of its tokens; a tie "
                    "goes to the player holding the black-cat token. Every token is worth 1 point (the twins 2), "
                    "and each painting won is worth its number. The highest total wins."
                ),
            ),
        ),
        Section(
            _app(),
            (
                _(
                    "It sets the game up for the number of players (with 3 or 4 players painting 10 is left out), "
                    "counts the paintings at the end with the black-cat tie-break and adds up the scores. If you "
                    "switch on the pile tracker it follows every draw, steal and ability, so nobody has to count."
                ),
            ),
        ),
    )


PAGES: dict[str, Callable[[], tuple[Section, ...]]] = {
    "ratatat": _ratatat,
    "lowdown": _lowdown,
    "ratuki": _ratuki,
    "artcollectors": _artcollectors,
}


def how_to_play(game: str) -> tuple[Section, ...]:
    """The rules page of ``game`` (a game id), worded in the current language."""
    page = PAGES.get(game)
    if page is None:
        raise NoRulesPage(f"no rules page for {game!r} (known: {', '.join(sorted(PAGES))})")
    return page()
