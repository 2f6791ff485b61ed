"""Every game's screens in every language at 800x480: each game's setup, every phase of a real example game
played through its screen (with the moves' own messages in the header), its end screen, the dialogs the game
asks its questions in, and the history screens that show the finished games. Each is checked for text a player
cannot read (cut off, shortened, outside its box or the window, over other text, missing-glyph boxes: see
layout_check) and saved under tests/screenshots/lang/<language>/ to be looked at too.

One app per language, each screen drawn once (the first time a game reaches each phase); a header message too
long for its two lines is read in full in its dialog (as a player taps it), where it must fit."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from layout_check import Problem, check, plain
from ui_support import UI

from companion import i18n
from companion.games.base import Player, Setup
from companion.journal.replay import load_lines

LANGUAGES = ("en", "ko", "es", "ca")
LOGS = Path(__file__).resolve().parents[1] / "games" / "logs"
# Names as long as the name pad takes, in every script the tables write: they may be shortened where a screen
# has room for only their start, never anything else.
LONG_NAMES = ("Guillem Ferrer", "민서연", "Mª Àngels Puig", "Ñandú García", "Ana")
COLOURS = ("#e53935", "#1e88e5", "#fdd835", "#fb8c00", "#43a047")
# Text at least this size (px) in every language, as #21 item 10 asks at 800x480 (tests/ui/test_readable_text.py
# measures it in English): a long translation may not be shrunk below it to fit.
MIN_FONT = 16
pytestmark = [pytest.mark.ui, pytest.mark.slow]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    yield tmp_path
    i18n.set_language("en")


def renamed(setup: Setup) -> Setup:
    """The log's game with the long names of every script at its seats (the log's actions name nobody, or are
    renamed with it by :func:`rename_actions`)."""
    players = tuple(Player(LONG_NAMES[i], COLOURS[i], p.seat) for i, p in enumerate(setup.players))
    return Setup(setup.game, players, dict(setup.settings), setup.seed)


def rename_actions(setup: Setup, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions with every player's name replaced by the long one at the same seat."""
    names = {p.name: LONG_NAMES[i] for i, p in enumerate(setup.players)}

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return names.get(value, value)
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        return value

    return [swap(a) for a in actions]


def load(name: str) -> tuple[Setup, list[dict[str, Any]]]:
    setup, actions = load_lines((LOGS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines())
    return renamed(setup), rename_actions(setup, actions)


class Shots:
    """Draws each screen once, saves its picture and collects what a player could not read on it."""

    def __init__(self, ui: UI, language: str) -> None:
        self.ui = ui
        self.language = language
        self.problems: list[Problem] = []
        self.taken: set[str] = set()
        self.longest_header = ""

    def notice(self) -> None:
        """The orange banner shown, worded in the language: the least room every screen ever has."""
        self.ui.app.notice(  # a topic of its own: the working simulated camera clears the camera's
            "shots", i18n.Lazy("Camera lost: {reason}. Touch entry still works; reconnecting…", reason="USB")
        )

    def take(self, name: str) -> bool:
        """The screen (and any dialog open over it) as drawn now; once per ``name``."""
        if name in self.taken:
            return False
        self.taken.add(name)
        ui = self.ui
        ui.advance(3)
        ui.screenshot(f"lang/{self.language}/{name}")
        screen = ui.app.manager.current_screen
        header = str(getattr(screen, "header_text", ""))
        for problem in check(
            ui.app.root, ui.window, f"{self.language}/{name}", allow_shortened=set(LONG_NAMES), min_font=MIN_FONT
        ):
            if header and problem.kind == "clipped" and problem.text == plain_markup(header):
                # Two lines of the header by design; a tap shows it whole (checked in its dialog below).
                self.longest_header = max(self.longest_header, header, key=len)
                continue
            self.problems.append(problem)
        for child in ui.window.children:
            if child is not ui.app.root:
                self.problems += check(
                    child,
                    ui.window,
                    f"{self.language}/{name} (dialog)",
                    allow_shortened=set(LONG_NAMES),
                    min_font=MIN_FONT,
                )
        return True

    def header_dialog(self, name: str) -> None:
        """The longest header message seen, read whole in the dialog a tap on it opens."""
        screen = self.ui.app.manager.current_screen
        if not self.longest_header or not hasattr(screen, "show_full_message"):
            return
        screen.show_message(self.longest_header, error=True)
        screen.show_full_message()
        self.take(name)
        close_dialogs(self.ui)
        self.longest_header = ""


def plain_markup(text: str) -> str:
    class _Label:
        markup = True

    label = _Label()
    label.text = text  # type: ignore[attr-defined]
    return plain(label)


def close_dialogs(ui: UI) -> None:
    from kivy.uix.modalview import ModalView

    for child in list(ui.window.children):
        if isinstance(child, ModalView):
            child.dismiss()
    ui.advance(3)


def play(
    shots: Shots,
    log: str,
    key: Callable[[Any], str | None],
    extra: Callable[[Any, str], None] | None = None,
    *,
    state_key: Callable[[dict[str, Any]], str] = lambda state: str(state.get("phase")),
) -> Any:
    """Open ``log``'s game as a recorded game and play its moves. A move that brings the game into a state not
    seen yet (``state_key``) is made through the screen (its message in the header, as at the table) and the
    screen is drawn as ``key(screen)`` names it (``extra(screen, name)`` may open what that state offers); the
    other moves go straight to the session (the screen redraws once, at the next drawn move: each screen is
    drawn once, and the test stays quick). Returns the screen."""
    ui = shots.ui
    setup, actions = load(log)
    assert ui.app.resume(ui.app.journal.new_game(setup)) is not None
    screen = ui.screen()
    shots.notice()
    game = setup.game
    seen = {state_key(screen.session.state)}

    def draw() -> None:
        name = key(screen)
        if name is not None and shots.take(f"{game}-{name}") and extra is not None:
            extra(screen, name)

    draw()
    for index, action in enumerate(actions):
        after = screen.session.engine.apply(screen.session.state, action)
        if state_key(after) in seen:
            screen.session.do(action)
            continue
        seen.add(state_key(after))
        assert screen.act(action), (log, index, action, screen.header_text)
        draw()
    screen._changed()
    return screen


# -- each game ---------------------------------------------------------------------------------------------


def setup_screens(shots: Shots) -> None:
    ui = shots.ui
    for game in ("ratatat", "lowdown", "ratuki", "artcollectors"):
        ui.go("home")
        ui.screen("home").new_game(game)
        ui.advance(3)
        screen = ui.screen()
        screen.set_count(screen.max_players)
        for index, name in enumerate(LONG_NAMES[: screen.max_players]):
            screen.rows[index]["name"] = name
        screen._build_players()
        shots.notice()
        shots.take(f"{game}-setup")
        if hasattr(screen, "how_to_play"):  # the game's rules page, opened from its setup screen
            screen.how_to_play()
            ui.advance(3)
            shots.take(f"{game}-how-to-play")


def ratatat(shots: Shots) -> None:
    def key(screen: Any) -> str:
        state = screen.session.state
        phase = state["phase"]
        return f"{phase}-{state['picture']}" if phase == "picture_rolled" else phase

    def extra(screen: Any, name: str) -> None:
        state = screen.session.state
        if name == "roll":
            screen.choose_count(3)  # the faces to tap
            shots.take("ratatat-roll-faces")
            screen.choose_count(0)
        elif name == "rolled" and screen.engine.usable_tokens(state) > 0:
            screen.pick_die(0)  # a die picked for a re-roll: its new face to tap
            shots.take("ratatat-rolled-reroll")
            screen.cancel_reroll()
        elif name in ("deal", "reveal"):
            screen.toggle_balloon()
            shots.take(f"ratatat-{name}-balloon")
            screen.toggle_balloon()
        elif name == "picture_rolled-swap":
            screen.swap_pick(0)
            shots.take("ratatat-swap-with-whom")
            other = next(p for p in state["players"] if p != state["players"][state["current"]])
            screen.swap_with(other)
            shots.take("ratatat-swap-which-card")
            screen.swap_back()
            screen.swap_back()
        elif name == "look":
            me = state["players"][state["current"]]
            screen.look_at(next(p for p in state["players"] if p != me))
            shots.take("ratatat-look-at-card")
            screen.look_at(None)
        elif name in ("space", "endgame"):
            refuse(screen, {"type": "roll", "dice": [1, 2]})  # a refusal says what is awaited, in words

    screen = play(shots, "ratatat-4p-balloons", key, extra, state_key=key_of_state)
    shots.header_dialog("ratatat-message-in-full")
    del screen
    play(shots, "ratatat-5p-korean", lambda s: "over-5p" if s.session.state["phase"] == "over" else None)


def key_of_state(state: dict[str, Any]) -> str:
    phase = str(state["phase"])
    return f"{phase}-{state['picture']}" if phase == "picture_rolled" else phase


def refuse(screen: Any, action: dict[str, Any]) -> None:
    assert not screen.act(action)


def lowdown(shots: Shots) -> None:
    def key(screen: Any) -> str:
        mode = screen.mode()
        state = screen.session.state
        if mode == "choose":
            return "choose-active" if screen.viewing == state["active"] else "choose-other"
        return mode

    def extra(screen: Any, name: str) -> None:
        state = screen.session.state
        if name.removeprefix("physical-") == "choose-active" and not state["looked"]:
            if state["settings"]["secret_dice"] == "physical":
                screen.look()
                shots.take("lowdown-look-at-secret")
                screen.cancel_look()
            screen.toggle_wild()
            shots.take("lowdown-wild-colour")
            screen.toggle_wild()
            refuse(screen, {"type": "shade", "player": screen.viewing, "square": [0, 0, 0]})

    def part(state: dict[str, Any]) -> str:  # whose part of the turn: the active player, the 1st other...
        return f"{state['phase']}-{len(state['done'])}"

    play(shots, "lowdown-4p-spanish-virtual", key, extra, state_key=part)
    shots.header_dialog("lowdown-message-in-full")
    play(
        shots,
        "lowdown-2p-spanish",
        lambda s: "physical-" + key(s) if key(s) in ("roll", "choose-active") else None,
        extra,
        state_key=part,
    )


def ratuki(shots: Shots) -> None:
    def key(screen: Any) -> str:
        state = screen.session.state
        calls = state["calls"]
        verdict = calls[-1]["verdict"]["kind"] if calls and state["phase"] == "playing" else ""
        return f"{state['phase']}-{verdict}".rstrip("-")

    def extra(screen: Any, name: str) -> None:
        if name == "playing":
            ui = shots.ui
            ui.clock_value += screen.settings["stall_s"] + 1  # nobody has called for a while: "round over?"
            ui.advance(30, seconds=0.3)
            shots.take("ratuki-round-over-question")
            screen.dismiss_stall()
            view = screen.ask_who_went_out()
            shots.take("ratuki-who-went-out")
            view.dismiss()
            shots.ui.advance(3)
            refuse(screen, {"type": "start", "tick": 1.0})

    def verdict(state: dict[str, Any]) -> str:
        calls = state["calls"]
        return f"{state['phase']}-{calls[-1]['verdict']['kind'] if calls else ''}"

    play(shots, "ratuki-5p-hasbro-wide-window", key, extra, state_key=verdict)
    shots.header_dialog("ratuki-message-in-full")


def artcollectors(shots: Shots) -> None:
    def key(screen: Any) -> str:
        state = screen.session.state
        if state["phase"] == "play" and screen.show_summary:
            return "summary"
        return str(state["phase"])

    def extra(screen: Any, name: str) -> None:
        if name == "summary":
            screen.leave_summary()
            shots.take("artcollectors-play-start")
            refuse(screen, {"type": "stop", "order": []})

    screen = play(shots, "artcollectors-tracked-5p", key, extra)
    shots.header_dialog("artcollectors-message-in-full")
    # The tracker's questions: a steal of several equal tokens, Robin Tell's deal (played to where they come up).
    setup, actions = load("artcollectors-tracked-3p")
    ui = shots.ui
    assert ui.app.resume(ui.app.journal.new_game(setup)) is not None
    screen = ui.screen()
    screen.leave_summary()
    from companion.games.artcollectors import ENGINE

    asked = robin = False
    for action in actions:
        state = screen.session.state
        if state["phase"] != "play":
            break
        options = ENGINE.options(state)
        if not robin and options["robin"]:
            screen._changed()
            screen.robin_start(options["robin"][0])
            shots.take("artcollectors-robin-deal")
            screen.robin_cancel()
            robin = True
        if not asked and action["type"] == "steal":
            screen._changed()
            view = screen.move({k: v for k, v in action.items() if k != "count"})
            if view is None:
                continue  # one token on top: stolen without a question
            shots.take("artcollectors-steal-how-many")
            close_dialogs(ui)
            asked = True
        if asked and robin:
            break  # both questions seen: the rest of this game adds nothing new
        screen.session.do(action)
    play(shots, "artcollectors-count-4p", key)


def history_screens(shots: Shots) -> None:
    """The finished games in History: the list, each game's score sheet and timeline, stats, players."""
    ui = shots.ui
    screen = ui.go("history")
    shots.take("history")
    plays = [w for w in ui.screen("history").ids.list.children if hasattr(w, "play_uid")]
    seen: set[str] = set()
    for row in plays:
        game = str(row.text).split("·")[0].replace("[b]", "").replace("[/b]", "").strip()  # its title
        if game in seen:
            continue
        seen.add(game)
        screen.open_play(row.play_uid)
        ui.advance(3)
        shots.take(f"history-play-{len(seen)}")
        ui.screen("play").toggle_timeline()
        shots.take(f"history-timeline-{len(seen)}")
        ui.go("history")
    for name in ("stats", "players", "transfer"):
        ui.go(name)
        shots.take(f"history-{name}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_game_reads_whole_in_every_language(home: Path, language: str) -> None:
    ui = UI(home)
    try:
        ui.app.choose_language(language)
        shots = Shots(ui, language)
        setup_screens(shots)
        ratatat(shots)
        lowdown(shots)
        ratuki(shots)
        artcollectors(shots)
        history_screens(shots)
    finally:
        ui.close()
    assert len(shots.taken) > 60
    assert not shots.problems, "\n".join(str(p) for p in shots.problems)
