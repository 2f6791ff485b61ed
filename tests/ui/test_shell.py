"""The UI shell by touch: home, setup, button test, camera, config problems, resume."""

from __future__ import annotations

from ui_support import UI


def test_home_renders_and_shows_tools(ui: UI) -> None:
    assert ui.screen().name == "home"
    shot = ui.screenshot("home")
    assert shot.exists()
    button = ui.find("Button test")
    assert button.height >= 48
    # the tool button is drawn in its own colour, not the background
    assert ui.pixel(button) != ui.pixel(ui.screen().ids.games)


def test_button_test_screen_lights_seat_and_logs_tick(ui: UI) -> None:
    ui.tap_text("Button test")
    screen = ui.screen()
    assert screen.name == "buttons"
    tile = screen.tiles[2]
    from kivy.tests.common import UnitTestTouch

    x, y = tile.to_window(*tile.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    assert ui.wait_until(lambda: "seat 2  press" in screen.log_text)
    ui.screenshot("buttons-held")
    r, g, b = ui.pixel(tile)
    assert b > 150 and b > r + 100, (r, g, b)  # lit in seat 2's blue (#1e88e5, darkened while held)
    touch.touch_up()
    assert ui.wait_until(lambda: "release" in screen.log_text)
    r, g, b = ui.pixel(tile, ui.screenshot("buttons-released"))
    assert b < 120, (r, g, b)  # back to the idle grey-blue


def test_keys_press_seat_buttons(ui: UI) -> None:
    ui.go("buttons")
    screen = ui.screen()
    ui.key("3")
    ui.key("3", down=False)
    assert ui.wait_until(lambda: "seat 3  release" in screen.log_text)
    ui.app.sim_buttons.assert_edges([(3, True), (3, False)])
    assert {edge.source for edge in ui.app.sim_buttons.edges} == {"key"}


def test_no_gpio_is_said_on_screen_and_keys_work(tmp_path: object) -> None:
    from pathlib import Path

    harness = UI(Path(str(tmp_path)), simulate=False, config_text='[camera]\nsource = "replay:/nonexistent"\n')
    try:
        assert "No GPIO" in harness.app.banner
        assert harness.app.simulation
        harness.go("buttons")
        harness.key("1")
        harness.key("1", down=False)
        assert harness.wait_until(lambda: "seat 1  release" in harness.screen().log_text)
        harness.screenshot("no-gpio")
    finally:
        harness.close()


def test_broken_config_is_shown_and_defaults_used(tmp_path: object) -> None:
    from pathlib import Path

    harness = UI(Path(str(tmp_path)), config_text="[buttons]\npins = 7\n[display\n")
    try:
        assert "Config:" in harness.app.banner and "config.toml" in harness.app.banner
        assert harness.app.settings["buttons"]["pins"] == [17, 27, 22, 23, 24]
    finally:
        harness.close()


def _saved_games(ui: UI) -> list[int]:
    from companion.games.base import Player, Setup

    players = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2), Player("Cai", "#fdd835", 3))
    ids = [ui.app.journal.new_game(Setup(game, players, seed=1)) for game in ("ratuki", "ratatat", "lowdown")]
    ui.app.journal.set_finished(ids[0])
    return ids


def test_saved_games_stop_needs_confirmation(ui: UI) -> None:
    ids = _saved_games(ui)
    screen = ui.go("games")
    ui.screenshot("games")
    unfinished = lambda: {g.id for g in ui.app.journal.games(unfinished_only=True)}  # noqa: E731
    before = unfinished()
    ui.tap(ui.find("Stop", root=screen.ids.list))  # a mis-tap...
    from kivy.uix.modalview import ModalView

    modal = next(w for w in ui.window.children if isinstance(w, ModalView))
    assert "stays saved" in ui.texts(modal)
    ui.screenshot("games-confirm-stop")
    ui.tap(ui.find("Keep it", root=modal))  # ...taken back: nothing changed
    assert unfinished() == before
    assert ui.wait_until(lambda: not any(isinstance(w, ModalView) for w in ui.window.children))
    ui.tap(ui.find("Stop", root=screen.ids.list))
    modal = next(w for w in ui.window.children if isinstance(w, ModalView))
    ui.tap(ui.find("Stop offering", root=modal))
    assert len(unfinished()) == len(before) - 1
    assert set(ids) & before - unfinished()


def test_saved_games_rows_keep_the_game_title_with_long_names(ui: UI) -> None:
    """Five 14-character names used to push the title out of a row (two lines at most): three rows read the
    same and Resume could open the wrong game."""
    from companion.games.base import Player, Setup

    names = ("Bartholomew-Ch", "Dmitri-Konstan", "Alexandrina-Ma", "Maximiliano-Jo", "Christophe-Xav")
    players = tuple(Player(n, "#e53935", i + 1) for i, n in enumerate(names))
    for game in ("ratuki", "ratatat", "artcollectors"):
        ui.app.journal.new_game(Setup(game, players, {}, 1))
    screen = ui.go("games")
    ui.advance(2)
    texts = ui.texts(screen.ids.list)
    for title in ("Ratuki", "Rat-a-Tat Roll", "Art Collectors"):
        assert f"[b]{title}[/b]" in texts
    from kivy.uix.label import Label

    for label in (w for w in screen.ids.list.walk() if isinstance(w, Label) and "Bartholomew" in w.text):
        assert label.texture_size[0] <= label.width + 1  # cut with "…", not spilled
    ui.screenshot("games-long-names")


def test_saved_games_export_says_where(ui: UI) -> None:
    from companion.ui.screens.games import export_dir

    _saved_games(ui)
    screen = ui.go("games")
    assert str(export_dir()) in screen.status_text  # where exports go is said before the first export
    ui.tap(ui.find("Export", root=screen.ids.list))
    written = sorted(export_dir().glob("game-*.jsonl"))
    assert written and str(written[0]) in screen.status_text
    label = next(w for w in screen.walk() if getattr(w, "text", None) == screen.status_text)
    assert label.texture_size[0] <= screen.width  # the whole path is readable, not cut at the edge
    ui.screenshot("games-exported")


def test_gpio_edges_from_a_background_thread_reach_the_ui_only_through_the_hub(tmp_path: object) -> None:
    """gpiozero (MockFactory) calls back on the thread that moved the pin; the screen must get the event later,
    on the Kivy thread, from the hub's queue, never directly on the GPIO thread."""
    import threading
    from pathlib import Path

    harness = UI(
        Path(str(tmp_path)),
        simulate=False,
        config_text='[buttons]\nbackend = "mock"\n[camera]\nsource = "replay:/nonexistent"\n',
    )
    try:
        app = harness.app
        assert type(app.buttons).__name__ == "GpioButtons" and not app.simulation
        screen = harness.go("buttons")
        assert "GPIO27" in screen.tiles[2].text  # which pin to check for seat 2 (the README's wiring table)
        assert "GPIO buttons" in screen.backend_text
        seen: list[tuple[str, str, str]] = []
        original = screen.on_button
        screen.on_button = lambda event: (  # type: ignore[method-assign]
            seen.append((event.kind, event.source, threading.current_thread().name)),
            original(event),
        )
        pin = app.buttons.pin_factory.pin(27)  # seat 2's pin (the same object gpiozero gave the board)

        def gpio_thread() -> None:
            pin.drive_low()

        worker = threading.Thread(target=gpio_thread, name="gpio-callback")
        worker.start()
        worker.join()
        assert seen == []  # queued, not delivered on the GPIO thread
        assert len(app.hub._queue.queue) == 1
        assert harness.wait_until(lambda: bool(seen))
        assert seen[0] == ("press", "gpio", threading.main_thread().name)
        assert "seat 2  press" in screen.log_text and "(gpio)" in screen.log_text
        worker = threading.Thread(target=pin.drive_high, name="gpio-callback")
        worker.start()
        worker.join()
        assert harness.wait_until(lambda: len(seen) == 2)
        assert seen[1][0] == "release" and seen[1][2] == threading.main_thread().name
        harness.screenshot("buttons-gpio")
    finally:
        harness.close()


def test_bad_config_key_named_with_file_key_and_reason_on_screen(tmp_path: object) -> None:
    from pathlib import Path

    harness = UI(
        Path(str(tmp_path)),
        config_text='[buttons]\nbounce_ms = 999\n[players]\nnames = ["Zed", "Yo", "Xi", "Wu", "Vi"]\n',
    )
    try:
        banner = harness.app.banner
        assert "config.toml" in banner and "buttons.bounce_ms" in banner and "between 0 and 200" in banner
        assert harness.app.settings["buttons"]["bounce_ms"] == 15  # the bad key keeps its default...
        assert harness.app.settings["players"]["names"][0] == "Zed"  # ...and the good ones apply
        assert harness.screen().name == "home"  # the app started
        shot = harness.screenshot("config-problem")
        assert shot.exists()
    finally:
        harness.close()


def test_home_fits_with_continue_and_a_long_banner(ui: UI) -> None:
    """Two long notices and a game to continue: the title stays on screen and every button keeps 48 px."""
    from kivy.uix.button import Button

    from companion.games.base import Player, Setup

    names = ("Ana with a long name", "Bo", "Cai", "Dee", "Eli")
    colours = ("#e53935", "#1e88e5", "#fdd835", "#fb8c00", "#43a047")
    players = tuple(Player(n, c, i + 1) for i, (n, c) in enumerate(zip(names, colours, strict=True)))
    ui.app.journal.new_game(Setup("ratuki", players, seed=1))
    ui.app.notice("buttons", "GPIO buttons unavailable (pin 17 is busy): using keys 1–5 and on-screen buttons. " * 2)
    ui.app.notice("config", "Config: /some/where/config.toml: buttons.bounce_ms = 999: must be between 0 and 200")
    home = ui.go("buttons") and ui.go("home")
    ui.screenshot("home-crowded")
    # Two notices, a line each (the long one cut: tap the banner to read it whole), so the banner keeps one height.
    assert ui.app.banner.count("\n") == 1 and ui.app.banner.endswith("…") and "bounce_ms" in ui.app.banner
    title = next(w for w in home.walk(restrict=True) if getattr(w, "text", None) == "Table Companion")
    assert title.to_window(title.x, title.top)[1] <= ui.window.height + 1
    buttons = [w for w in ui.app.root.walk(restrict=True) if isinstance(w, Button) and w.opacity > 0]
    assert len(buttons) >= 11 and all(min(b.width, b.height) >= 48 for b in buttons), [
        (b.text[:12], b.size) for b in buttons if min(b.size) < 48
    ]


def test_banner_tap_shows_every_problem_in_full_then_hides(tmp_path: object) -> None:
    from pathlib import Path

    from kivy.uix.modalview import ModalView

    harness = UI(
        Path(str(tmp_path)),
        config_text='[buttons]\nbounce_ms = 999\nlong_press_ms = 5\n[display]\nwidth = "wide"\n',
    )
    try:
        app = harness.app
        assert "(+2 more)" in app.banner
        banner = next(w for w in app.root.children if getattr(w, "text", None) == app.banner)
        harness.tap(banner)
        modal = next(w for w in harness.window.children if isinstance(w, ModalView))
        shown = harness.texts(modal)
        for key in ("buttons.bounce_ms", "buttons.long_press_ms", "display.width"):
            assert key in shown  # every problem, not just the first
        harness.screenshot("notices")
        harness.tap(harness.find("Keep showing", root=modal))
        assert app.banner
        harness.wait_until(lambda: modal.parent is None)
        harness.tap(banner)
        modal = next(w for w in harness.window.children if isinstance(w, ModalView))
        harness.tap(harness.find("Hide these", root=modal))
        assert app.banner == ""
    finally:
        harness.close()


def test_a_long_message_wraps_and_a_tap_shows_it_whole(ui: UI) -> None:
    from kivy.uix.label import Label
    from kivy.uix.modalview import ModalView

    from companion.games.base import Player, Setup

    ui.app.start_game(Setup("artcollectors", (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2)), {}))
    ui.advance(3)
    screen = ui.screen()
    text = (
        "Not counted yet: 1 of painting 1, 2 of painting 2, 3 of painting 3, 4 of painting 4, 5 of painting 5. "
        "Tap Score again to score anyway"
    )
    screen.show_message(text)
    ui.advance(2)
    line = next(w for w in screen.walk() if isinstance(w, Label) and w.text == text)
    assert line.texture_size[1] > line.font_size * 1.5  # two lines, not one cut short
    ui.screenshot("message-two-lines")
    ui.tap(line)
    modal = next(w for w in ui.window.children if isinstance(w, ModalView))
    assert text in ui.texts(modal)
    ui.screenshot("message-in-full")
    ui.tap(ui.find("OK", root=modal))
