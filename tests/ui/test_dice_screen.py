"""Dice screen: a real photo settles into one roll drawn with boxes; tap a die to correct it (journaled);
"use this roll" hands the roll to the game screen."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from ui_support import UI, FakeCamera

from companion.vision.roll import Roll

SAMPLES = Path(__file__).resolve().parents[2] / "companion" / "vision" / "samples" / "felt-trays"


def labelled_sample() -> tuple[np.ndarray, list[int]]:
    image_path = sorted((SAMPLES / "images").glob("*.jpg"))[0]
    label = SAMPLES / "labels" / (image_path.stem + ".txt")
    values = sorted(int(line.split()[0]) + 1 for line in label.read_text().splitlines() if line.strip())
    image = cv2.imread(str(image_path))
    assert image is not None
    return image, values


def install_camera(ui: UI, image: np.ndarray) -> None:
    ui.app.settings["dice"]["settle_ms"] = 100
    camera = FakeCamera(image, "still photo")  # the dice lie still in the tray
    ui.use_camera(camera, interval_s=0.03)


def open_dice(ui: UI, image: np.ndarray) -> object:
    install_camera(ui, image)
    return ui.go("dice")


def test_settles_reads_and_draws(ui: UI) -> None:
    image, values = labelled_sample()
    screen = open_dice(ui, image)
    assert ui.wait_until(lambda: screen.roll is not None, timeout_s=30)
    read = sorted(int(v) for v in screen.roll.faces("pips"))
    from companion.vision.pipeline import read_dice

    direct = read_dice(image)  # the settled, voted roll agrees with a single reading of the still photo
    assert read == sorted(int(v) for v in direct.values)
    assert read and len(values) > 0  # reader accuracy against the labels is measured by `companion dice eval`
    assert screen.sum_text == str(sum(read))
    shot = ui.screenshot("dice-settled")
    picture = cv2.imread(str(shot))
    green = (picture[:, :, 1] > 200) & (picture[:, :, 0] < 120) & (picture[:, :, 2] < 120)
    assert green.sum() > 50  # the boxes are drawn


def test_tap_die_to_correct_and_use_roll(ui: UI) -> None:
    image, _values = labelled_sample()
    eng_game = "ratatat"
    from companion.games.base import Player, Setup

    ui.app.start_game(Setup(eng_game, (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2)), seed=3))
    received: list[Roll] = []
    game_screen = ui.screen()
    game_screen.on_roll = received.append  # type: ignore[method-assign]
    install_camera(ui, image)
    ui.app.open_dice(eng_game)
    ui.advance(2)
    screen = ui.screen()
    assert ui.wait_until(lambda: screen.roll is not None, timeout_s=30)
    die = screen.roll.dice[0]
    view = screen.ids.view
    x, y = view.frame_to_widget((die.box[0] + die.box[2]) / 2, (die.box[1] + die.box[3]) / 2, screen.frame_size)
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    ui.advance(2)
    assert screen.selected == 0
    ui.screenshot("dice-correct")
    new_face = 6 if die.face != 6 else 5
    ui.tap(ui.find(str(new_face), root=screen.ids.picker))
    assert screen.roll.dice[0].face == new_face and not screen.roll.dice[0].flagged
    last = ui.app.session.actions[-1]
    assert last["type"] == "note.dice_correction" and last["face"] == new_face and last["read"] == die.face
    if not screen.can_use:
        for index, d in enumerate(screen.roll.dice):  # confirm any die the reader was unsure of
            if d.flagged:
                screen.select(index)
                screen.pick(d.face or 1)
    assert screen.can_use
    ui.tap(ui.find("Use in"))
    assert ui.screen().name == eng_game
    assert received and received[0].faces("pips")[0] == new_face


def test_a_correction_survives_a_shadow_passing_over_the_tray(ui: UI) -> None:
    """The same dice settle again after a shadow (or a hand) passed: the player's correction stays; it used to
    be replaced by the reader's value while the journal kept the correction."""
    from companion.games.base import Player, Setup

    image, _values = labelled_sample()
    ui.app.start_game(Setup("ratatat", (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2)), seed=3))
    ui.app.settings["dice"]["settle_ms"] = 100
    camera = FakeCamera(image, "still photo")
    ui.use_camera(camera, interval_s=0.03)
    ui.app.open_dice("ratatat")
    ui.advance(2)
    screen = ui.screen()
    assert ui.wait_until(lambda: screen.roll is not None, timeout_s=30)
    first = screen._taken
    die = screen.roll.dice[0]
    new_face = 6 if die.face != 6 else 5
    screen.select(0)
    ui.advance(2)  # the picker's layout
    ui.tap(ui.find(str(new_face), root=screen.ids.picker))
    assert screen.by_hand and screen.roll.dice[0].face == new_face
    camera.frame = (image * 0.6).astype(np.uint8)  # a shadow: every pixel changes, no die moves
    ui.advance(10, seconds=0.3)
    camera.frame = image
    assert ui.wait_until(lambda: screen._taken is not first, timeout_s=30)
    assert screen.roll.dice[0].face == new_face and screen.by_hand
    assert "with your corrections" in screen.status_text


def test_no_camera_allows_touch_entry(ui: UI) -> None:
    ui.app.feed = None
    screen = ui.go("dice")
    assert "No camera" in screen.status_text
    ui.tap(ui.find("Add die"))
    ui.tap(ui.find("4", root=screen.ids.picker))
    ui.tap(ui.find("Add die"))
    ui.tap(ui.find("2", root=screen.ids.picker))
    assert screen.roll.faces("pips") == [4, 2]
    assert screen.sum_text == "6"
    ui.screenshot("dice-touch")


def test_dice_entered_by_touch_can_be_tapped_to_correct(ui: UI) -> None:
    """With no camera, dice added by touch are drawn in places of their own (they all sat on the image's corner,
    labels piled up, and could not be tapped) and a tap on one corrects it."""
    ui.app.feed = None
    screen = ui.go("dice")
    for face in ("4", "2", "6"):
        ui.tap(ui.find("Add die"))
        ui.tap(ui.find(face, root=screen.ids.picker))
    boxes = [d.box for d in screen.roll.dice]
    assert len(set(boxes)) == 3 and (0, 0, 0, 0) not in boxes
    ui.screenshot("dice-touch-boxes")
    die = screen.roll.dice[1]
    x, y = screen.ids.view.frame_to_widget(
        (die.box[0] + die.box[2]) / 2, (die.box[1] + die.box[3]) / 2, screen.frame_size
    )
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    ui.advance(2)
    assert screen.selected == 1
    ui.tap(ui.find("5", root=screen.ids.picker))
    assert screen.roll.faces("pips") == [4, 5, 6] and screen.sum_text == "15"


def test_broken_calibration_profile_is_reported(ui: UI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.paths import data_dir

    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))  # keep the broken file away from other tests
    image, _values = labelled_sample()
    install_camera(ui, image)
    from calibration.store import ProfileStore

    store = ProfileStore(data_dir() / "calibration")
    size = (image.shape[1], image.shape[0])
    store.base_dir.mkdir(parents=True, exist_ok=True)
    (store.base_dir / "active.json").write_text("{broken")  # the file naming each camera's active profile
    assert ui.app.vision_profile(size) is None  # the reader goes on uncalibrated...
    assert ui.wait_until(lambda: "Calibration:" in ui.app.banner)  # ...and the players are told why
    assert "active.json" in ui.app.banner


def test_opened_from_home_it_hands_the_roll_to_the_game_in_progress(ui: UI) -> None:
    """A game left with Home is still in progress: the Dice tool says so on its button and hands the roll to it;
    Back goes home."""
    from companion.games.base import Player, Setup

    ui.app.start_game(Setup("ratatat", (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2)), seed=3))
    for value in (5, 0, 7, 8, 3):
        ui.app.session.do({"type": "reveal", "value": value, "balloon": False})
    ui.go("home")
    ui.app.feed = None
    ui.tap(ui.find("Dice"))
    screen = ui.screen()
    assert screen.name == "dice" and screen.use_text == "Use in Rat-a-Tat Roll"
    image = cv2.imread(str(ui.screenshot("dice-no-camera")))
    view = screen.ids.view
    x, y = (int(c) for c in view.to_window(*view.center))
    assert image[image.shape[0] - 1 - y, x].tolist() != [255, 255, 255]  # no blank white box for a camera
    ui.tap(ui.find("Add die"))
    ui.tap(ui.find("3", root=screen.ids.picker))
    assert screen.can_use, (screen.roll, screen.status_text)
    ui.tap(ui.find("Use in Rat-a-Tat Roll"))
    assert ui.screen().name == "ratatat"
    ui.go("home")
    ui.tap(ui.find("Dice"))
    ui.tap(ui.find("Back"))
    assert ui.screen().name == "home"


def test_a_roll_never_goes_to_an_earlier_game(ui: UI) -> None:
    """Dice opened from a Rat-a-Tat game, then a Lowdown game started: the Dice tool from home hands its roll
    to Lowdown, and Rat-a-Tat's journal is not touched (it used to get the roll and the corrections)."""
    from companion.games.base import Player, Setup

    players = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))
    first = ui.app.start_game(Setup("ratatat", players, seed=3))
    ui.app.feed = None
    ui.app.open_dice("ratatat")
    ui.advance(3)
    ui.tap(ui.find("Back"))
    assert ui.screen().name == "ratatat"
    before = ui.app.journal.actions(first.game_id)
    ui.app.start_game(Setup("lowdown", players, seed=3))
    ui.go("home")
    ui.tap(ui.find("Dice"))
    screen = ui.screen()
    assert screen.use_text == "Use in Lowdown"
    ui.tap(ui.find("Add die"))
    ui.tap(ui.find("4", root=screen.ids.picker))
    assert ui.app.journal.actions(first.game_id) == before
    ui.tap(ui.find("Use in Lowdown"))
    assert ui.screen().name == "lowdown"


def test_with_no_game_in_progress_the_roll_has_nowhere_to_go(ui: UI) -> None:
    ui.app.feed = None
    ui.tap(ui.find("Dice"))
    screen = ui.screen()
    ui.tap(ui.find("Add die"))
    ui.tap(ui.find("3", root=screen.ids.picker))
    assert screen.use_text == "No game to use it in" and not screen.can_use


def test_the_simulated_tray_is_labelled_as_such(ui: UI) -> None:
    """In simulation the frames are a drawn tray: the screen says so (and how to roll), so nobody takes them for
    their tray."""
    assert str(ui.app.camera.name).startswith("simulated")
    screen = ui.go("dice")
    assert screen.source_text == "Simulated tray: tap Roll (or press R) to roll again"
    assert ui.wait_until(lambda: screen.roll is not None, timeout_s=30)
    ui.screenshot("dice-sample-photos")
    install_camera(ui, labelled_sample()[0])
    ui.go("home")
    assert ui.go("dice").source_text == ""


def test_a_die_the_player_left_alone_that_reads_another_face_is_a_new_roll(ui: UI) -> None:
    from dataclasses import replace

    from companion.vision.roll import DieRead

    screen = ui.screen("dice")
    taken = Roll((DieRead("pips", 4, 0.9, (10, 10, 40, 40)), DieRead("pips", 2, 0.5, (100, 10, 130, 40), True)))
    screen._taken = taken
    screen.roll = Roll((taken.dice[0], replace(taken.dice[1], face=3, confidence=1.0, flagged=False)))  # corrected
    shadowed = Roll((replace(taken.dice[0]), replace(taken.dice[1], face=5)))  # the unsure die read otherwise
    assert screen._only_corrected_dice_differ(shadowed)  # same dice, the correction stays
    turned = Roll((replace(taken.dice[0], face=6), taken.dice[1]))  # the die nobody corrected shows a 6 now
    assert not screen._only_corrected_dice_differ(turned)
    moved = Roll((taken.dice[0], replace(taken.dice[1], box=(200, 200, 230, 230))))
    assert not screen._only_corrected_dice_differ(moved)


def settled_for_a_game(ui: UI, image: np.ndarray) -> object:
    from companion.games.base import Player, Setup

    ui.app.start_game(Setup("ratatat", (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2)), seed=3))
    game_screen = ui.screen()
    game_screen.on_roll = lambda roll: None  # type: ignore[method-assign]
    install_camera(ui, image)
    ui.app.open_dice("ratatat")
    ui.advance(2)
    screen = ui.screen()
    assert ui.wait_until(lambda: screen.roll is not None, timeout_s=30)
    return screen


def tap_frame(ui: UI, screen: object, fx: float, fy: float) -> None:
    from kivy.tests.common import UnitTestTouch

    x, y = screen.ids.view.frame_to_widget(fx, fy, screen.frame_size)  # type: ignore[attr-defined]
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    ui.advance(2)


def confirm_flagged(screen: object) -> None:
    for index, d in enumerate(screen.roll.dice):  # type: ignore[attr-defined]
        if d.flagged:
            screen.select(index)  # type: ignore[attr-defined]
            screen.pick(d.face or 1)  # type: ignore[attr-defined]


def test_a_used_roll_teaches_the_reader_this_tables_dice_and_forget_empties_it(ui: UI) -> None:
    """Each die of a checked roll, each die added where it lies and each spot removed as "not a die" is
    remembered (on the frame the roll was read on) when the roll is used; the screen says how many dice the
    reader has learned, and Forget (after a confirmation) empties the memory and removes its file."""
    from companion import paths

    image, _values = labelled_sample()
    screen = settled_for_a_game(ui, image)
    assert screen.memory_text == ""  # nothing learned yet: no line, no Forget
    read = len(screen.roll.dice)
    screen.select(len(screen.roll.dice) - 1)
    ui.advance(2)
    ui.tap(ui.find("Not a die", root=screen.ids.picker))
    # a die the camera missed, tapped where it lies (a free spot of the picture: the top-left corner)
    tap_frame(ui, screen, 12, 12)
    assert screen.adding and "here" in screen.status_text
    ui.screenshot("dice-add-here")
    ui.tap(ui.find("4", root=screen.ids.picker))
    added = screen.roll.dice[-1]
    assert added.face == 4 and added.box[0] <= 12 <= added.box[2] and added.box[1] <= 12 <= added.box[3]
    confirm_flagged(screen)
    assert screen.can_use
    ui.tap(ui.find("Use in"))
    memory = ui.app.dice_memory(screen.frame_size)
    assert len(memory) == read + 1 and memory.dice == read  # the dice used and the one added; the spot removed
    assert memory.values.tolist().count(0) == 1
    assert list((paths.calibration_dir() / "dice-memory").glob("*.json"))
    ui.app.memory_keeper().settle(60)
    assert ui.app.dice_memory(screen.frame_size).look.crops == 0  # the table's look is off as shipped
    # the memory is asked at every reading from now on (here: a second settled roll of the same photo)
    ui.app.open_dice("ratatat")
    ui.advance(3)
    screen = ui.screen()
    assert ui.wait_until(lambda: screen.memory_text != "", timeout_s=10)
    assert str(read) in screen.memory_text
    shot = ui.screenshot("dice-learned")
    assert shot.is_file()
    view = screen.ask_forget()
    ui.advance(2)
    ui.screenshot("dice-forget")
    ui.tap(ui.find("Forget", root=view))
    assert len(ui.app.dice_memory(screen.frame_size)) == 0 and screen.memory_text == ""
    assert not list((paths.calibration_dir() / "dice-memory").glob("*.json"))


def test_dice_added_in_a_free_corner_are_not_learned(ui: UI) -> None:
    """Add die draws a die in a free corner of the picture, not where it lies: the reader does not learn it."""
    image, _values = labelled_sample()
    screen = settled_for_a_game(ui, image)
    read = len(screen.roll.dice)
    screen.start_add()
    ui.advance(2)
    ui.tap(ui.find("2", root=screen.ids.picker))
    confirm_flagged(screen)
    ui.tap(ui.find("Use in"))
    memory = ui.app.dice_memory(screen.frame_size)
    assert len(memory) == read


def test_a_memory_that_cannot_be_saved_or_read_is_said_and_the_game_goes_on(
    ui: UI, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from companion import paths
    from companion.notices import Topic

    folder = paths.calibration_dir() / "dice-memory"
    folder.mkdir(parents=True)
    (folder / "fake@640x480.json").write_text("{ broken", encoding="utf-8")
    image, _values = labelled_sample()
    monkeypatch.setattr(ui.app, "dice_memory_key", lambda resolution: "fake@640x480")
    screen = settled_for_a_game(ui, image)
    assert ui.wait_until(lambda: Topic.DICE_MEMORY in ui.app.notices, timeout_s=10)
    assert "could not be read" in str(ui.app.notices[Topic.DICE_MEMORY])
    ui.screenshot("dice-memory-unreadable")  # the banner over the dice screen

    def full(*_a: object, **_k: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    confirm_flagged(screen)
    ui.tap(ui.find("Use in"))
    assert ui.screen().name == "ratatat"  # the roll went to the game
    assert "No space left" in str(ui.app.notices[Topic.DICE_MEMORY])
    assert len(ui.app.dice_memory(screen.frame_size)) > 0  # kept until the app stops
    ui.screenshot("dice-memory-not-saved")


def test_the_dice_screen_says_when_the_reading_is_tuned_to_the_table(ui: UI, monkeypatch: pytest.MonkeyPatch) -> None:
    """The learned line says when the face classifiers read tuned to the table's look: only while the look is
    on (off as shipped) and ready (enough used dice, and a trial the adapted classifiers win), not while they lose
    it."""
    from dataclasses import replace

    import numpy as np

    from companion.vision.pipeline import DEFAULT_PROFILE
    from companion.vision.table_look import ADAPTED_RIGHT, TRAINED_RIGHT, TableLook

    image, _values = labelled_sample()
    screen = settled_for_a_game(ui, image)
    size = screen.frame_size
    keeper = ui.app.memory_keeper()
    key = ui.app.dice_memory_key(size)
    assert not ui.app.dice_tuned(size)
    # five ahead: past the sign test (2 x root 5)
    winning = TableLook(layers={"dice_faces.onnx": ()}, dice=200, trial=(ADAPTED_RIGHT,) * 5)
    keeper._memories[key] = replace(ui.app.dice_memory(size), look=winning)
    assert not ui.app.dice_tuned(size)  # the look is off as shipped
    on = replace(DEFAULT_PROFILE, learned=replace(DEFAULT_PROFILE.learned, look=True))
    monkeypatch.setattr(ui.app, "vision_profile", lambda resolution: on)  # a profile that turns it on
    learned = ui.app.dice_memory(size).with_views(np.ones((3, 64), np.float32), [1, 2, 3], 600)
    keeper._memories[key] = replace(learned, look=winning)
    assert ui.app.dice_tuned(size)
    screen._count_learned()
    assert "3" in screen.memory_text and "tuned to your table" in screen.memory_text
    ui.advance(1)
    ui.screenshot("dice-learned-tuned")
    from companion.notices import Topic

    ui.app.notice(Topic.DICE_MEMORY, "What the dice reader learned could not be saved (No space left on device)")
    ui.advance(3)
    ui.screenshot("dice-learned-tuned-banner")  # the line and the banner together
    ui.app.notice(Topic.DICE_MEMORY, None)
    keeper._memories[key] = replace(learned, look=replace(winning, trial=(TRAINED_RIGHT,) * 3))  # the look loses
    screen._count_learned()
    assert not ui.app.dice_tuned(size) and "tuned" not in screen.memory_text and "3" in screen.memory_text
