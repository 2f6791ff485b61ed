"""Rat-a-Tat Roll screen: a short game by touches and fake dice readings, with screenshots at 800×480."""

from __future__ import annotations

from typing import Any

import pytest
from ui_support import UI

from companion.games.base import Player, Setup
from companion.vision.roll import DieRead, Roll

pytestmark = pytest.mark.ui
# How long to wait for the statue's walk to end: it steps once a frame at most (Kivy's interval events never fire
# twice in one frame), so on a loaded machine a walk of 17 spaces took over 5 s. A wait, not a speed check: it ends
# as soon as the walk does.
WALK_S = 30.0

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bob", "#1e88e5", 2), Player("Cid", "#43a047", 3))


def start(ui: UI, players: tuple[Player, ...] = PLAYERS, **settings: Any) -> Any:
    ui.app.start_game(Setup("ratatat", players, settings))
    ui.advance(3)
    screen = ui.screen()
    assert screen.name == "ratatat"
    return screen


def feed(ui: UI, roll: Roll) -> None:
    """Hand a dice reading to the screen as the camera would, then let the layout settle."""
    ui.screen().on_roll(roll)
    ui.advance(2)


def pips(*faces: int) -> Roll:
    return Roll(tuple(DieRead("pips", f) for f in faces), source="camera")


def picture(face: str) -> Roll:
    return Roll((DieRead("picture", face),), source="camera")


def deal(ui: UI, cards: list[tuple[int, bool]]) -> None:
    for value, balloon in cards:
        if balloon:
            ui.tap_text("Balloon: no")
        ui.tap(next(b for b in buttons(ui) if b.text == str(value)))


def buttons(ui: UI) -> list[Any]:
    from kivy.uix.button import Button

    return [w for w in ui.screen().ids.controls.walk(restrict=True) if isinstance(w, Button)]


def tap_face(ui: UI, die: int, face: int) -> None:
    """Tap face ``face`` on the faces keypad (one row of 1-6: each tap is the next die's face; ``die`` says which
    die that is); found afresh after each rebuild."""
    assert ui.screen().faces.index(None) == die
    faces = [b for b in buttons(ui) if len(b.text) == 1 and b.text in "123456"]
    row = next(y for y in {b.y for b in faces} if len([b for b in faces if b.y == y]) == 6)
    ui.tap(next(b for b in faces if b.y == row and b.text == str(face)))


def die_button(ui: UI) -> Any:
    """The first number-die button in the rolled row (the top row of the controls)."""
    return max(buttons(ui), key=lambda b: (b.y, -b.x))


def pixel_at(shot: Any, widget: Any, x: float, y: float) -> tuple[int, int, int]:
    """The RGB colour of a screenshot at a point in ``widget``'s coordinates."""
    import cv2

    image = cv2.imread(str(shot))
    wx, wy = widget.to_window(x, y)
    b, g, r = image[image.shape[0] - 1 - int(wy), int(wx)]
    return int(r), int(g), int(b)


def swatches(screen: Any) -> list[Any]:
    from companion.ui.screens.ratatat import Swatch

    return [w for w in screen.walk() if isinstance(w, Swatch)]


def state(ui: UI) -> dict[str, Any]:
    return ui.screen().session.state  # type: ignore[no-any-return]


def test_deal_and_first_turn_by_touch(ui: UI) -> None:
    screen = start(ui)
    assert "Deal: enter the face-up card of the Red region" in screen.prompt
    shot = ui.screenshot("ratatat-deal")
    r, g, b = pixel_at(shot, screen.ids.board, *screen.ids.board.space_centre(0))
    assert r > 200 and g > 150 and b < 100, (r, g, b)  # the gold statue is drawn on its space from the start
    deal(ui, [(5, True), (6, False), (1, False), (8, False), (3, False)])
    assert state(ui)["phase"] == "roll"
    assert [c["value"] for c in state(ui)["face_up"]] == [5, 6, 1, 8, 3]
    assert state(ui)["face_up"][0]["balloon"] is True
    # the assistant: the lowest card (1) is in Green (spaces 15-20); 3 dice give the best chance
    assert "Lowest card 1: best chance with 3 dice" in screen.info
    assert "68%" in ui.texts()  # the table: 3 dice reach Yellow 68% of the time
    assert len(swatches(screen)) == 5  # its columns: the regions by their colours (no name to cut short)
    assert "3 dice" in ui.find("best").text
    ui.screenshot("ratatat-roll-assistant")
    # touch entry: 2 dice, faces 1 and 1 -> space 2 (balloon, Red); a wrong count goes Back to the table
    ui.tap_text("3 dice")
    ui.tap_text("Back")
    assert screen.dice_count == 0 and len(swatches(screen)) == 5
    ui.tap_text("2 dice")
    tap_face(ui, 0, 1)
    tap_face(ui, 1, 1)
    ui.tap_text("Use these dice")
    assert state(ui)["phase"] == "rolled" and state(ui)["dice"] == [1, 1]
    assert "would land on a balloon space (Red)" in screen.prompt
    ui.tap_text("Move the statue")
    board = screen.ids.board
    assert board.animating and board.shown in (0, 1)  # walking space by space
    assert ui.wait_until(lambda: not board.animating, timeout_s=3)
    assert board.shown == 2 == state(ui)["statue"]
    ui.screenshot("ratatat-landed-balloon")
    ui.tap_text("Take the Red 5 (balloon: +1 token) + 1 token")
    assert state(ui)["tokens"] == [4, 2, 2] and state(ui)["bank"] == 7
    assert "+1 re-roll token (balloon card); +1 re-roll token (balloon space)" in screen.header_text
    assert "tokens 2 +2 next turn" in screen.tiles[0].text and screen.tiles[0].cards == 2
    assert "Refill" in screen.prompt
    deal(ui, [(4, False)])
    assert state(ui)["current"] == 1 and state(ui)["phase"] == "roll"
    assert "tokens 4" in screen.tiles[0].text and screen.tiles[0].cards == 2


def test_camera_rolls_rerolls_and_picture_die(ui: UI) -> None:
    screen = start(ui)
    deal(ui, [(5, False), (2, False), (2, False), (9, False), (9, False)])
    feed(ui, pips(1, 2, 3, 4))
    assert screen.message_is_error and "4 dice are not allowed" in screen.header_text
    feed(ui, pips(3, 3))
    assert state(ui)["dice"] == [3, 3]
    # re-roll the second die by tapping it, then a camera reading of just that die
    dice = sorted((b for b in buttons(ui) if b.text == "3"), key=lambda b: b.x)
    ui.tap(dice[1])
    assert screen.reroll_pick == [1]
    picked = [b.text for b in buttons(ui) if "(re-roll)" in b.text]
    assert len(picked) == 1 and "3" in picked[0].split("\n")[0]  # the face, the word under it in a smaller type
    ui.screenshot("ratatat-reroll-pick")
    feed(ui, pips(4))
    assert state(ui)["dice"] == [3, 4] and state(ui)["tokens"][0] == 1 and state(ui)["bank"] == 10
    # re-roll the 3 but the camera reads both dice, in its own order: the kept 4 is matched, the new face is 2
    ui.tap(next(b for b in buttons(ui) if b.text == "3"))
    feed(ui, pips(6, 5))
    assert screen.message_is_error and "The dice you kept show 4" in screen.header_text
    assert state(ui)["dice"] == [3, 4] and screen.reroll_pick == [0]  # nothing spent, the pick stays
    feed(ui, pips(4, 3))
    assert state(ui)["dice"] == [3, 4] and state(ui)["tokens"][0] == 0  # a 3 again, read after the kept 4
    ui.tap_text("Undo")
    ui.tap(next(b for b in buttons(ui) if b.text == "3"))
    feed(ui, pips(4, 2))
    assert state(ui)["dice"] == [2, 4] and state(ui)["tokens"][0] == 0
    ui.tap_text("Undo")
    assert state(ui)["dice"] == [3, 4] and state(ui)["tokens"][0] == 1
    ui.tap_text("Move the statue")  # 0 + 7 = picture-die space
    assert ui.wait_until(lambda: not screen.ids.board.animating, timeout_s=WALK_S)
    assert state(ui)["phase"] == "picture"
    feed(ui, picture("swap"))
    assert state(ui)["picture"] == "swap"
    # spend the last token on the picture die
    ui.tap_text("Re-roll the picture die")
    feed(ui, picture("cat"))
    assert state(ui)["picture"] == "cat" and state(ui)["tokens"][0] == 0
    assert "pick one of the equal cards" in screen.prompt
    ui.screenshot("ratatat-cat-tie")
    ui.tap_text("Take Green 2")
    assert state(ui)["face_up"][2] is None and state(ui)["phase"] == "reveal"
    deal(ui, [(7, False)])
    assert state(ui)["current"] == 1
    # Bob: re-roll refused without a token? He has 2; Undo brings Ana's turn back
    ui.tap_text("Undo")
    assert state(ui)["phase"] == "reveal"


def test_no_token_message_and_swap_declined(ui: UI) -> None:
    screen = start(ui)
    deal(ui, [(5, False), (6, False), (7, False), (8, False), (3, False)])
    feed(ui, pips(1))
    for face in (1, 1):
        ui.tap(die_button(ui))
        feed(ui, pips(face))
    ui.tap(die_button(ui))
    assert screen.message_is_error and "you have no re-roll token" in screen.header_text
    ui.tap_text("Move the statue")
    assert ui.wait_until(lambda: not screen.ids.board.animating, timeout_s=WALK_S)
    ui.tap_text("Top of pile, balloon")
    assert state(ui)["tokens"][0] == 1 and state(ui)["current"] == 1
    feed(ui, pips(3, 3))  # Bob: 1 + 6 = 7, picture space
    ui.tap_text("Move the statue")
    ui.tap_text("Swap")
    ui.tap_text("My card 1")
    ui.tap_text("Ana")
    # a wrong pick is corrected step by step with Back, without declining the swap
    ui.tap_text("Back")
    assert "swap your card 1 with whose card?" in screen.prompt
    ui.tap_text("Back")
    assert "Pick one of your cards" in screen.prompt and state(ui)["phase"] == "picture_rolled"
    ui.tap_text("My card 1")
    ui.tap_text("Cid")
    assert "swap your card 1 with which of Cid's cards?" in screen.prompt
    ui.screenshot("ratatat-swap")
    ui.tap_text("No swap")
    assert state(ui)["current"] == 2 and [len(r) for r in state(ui)["rows"]] == [2, 1, 1]


@pytest.mark.slow
def test_two_player_end_game_and_scores(ui: UI) -> None:
    players = PLAYERS[:2]
    screen = start(ui, players)
    deal(ui, [(5, False), (6, False), (7, False), (8, False), (3, False)])
    steps = [1, 2, 2, 1, 2, 2, 2, 1]  # card spaces only: take the pile's top card
    for step in steps:
        feed(ui, pips(step))
        ui.tap_text("Move the statue")
        ui.tap(next(b for b in buttons(ui) if b.text == "Top of pile"))
    assert [len(r) for r in state(ui)["rows"]] == [5, 5] and state(ui)["final_round"]
    assert "Ana has 5 cards (final round)" in screen.prompt
    feed(ui, pips(3))
    assert "Ana has 5 cards: pass or roll the picture die, no number dice" in screen.header_text
    ui.screenshot("ratatat-endgame")
    ui.tap_text("Cat (lowest)")
    ui.tap_text("Take Purple 3")
    assert "give one of your old cards back" in screen.prompt
    ui.tap_text("Card 2")
    deal(ui, [(0, False)])
    assert state(ui)["current"] == 1 and state(ui)["pile"] == 43 - 5 - 8
    ui.tap_text("Pass")
    assert state(ui)["phase"] == "final_reveal"
    for name, values in (("Ana", [1, 2, 3, 4, 3]), ("Bob", [0, 0, 9, 9, 2])):
        assert f"Reveal: {name} turns over 5 cards" in screen.prompt
        for value in values:
            ui.tap(next(b for b in buttons(ui) if b.text == str(value)))
        ui.tap_text(f"{name}: total {sum(values)}")
    assert screen.session.over
    assert "Ana wins with 13!" in screen.prompt
    ui.screenshot("ratatat-over")


def test_leopard_look_reshuffle_and_arcade_button(ui: UI) -> None:
    from hardware.buttons import ButtonEvent

    screen = start(ui)
    deal(ui, [(5, False), (6, True), (7, True), (8, False), (3, False)])
    feed(ui, pips(4))  # space 4: leopard, Red
    screen.on_button(ButtonEvent(seat=2, kind="press", tick=1.0))  # not Bob's turn: ignored
    assert state(ui)["phase"] == "rolled"
    screen.on_button(ButtonEvent(seat=1, kind="press", tick=1.1))  # Ana's button moves the statue
    ui.advance(2)
    assert state(ui)["phase"] == "space"
    assert ui.wait_until(lambda: not screen.ids.board.animating, timeout_s=WALK_S)
    ui.tap_text("Take the Red 5, then look")
    # the refill shows a third balloon: Korean rules reshuffle, five new cards are entered
    deal(ui, [(2, True)])
    assert state(ui)["reshuffles"] == 1 and state(ui)["phase"] == "reveal"
    assert "shuffled into the pile" in screen.info
    ui.screenshot("ratatat-reshuffle")
    deal(ui, [(1, False), (4, False), (0, False), (9, False), (9, False)])
    assert state(ui)["phase"] == "look"
    ui.tap_text("Cid")
    ui.screenshot("ratatat-look")
    ui.tap_text("Cid 1")
    assert state(ui)["current"] == 1 and state(ui)["phase"] == "roll"
    assert [c["value"] for c in state(ui)["face_up"]] == [1, 4, 0, 9, 9]


def test_five_players_fit_and_resume_keeps_the_statue(ui: UI) -> None:
    five = (*PLAYERS, Player("Dee", "#fdd835", 4), Player("Eve", "#8e24aa", 5))
    screen = start(ui, five)
    deal(ui, [(5, False), (6, False), (7, False), (8, False), (0, False)])
    ui.tap_text("3 dice")
    for die, face in enumerate((6, 5, 6)):
        tap_face(ui, die, face)
    ui.tap_text("Use these dice")
    ui.tap_text("Move the statue")
    assert ui.wait_until(lambda: not screen.ids.board.animating, timeout_s=WALK_S)
    assert state(ui)["statue"] == 17 and screen.ids.board.shown == 17
    assert len(screen.tiles) == 5 and all(t.width > 140 and t.right <= 800 for t in screen.tiles)
    ui.screenshot("ratatat-five-players")
    # reopening the game (as after a crash) draws the statue where it is, without walking again
    ui.app.resume(screen.session.game_id)
    ui.advance(2)
    assert not screen.ids.board.animating and screen.ids.board.shown == 17
    assert "Dee" in ui.texts() and "Take the Green 7" in ui.texts()


def small_targets(ui: UI) -> list[str]:
    """Visible buttons on the current screen smaller than 48 px either way (touch targets)."""
    from kivy.uix.button import Button

    return [
        f"{w.text!r} {w.width:.0f}x{w.height:.0f}"
        for w in ui.screen().walk(restrict=True)
        if isinstance(w, Button) and w.opacity > 0 and w.get_root_window() and (w.width < 48 or w.height < 48)
    ]


def overlapping(ui: UI) -> list[str]:
    """Pairs of visible buttons in the controls panel that cover each other (by more than a pixel)."""
    from kivy.uix.button import Button

    found = [w for w in ui.screen().ids.controls.walk(restrict=True) if isinstance(w, Button) and w.opacity > 0]
    boxes = [(w.text, *w.to_window(w.x, w.y), w.width, w.height) for w in found]
    out = []
    for i, (a, ax, ay, aw, ah) in enumerate(boxes):
        for b, bx, by, bw, bh in boxes[i + 1 :]:
            if min(ax + aw, bx + bw) - max(ax, bx) > 1 and min(ay + ah, by + bh) - max(ay, by) > 1:
                out.append(f"{a!r} over {b!r}")
    return out


@pytest.mark.slow
def test_three_player_game_to_the_end_by_touch(ui: UI) -> None:
    """A whole game by touches only: dice faces tapped, cards from the pile, the final round (rat with the
    blind give-back, a pass, a swap) ending after Cid, who was last to 4 cards; then the reveal."""
    screen = start(ui)
    seen: list[str] = []
    tap = ui.tap

    def tap_and_check(widget: Any, **kwargs: Any) -> None:  # every screen reached is checked once laid out
        tap(widget, **kwargs)
        ui.advance(1)
        seen.extend(small_targets(ui) + overlapping(ui))

    ui.tap = tap_and_check  # type: ignore[method-assign]
    deal(ui, [(5, False), (6, False), (7, False), (8, False), (3, False)])
    for turn, step in enumerate([1, 2, 2, 1, 2, 2, 2, 1, 3]):  # card spaces 1, 3, 5, 6, 8, 10, 12, 13, 16
        me = turn % 3
        assert state(ui)["current"] == me and screen.tiles[me].active
        assert sum(t.active for t in screen.tiles) == 1
        ui.tap_text("1 die")
        tap_face(ui, 0, step)
        ui.tap_text("Use these dice")
        ui.tap_text("Move the statue")
        assert ui.wait_until(lambda: not screen.ids.board.animating, timeout_s=WALK_S)
        ui.tap(next(b for b in buttons(ui) if b.text == "Top of pile"))
    st = state(ui)
    assert [len(r) for r in st["rows"]] == [4, 4, 4] and st["final_round"] and st["last_to_threshold"] == 2
    assert "Ana has 4 cards (final round)" in screen.prompt and screen.tiles[0].active
    ui.tap_text("Rat (highest)")
    ui.tap_text("Take Blue 8")
    assert screen.header_text == "take the card of the Blue region"  # named as on the board, not "region 4"
    assert "give one of your old cards back" in screen.prompt
    assert [b.text for b in buttons(ui) if b.text.startswith("Card")] == ["Card 1", "Card 2", "Card 3", "Card 4"]
    ui.screenshot("ratatat-give-back")
    ui.tap_text("Card 2")
    assert state(ui)["pile"] == 45 - 3 - 5 - 9 + 1 and [len(r) for r in state(ui)["rows"]] == [4, 4, 4]
    deal(ui, [(9, False)])  # refill of the Blue region
    assert screen.header_text == "the Blue region shows 9"
    assert state(ui)["current"] == 1 and "Bob has 4 cards (final round)" in screen.prompt
    ui.tap_text("Pass")
    assert state(ui)["current"] == 2 and state(ui)["phase"] == "endgame"  # not over before Cid's turn
    ui.tap_text("Swap")
    ui.tap_text("My card 1")
    ui.tap_text("Ana")
    ui.tap_text("Ana 1")
    assert state(ui)["phase"] == "final_reveal" and not any(t.active for t in screen.tiles)
    hands = {"Ana": [0, 1, 2, 8], "Bob": [2, 2, 0, 0], "Cid": [1, 1, 3, 3]}
    for name, values in hands.items():
        assert f"Reveal: {name} turns over 4 cards" in screen.prompt
        for value in values if name != "Bob" else [2, 2, 0, 9]:  # Bob's last card entered wrong
            ui.tap(next(b for b in buttons(ui) if b.text == str(value)))
        ui.tap_text(f"{name}: total {sum(values) if name != 'Bob' else 13}")
        if name == "Bob":  # Undo brings his four values back; the wrong last one is deleted and re-entered
            ui.tap_text("Undo")
            assert "Bob" not in state(ui)["hands"] and "Entered: 2 2 0 9" in screen.prompt
            ui.tap_text("Delete last")
            assert "Entered: 2 2 0" in screen.prompt
            ui.screenshot("ratatat-reveal-correct")
            ui.tap(next(b for b in buttons(ui) if b.text == "0"))
            ui.tap_text("Bob: total 4")
    assert screen.session.over and "Bob wins with 4!" in screen.prompt
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    table = [w.text for w in screen.ids.controls.walk(restrict=True) if type(w) is Label]
    assert table[:4] == ["WIN", "Bob", "2 + 2 + 0 + 0", "4"]  # ranked, lowest first: the cards under the name
    assert table[4:] == ["", "Cid", "1 + 1 + 3 + 3", "8", "", "Ana", "0 + 1 + 2 + 8", "11"]
    assert not any(isinstance(w, Button) and w.height < 48 for w in screen.ids.controls.walk(restrict=True))
    ui.screenshot("ratatat-over-3p")
    ui.advance(2)
    assert not seen and not small_targets(ui) and not overlapping(ui), seen


def test_half_made_choices_do_not_outlive_the_turn(ui: UI) -> None:
    """A swap half chosen before a picture-die re-roll (or a balloon toggled before Undo, below) is void once the
    game moves on: they used to come back on a later turn (Bob's swap skipped choosing his card, a plain card was
    recorded as a balloon)."""
    screen = start(ui)
    deal(ui, [(5, False), (0, False), (7, False), (8, False), (3, False)])
    feed(ui, pips(3, 4))
    screen.move()
    ui.advance(2)
    feed(ui, picture("swap"))
    ui.tap_text("My card 1")
    ui.tap_text("Bob")
    assert screen.prompt.startswith("Ana: swap your card 1 with which of Bob's cards?")
    ui.tap_text("Re-roll the picture die (token, 2 left)")
    feed(ui, picture("rat"))
    ui.tap_text("Take Blue 8")
    ui.tap(next(b for b in buttons(ui) if b.text == "2"))  # the refill
    assert state(ui)["players"][state(ui)["current"]] == "Bob"
    feed(ui, pips(3, 4))
    screen.move()
    ui.advance(2)
    feed(ui, picture("swap"))
    assert screen.prompt.startswith("Bob: swap? Pick one of your cards"), screen.prompt


def test_a_balloon_toggled_before_undo_is_forgotten(ui: UI) -> None:
    screen = start(ui)
    deal(ui, [(5, False), (0, False), (7, False), (8, False), (3, False)])
    feed(ui, pips(1))
    screen.move()
    ui.advance(2)
    ui.tap_text("Take the Red 5")
    ui.tap_text("Balloon: no")
    assert "Balloon: YES" in [b.text for b in buttons(ui)]
    ui.tap_text("Undo")
    ui.tap_text("Top of pile")
    feed(ui, pips(3))  # Bob lands on the leopard space of the Red region
    screen.move()
    ui.advance(2)
    ui.tap(buttons(ui)[0])
    assert "Balloon: no" in [b.text for b in buttons(ui)]
    ui.tap(next(b for b in buttons(ui) if b.text == "6"))
    assert state(ui)["face_up"][0] == {"value": 6, "balloon": False}


# -- long names, the end table, the banner: everything inside its box on the 800×480 screen -----------------------

LONG_NAMES = ("Bartholomew-Ch", "Dmitri-Konstan", "Alexandrina-Ma", "Maximiliano-Jo", "Christophe-Xav")  # 14 each
COLOURS = ("#e53935", "#1e88e5", "#43a047", "#fdd835", "#8e24aa")
TWO = (Player("Ana", COLOURS[0], 1), Player("Bo", COLOURS[1], 2))  # the app's default names
FIVE_LONG = tuple(Player(n, c, seat) for seat, (n, c) in enumerate(zip(LONG_NAMES, COLOURS, strict=True), 1))


def landing(screen: Any, kind: str) -> list[int]:
    """Dice (one if it can, else two) that move the statue onto a space of ``kind``."""
    st = screen.state
    spaces = st["board"]["spaces"]
    options = [[a] for a in range(1, 7)] + [[a, b] for a in range(1, 7) for b in range(1, 7)]
    return next(d for d in options if spaces[(st["statue"] + sum(d)) % len(spaces)]["kind"] == kind)


def quick_step(ui: UI, screen: Any) -> None:
    """One action of a fast game by the screen's own act(): every face-up card a 9 (there are nine), each turn a
    card from the pile, a pass at the threshold."""
    st = screen.state
    phase = st["phase"]
    if phase in ("deal", "reveal"):
        actions = [{"type": "reveal", "region": st["to_reveal"][0], "value": 9, "balloon": False}]
    elif phase == "roll":
        actions = [{"type": "roll", "dice": landing(screen, "card")}, {"type": "move"}]
    else:
        actions = [{"space": {"type": "take_pile", "balloon": False}, "endgame": {"type": "pass"}}[phase]]
    for action in actions:
        assert screen.act(action), (action, screen.header_text)


def play_until(ui: UI, screen: Any, done: Any) -> None:
    """Quick steps until ``done(state)``; the screen rebuilds at every act, and frames are drawn once it is reached
    (not at every step: the way there is not what these tests look at)."""
    for _ in range(300):
        if done(screen.state):
            ui.advance(2)
            return
        quick_step(ui, screen)
    raise AssertionError(f"not reached: {screen.state['phase']}")


def out_of_bounds(ui: UI) -> list[str]:
    """Labels (not buttons) in the controls whose text is drawn bigger than the label, or that reach past the
    controls panel or the window: the end table used to run off the right edge and draw names over the totals."""
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    controls = ui.screen().ids.controls
    left, _ = controls.to_window(controls.x, controls.y)
    right, _ = controls.to_window(controls.right, controls.y)
    bad = []
    for w in controls.walk(restrict=True):
        if isinstance(w, Label) and not isinstance(w, Button) and w.text:
            x0, y0 = w.to_window(w.x, w.y)
            x1, _ = w.to_window(w.right, w.top)
            tw, th = w.texture_size
            if tw > w.width + 1 or th > w.height + 1 or x0 < left - 1 or x1 > min(right, 800) + 1 or y0 < 0:
                bad.append(f"{w.text!r}: text {tw:.0f}x{th:.0f} in {w.width:.0f}x{w.height:.0f} at x {x0:.0f}-{x1:.0f}")
    return bad


def spilling_buttons(ui: UI) -> list[str]:
    """Buttons in the controls smaller than 48 px, with more than two lines of text, or with a word wider than a
    line (Kivy then breaks it mid-word: "Dmitri- / Konsta / n" spilled out of its button)."""
    from kivy.core.text import Label as CoreLabel
    from kivy.uix.button import Button

    bad = []
    for b in ui.screen().ids.controls.walk(restrict=True):
        if not isinstance(b, Button):
            continue
        measure = CoreLabel(font_size=b.font_size, bold=b.bold).get_extents
        line = measure("Ag")[1]
        room = b.text_size[0]
        wide = [word for word in b.text.split() if measure(word)[0] > room]
        if b.width < 48 or b.height < 48 or b.texture_size[1] > min(2 * line + 2, b.height) or wide:
            bad.append(f"{b.text!r} {b.width:.0f}x{b.height:.0f}: text {b.texture_size[1]:.0f} high, too wide {wide}")
    return bad


@pytest.mark.parametrize(
    ("players", "hands", "shot"),
    [
        (TWO, [[8, 8, 7, 7, 9], [3, 7, 4, 0, 7]], "ratatat-over-2p"),
        (FIVE_LONG, [[8, 8, 7, 9], [6, 6, 5, 9], [7, 7, 6, 5], [4, 3, 2, 1], [0, 1, 2, 3]], "ratatat-over-5p-long"),
    ],
)
def test_end_table_fits_the_screen(ui: UI, players: tuple[Player, ...], hands: list[list[int]], shot: str) -> None:
    """The end table for two players (five cards each) and five players of 14-character names: every total whole,
    the cards listed under the name, long names shortened; the last reveal is said in words, not as a list."""
    from kivy.uix.label import Label

    screen = start(ui, players)
    play_until(ui, screen, lambda st: st["phase"] == "final_reveal")
    names = [p.name for p in players]
    for name, values in zip(names, hands, strict=True):
        assert screen.act({"type": "hand", "player": name, "values": values}), screen.header_text
        ui.advance(2)
    assert screen.session.over
    last = ", ".join(map(str, hands[-1]))
    assert screen.header_text == f"{names[-1]} reveals {last}"  # was "Bo reveals [3, 7, 4, 0, 7]"
    ui.advance(3)
    ui.screenshot(shot)
    assert not out_of_bounds(ui), out_of_bounds(ui)
    labels = [w for w in screen.ids.controls.walk(restrict=True) if type(w) is Label]
    ranked = sorted(zip(names, hands, strict=True), key=lambda nh: sum(nh[1]))
    texts = [w.text for w in labels]
    for name, values in ranked:  # name, cards, total in this order, lowest total first
        at = texts.index(name)
        assert texts[at + 1 : at + 3] == [" + ".join(map(str, values)), str(sum(values))]
        total = labels[at + 2]
        assert not total.shorten and total.texture_size[0] <= total.width  # the total is never cut
    assert [t for t in texts if t in names] == [n for n, _ in ranked]
    home = ui.find("Home", screen.ids.controls)
    assert home.to_window(home.x, home.y)[1] >= screen.ids.players.to_window(0, screen.ids.players.top)[1]


@pytest.mark.parametrize(("players", "shot"), [(TWO, "ratatat-swap-2p"), (FIVE_LONG, "ratatat-swap-5p-long")])
def test_long_names_fit_the_look_and_swap_buttons(ui: UI, players: tuple[Player, ...], shot: str) -> None:
    """Look and swap with the most cards a player can hold and 14-character names: each name button at most two
    lines, a long name shortened with an ellipsis instead of broken mid-word, every button at least 48 px."""
    screen = start(ui, players)
    names = [p.name for p in players]
    threshold = state(ui)["threshold"]
    # a leopard space for the first player once the others hold all but one card: look
    play_until(
        ui,
        screen,
        lambda st: st["phase"] == "roll" and st["current"] == 0 and min(map(len, st["rows"])) >= threshold - 1,
    )
    assert screen.act({"type": "roll", "dice": landing(screen, "leopard")}) and screen.act({"type": "move"})
    assert screen.act({"type": "take_region"})
    play_until(ui, screen, lambda st: st["phase"] == "look")
    assert not spilling_buttons(ui), spilling_buttons(ui)
    ui.screenshot(f"{shot}-look")
    assert names[-1] in ui.texts()  # the longest row of names: all there, whole (two to a row)
    ui.tap(next(b for b in buttons(ui) if b.text == names[1]))
    assert f"which of {names[1]}'s cards" in screen.prompt
    assert not spilling_buttons(ui), spilling_buttons(ui)
    ui.tap_text("Back")
    ui.tap_text("Skip")
    # everyone at the threshold: the picture die shows swap
    play_until(ui, screen, lambda st: st["phase"] == "endgame" and min(map(len, st["rows"])) == threshold)
    feed(ui, picture("swap"))
    me = state(ui)["players"][state(ui)["current"]]
    other = next(n for n in names if n != me)
    ui.tap_text("My card 1")
    assert not spilling_buttons(ui), spilling_buttons(ui)
    ui.tap(next(b for b in buttons(ui) if b.text == other))
    theirs = [b for b in buttons(ui) if b.text.endswith(tuple(f" {j}" for j in range(1, threshold + 1)))]
    assert len(theirs) == threshold and not spilling_buttons(ui), spilling_buttons(ui)
    assert all(b.text.split()[0].rstrip("…") in other for b in theirs)  # the name kept (cut if long), the card whole
    ui.screenshot(shot)
    ui.tap(theirs[-1])
    assert screen.header_text.startswith(f"swap own card 1 with {other}'s card {threshold}")


def test_no_room_kept_for_the_banner(ui: UI) -> None:
    """The notice banner sits below the screens (they shrink for it): the screen keeps no empty strip of its own."""
    screen = start(ui, TWO)
    deal(ui, [(5, False), (6, False), (7, False), (8, False), (3, False)])
    ui.app.notice("camera", "Camera lost: test camera unplugged. Trying again; touch input works meanwhile.")
    ui.advance(3)
    strip = screen.ids.players
    assert ui.app.banner and strip.to_window(strip.x, strip.y)[1] == pytest.approx(screen.to_window(0, screen.y)[1])
    ui.screenshot("ratatat-notice")
    ui.app.notice("camera", None)
