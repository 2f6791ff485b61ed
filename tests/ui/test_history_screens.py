"""History by touch, on real journals of the scripted example games: the list and its filters, a play's score
sheet and timeline, each chart, stats, players (rename, merge), delete with confirmation, export and import.
Screenshots in tests/screenshots/history-*.png and chart-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from logplay import logs, play_log
from ui_support import UI

from companion.history import ABANDONED, FINISHED


def fill(ui: UI) -> None:
    journal = ui.app.journal
    play_log(journal, next(p for p in logs("ratuki") if "5p" in p.name))
    play_log(journal, next(p for p in logs("lowdown") if "3p" in p.name))
    play_log(journal, next(p for p in logs("ratatat") if "3p" in p.name))
    play_log(journal, next(p for p in logs("ratatat") if "2p" in p.name))
    play_log(journal, logs("artcollectors")[0])
    stopped = play_log(journal, logs("lowdown")[0], upto=7)
    journal.abandon(stopped.game_id)


def rows(ui: UI) -> list[Any]:
    return [w for w in reversed(ui.screen("history").ids.list.children) if hasattr(w, "play_uid")]


def open_history(ui: UI) -> Any:
    ui.go("home")
    ui.tap(ui.find("History"))
    assert ui.app.manager.current == "history"
    return ui.screen()


def in_view(ui: UI, text: str) -> Any:
    """A button on one of the open pop-ups (the newest first), after the earlier ones have gone."""
    ui.advance(3)
    for view in ui.window.children:
        if view is ui.app.root:
            continue
        try:
            return ui.find(text, root=view)
        except LookupError:
            continue
    raise LookupError(text)


def both_banners(ui: UI, name: str) -> None:
    """The screenshot with the orange notice banner shown, then hidden."""
    ui.app.notice("test", "No GPIO buttons found: keys 1–5 and the on-screen buttons stand in for them.")
    ui.advance(3)
    ui.screenshot(f"{name}-banner")
    ui.app.notice("test", None)
    ui.advance(3)
    ui.screenshot(name)


def test_the_list_newest_first_with_filters_and_abandoned_apart(ui: UI) -> None:
    fill(ui)
    screen = open_history(ui)
    both_banners(ui, "history")
    listed = rows(ui)
    plays = ui.app.history.plays()
    assert [r.play_uid for r in listed] == [p.uid for p in plays] and len(plays) == 5
    assert "[b][color=ffca28]" in listed[0].text and "Art" in listed[0].text  # the newest; its winner in gold
    # Two lines a row: the game and when, over the players (a shortened Button drew them on one line).
    top, players = reversed(listed[0].children)
    assert top.text.startswith("[b]Art Collectors") and "Ana" in players.text and "Ana" not in top.text
    assert players.top <= top.y + 1 and not players.is_shortened
    # Game filter by touch: one game, then the next, then all again.
    ui.tap(screen.ids.game)
    first_game = screen.game
    assert first_game is not None and all(ui.app.history.play(r.play_uid).game == first_game for r in rows(ui))
    while screen.game is not None:
        ui.tap(screen.ids.game)
    assert len(rows(ui)) == 5
    # Player filter: the players' picker, most recent first.
    ui.tap(screen.ids.player)
    picker = ui.window.children[0]
    ui.screenshot("history-player-picker")
    ui.tap(ui.find("Bo", root=picker))
    bo = ui.app.history.person_named("Bo")
    assert bo is not None and screen.person == bo.uid
    assert rows(ui) and all("Bo" in r.text for r in rows(ui))
    ui.screenshot("history-filtered")
    # Abandoned games are apart, and never among the finished.
    ui.tap(screen.ids.kind)
    abandoned = rows(ui)
    ui.screenshot("history-abandoned")
    assert screen.person == bo.uid
    assert [ui.app.history.play(r.play_uid).status for r in abandoned] == [ABANDONED]
    assert "stopped after 7 moves" in abandoned[0].text


def test_a_play_opens_to_its_score_sheet_timeline_and_chart(ui: UI) -> None:
    fill(ui)
    open_history(ui)
    ratuki = next(r for r in rows(ui) if "Ratuki" in r.text)
    ui.tap(ratuki)
    assert ui.app.manager.current == "play"
    screen = ui.screen()
    both_banners(ui, "history-play-ratuki")
    texts = ui.texts()
    play = ui.app.history.play(ratuki.play_uid)
    for seat in play.players:
        assert seat.name in texts
    assert "Round by round" in texts and "Avg margin" in texts and "[color=ffca28]" in texts
    # Edition and options in the setup screen's words, under the scores; the edition said once, by its option.
    assert "Cards per deck: 34 (Hasbro edition)" in texts and "Play to: 100 points" in texts
    assert "edition hasbro" not in texts and not screen.info_text
    # The player's column is the wide one (equal columns cut a 12-letter name beside a 160 px rank column).
    from kivy.uix.label import Label

    ana = next(w for w in screen.ids.body.walk(restrict=True) if type(w) is Label and "Ana[/color][/b]" in w.text)
    assert ana.width >= 200 and ana.x < 150
    score = next(w for w in screen.ids.body.walk(restrict=True) if type(w) is Label and "Score" in w.text)
    assert score.text_size[0] == score.width  # headings start where their column does, as the figures under them
    ui.tap(screen.ids.timeline)
    ui.screenshot("history-play-timeline")
    assert "Round started" in ui.texts() and "takes the stack" in ui.texts()
    ui.tap(screen.ids.timeline)
    ui.tap(screen.ids.chart)
    assert ui.app.manager.current == "chart"
    picture = ui.screen().ids.picture
    assert ui.wait_until(lambda: picture.texture is not None)
    assert tuple(picture.texture.size) == (int(picture.width), int(picture.height))
    both_banners(ui, "chart-ratuki-progression")
    ui.tap(ui.find("Back"))
    assert ui.app.manager.current == "play"
    ui.tap(ui.find("Back"))
    lowdown = next(r for r in rows(ui) if "Lowdown" in r.text)
    ui.tap(lowdown)
    ui.screenshot("history-play-lowdown")
    assert "Lowest score wins." in ui.texts() and "Lines crossed" in ui.texts()
    assert "Rules: English edition" in ui.texts() and "edition en" not in ui.texts()
    ui.tap(ui.screen().ids.chart)
    assert ui.wait_until(lambda: ui.screen().ids.picture.texture is not None)
    both_banners(ui, "chart-lowdown-breakdown")


def test_stats_and_a_players_results_over_time(ui: UI) -> None:
    fill(ui)
    for name in ("4p", "5p"):  # Ana's results over three Rat-a-Tat games
        play_log(ui.app.journal, next(p for p in logs("ratatat") if name in p.name))
    open_history(ui)
    ui.tap(ui.find("Stats"))
    screen = ui.screen()
    assert screen.name == "stats"
    while screen.game != "ratatat":
        ui.tap(screen.ids.game)
    both_banners(ui, "history-stats-ratatat")
    texts = ui.texts()
    assert "Tokens used" in texts and "Best" in texts and "Win rate" in texts
    ana = ui.app.history.person_named("Ana")
    assert ana is not None
    button = next(w for w in screen.ids.table.children if getattr(w, "person", None) == ana.uid)
    ui.tap(button)
    assert ui.app.manager.current == "chart"
    assert ui.wait_until(lambda: ui.screen().ids.picture.texture is not None)
    assert "Ana at Rat-a-Tat Roll: 1 of 3 won" in ui.screen().title_text
    both_banners(ui, "chart-player-results")
    ui.tap(ui.find("Back"))
    assert ui.app.manager.current == "stats"


def test_players_rename_and_merge_keep_the_history(ui: UI) -> None:
    from companion.ui.namepad import NamePad
    from companion.ui.screens.setup import PALETTE

    fill(ui)
    open_history(ui)
    ui.tap(ui.find("Players"))
    screen = ui.screen()
    both_banners(ui, "history-players")
    ana = ui.app.history.person_named("Ana")
    assert ana is not None
    before = len(ui.app.history.plays(person=ana.uid))
    row = next(w for w in screen.ids.list.walk() if getattr(w, "person", None) == ana.uid)
    ui.tap(row)
    view = ui.window.children[0]
    ui.tap(ui.find("Rename", root=view))
    pad = next(w for w in ui.window.children if isinstance(w, NamePad))
    ui.tap(ui.find("Clear", root=pad))
    ui.window.dispatch("on_textinput", "Ana Mª")
    ui.tap(ui.find("OK", root=pad))
    assert ui.app.history.store.person(ana.uid).name == "Ana Mª"  # type: ignore[union-attr]
    assert len(ui.app.history.plays(person=ana.uid)) == before
    # Her colour from the palette's swatches (hers ticked), and her avatar's initial.
    ui.wait_until(lambda: pad.parent is None)
    ui.tap(next(w for w in screen.ids.list.walk() if getattr(w, "person", None) == ana.uid))
    ui.tap(in_view(ui, "Colour"))
    swatches = [w for w in ui.window.children[0].walk() if hasattr(w, "colour") and w.__class__.__name__ == "BigButton"]
    mine = ui.app.history.store.person(ana.uid).colour  # type: ignore[union-attr]
    assert len(swatches) == (9 if mine in PALETTE else 10) and [w.colour for w in swatches if w.text == "✓"] == [mine]
    ui.screenshot("history-player-colour")
    ui.tap(next(w for w in swatches if w.colour == "#8e24aa"))
    assert ui.app.history.store.person(ana.uid).colour == "#8e24aa"  # type: ignore[union-attr]
    ui.tap(next(w for w in screen.ids.list.walk() if getattr(w, "person", None) == ana.uid))
    ui.tap(in_view(ui, "Initial"))
    pad = next(w for w in ui.window.children if isinstance(w, NamePad))
    ui.tap(ui.find("Clear", root=pad))
    ui.window.dispatch("on_textinput", "AM")
    ui.tap(ui.find("OK", root=pad))
    badge = next(w for w in screen.ids.list.walk() if w.__class__.__name__ == "AvatarChip" and w.text == "AM")
    assert badge.colour == "#8e24aa"
    # Merge Bo into Ana Mª: they sat at one table, so the store refuses, with the reason.
    bo = ui.app.history.person_named("Bo")
    assert bo is not None
    row = next(w for w in screen.ids.list.walk() if getattr(w, "person", None) == bo.uid)
    ui.wait_until(lambda: pad.parent is None)
    ui.tap(row)
    ui.tap(in_view(ui, "Merge into"))
    ui.tap(in_view(ui, "Ana Mª"))
    ui.screenshot("history-merge-confirm")
    ui.tap(in_view(ui, "Merge"))
    assert "same game" in screen.status_text  # Ana and Bo sat at one table: two people, refused with the reason
    assert ui.app.history.store.person(bo.uid) is not None


def test_delete_asks_first_and_keeps_the_saved_game_unless_asked(ui: UI) -> None:
    fill(ui)
    open_history(ui)
    first = rows(ui)[0]
    uid = first.play_uid
    record = ui.app.history.game_record(ui.app.history.play(uid))
    ui.tap(first)
    ui.tap(ui.screen().ids.delete)
    view = ui.window.children[0]
    ui.screenshot("history-delete-confirm")
    ui.tap(ui.find("Keep it", root=view))
    assert ui.app.history.play(uid) is not None and ui.app.manager.current == "play"
    ui.tap(ui.screen().ids.delete)
    ui.tap(ui.find("Delete", root=ui.window.children[0]))
    assert ui.app.manager.current == "history"
    assert uid not in [r.play_uid for r in rows(ui)]
    assert ui.app.journal.game(record.id).actions == record.actions  # its moves are kept
    second = rows(ui)[0]
    record = ui.app.history.game_record(ui.app.history.play(second.play_uid))
    ui.tap(second)
    ui.tap(ui.screen().ids.delete)
    view = ui.window.children[0]
    ui.tap(view.also)
    assert "on" in view.also.text
    ui.tap(ui.find("Delete", root=view))
    assert record.id not in [g.id for g in ui.app.journal.games()]


def test_export_then_import_by_touch(ui: UI) -> None:
    fill(ui)
    open_history(ui)
    ui.tap(ui.find("Export / import"))
    screen = ui.screen()
    assert screen.name == "transfer"
    ui.tap(screen.ids.export)
    assert "Exported 6 plays" in screen.status_text
    both_banners(ui, "history-transfer")
    place = next(w for w in screen.ids.list.children if hasattr(w, "place"))
    ui.tap(place)
    assert "Imported 0 plays" in screen.status_text and "6 already here" in screen.status_text
    assert len(ui.app.history.plays(statuses=(FINISHED, ABANDONED))) == 6


def test_a_damaged_history_file_is_named_on_the_banner_and_history_comes_back(tmp_path: Path) -> None:
    from companion.journal import Journal

    journal = Journal(tmp_path / "journal.sqlite3")
    play_log(journal, logs("ratuki")[0])
    journal.close()
    (tmp_path / "history.sqlite3").write_bytes(b"not a database " * 500)
    ui = UI(tmp_path)
    try:
        assert any("history.sqlite3.damaged-" in str(n) for n in ui.app.notices.values())
        assert "players and history file" in ui.app.banner
        screen = open_history(ui)
        assert len(rows(ui)) == 1 and not screen.status_text
        ui.screenshot("history-file-damaged")
    finally:
        ui.close()


def test_a_long_games_timeline_is_drawn_a_page_at_a_time(ui: UI) -> None:
    """A long game's timeline draws PAGE lines at a time (5,000 moves drew 5,000 labels: seconds on a Pi, past
    the watchdog); Earlier and Later move between pages."""
    from kivy.uix.label import Label

    from companion.games.base import Player, Setup
    from companion.journal import GameSession
    from companion.ui.screens.play import PAGE

    session = GameSession.start(ui.app.journal, Setup("ratuki", (Player("Ana", seat=1), Player("Bo", seat=2))))
    session.do({"type": "start", "tick": 0.0})
    count = 2 * PAGE + 20
    for i in range(count - 1):
        session.do({"type": "call", "presses": [{"seat": 1 + i % 2, "tick": 1.0 + i}]})
    ui.app.journal.abandon(session.game_id)
    screen = open_history(ui)
    ui.tap(screen.ids.kind)
    ui.tap(rows(ui)[0])
    play = ui.screen()
    ui.tap(play.ids.timeline)

    def lines() -> list[str]:
        return [str(w.text) for w in play.ids.body.walk(restrict=True) if type(w) is Label]

    assert len(lines()) == PAGE and "Round started" in lines()[0]
    play.ids.scroll.scroll_y = 0  # swiped to the end of the page: the button to the next one
    ui.advance(3)
    ui.screenshot("history-timeline-page")
    ui.tap(ui.find(f"{count - PAGE} later moves"))
    assert len(lines()) == PAGE and lines()[0].startswith(f"[color=9aa0b0]{PAGE + 1}")
    assert play.ids.scroll.scroll_y == 1  # the new page from its top
    ui.advance(3)
    ui.tap(ui.find(f"{PAGE} earlier moves"))  # at the top of the page
    assert lines()[0].startswith("[color=9aa0b0]  1") and play.ids.scroll.scroll_y == 0  # ends where it left
    ui.tap(ui.find(f"{count - PAGE} later moves"))
    play.ids.scroll.scroll_y = 0
    ui.advance(3)
    ui.tap(ui.find("20 later moves"))
    assert len(lines()) == 20 and ui.find(f"{2 * PAGE} earlier moves")


def test_games_are_named_in_the_tables_language() -> None:
    from companion.i18n import using
    from companion.ui.screens.history import game_title

    with using("es"):
        assert game_title("artcollectors") == "Coleccionistas de arte"
    with using("ko"):
        assert game_title("ratatat") != "Rat-a-Tat Roll"
    assert game_title("chess") == "chess"  # an imported play of a game this version does not have


def test_an_avatar_initial_can_be_cleared_again(ui: UI) -> None:
    """Set, then cleared on the pad (Clear, OK): the avatar shows the name's first letter again (the pad refused
    an empty entry, so an initial once set stayed for good)."""
    from companion.ui.namepad import NamePad

    play_log(ui.app.journal, logs("ratuki")[0])
    open_history(ui)
    ui.tap(ui.find("Players"))
    screen = ui.screen()
    ana = ui.app.history.person_named("Ana")
    assert ana is not None

    def initial(text: str | None) -> NamePad:
        ui.tap(next(w for w in screen.ids.list.walk() if getattr(w, "person", None) == ana.uid))
        ui.tap(in_view(ui, "Initial"))
        pad = next(w for w in ui.window.children if isinstance(w, NamePad))
        if text is not None:
            ui.tap(ui.find("Clear", root=pad))
            ui.window.dispatch("on_textinput", text)
        return pad

    pad = initial("xyz")
    assert pad.text == "xyz"[:2]  # two characters at most, on the pad itself
    ui.tap(ui.find("OK", root=pad))
    assert ui.app.history.store.person(ana.uid).initial == "xy"  # type: ignore[union-attr]
    ui.wait_until(lambda: pad.parent is None)
    pad = initial(None)
    assert pad.text == "xy"  # the pad opens on the initial set, not on the avatar shown
    ui.tap(ui.find("Clear", root=pad))
    assert "the name's first letter" in pad.shown.text and "A," in pad.shown.text
    both_banners(ui, "history-player-initial-clear")
    ui.tap(ui.find("OK", root=pad))
    ui.wait_until(lambda: pad.parent is None)
    person = ui.app.history.store.person(ana.uid)
    assert person is not None and person.initial == "" and person.avatar == "A"
    assert any(w.__class__.__name__ == "AvatarChip" and w.text == "A" for w in screen.ids.list.walk())
    assert "Saved" in screen.status_text


def test_the_lowdown_chart_names_its_grids_in_the_tables_language(ui: UI) -> None:
    """The breakdown's legend words the grids as the Lowdown screen does ('Rojo/naranja'), not the board file's
    English."""
    play_log(ui.app.journal, next(p for p in logs("lowdown") if "3p" in p.name))
    ui.app.choose_language("es")
    try:
        open_history(ui)
        ui.tap(rows(ui)[0])
        ui.tap(ui.screen().ids.chart)
        chart = ui.screen()
        assert chart.name == "chart" and ui.wait_until(lambda: chart.ids.picture.texture is not None)
        legend = chart._make((800, 400)).axes[0].get_legend()
        names = [t.get_text() for t in legend.get_texts()]
        assert "Rojo/naranja" in names and "Púrpura/azul" in names and not {"Red/orange", "Purple/blue"} & set(names)
        both_banners(ui, "chart-lowdown-breakdown-es")
    finally:
        ui.app.choose_language("en")


def test_history_on_a_read_only_card_is_shown_and_said(tmp_path: Path) -> None:
    """A read-only card: the players and plays saved before are shown (a renamed player by their new name), the
    banner says changes are not kept, and a rename still works for the run, with no error."""
    from cards import mounted, read_only

    from companion.history import History
    from companion.journal import Journal

    with mounted(tmp_path / "card", "4m") as card:
        journal = Journal(card / "journal.sqlite3")
        play_log(journal, logs("ratuki")[0])
        history = History.open(journal)
        history.refresh()
        ana = history.person_named("Ana")
        assert ana is not None
        history.store.update_person(ana.uid, name="Anabel", initial="AB")
        history.store.close()
        journal.close()
        read_only(card)
        ui = UI(tmp_path, journal_path=card / "journal.sqlite3")
        try:
            notice = str(ui.app.notices["history"])
            assert "cannot be written" in notice and "read-only" in notice
            screen = open_history(ui)
            assert len(rows(ui)) == 1 and not screen.status_text and "Anabel" in rows(ui)[0].text
            ui.tap(ui.find("Players"))
            players = ui.screen()
            ui.screenshot("history-read-only-card")
            assert any(w.__class__.__name__ == "AvatarChip" and w.text == "AB" for w in players.ids.list.walk())
            row = next(w for w in players.ids.list.walk() if getattr(w, "person", None) == ana.uid)
            ui.tap(row)
            ui.tap(in_view(ui, "Colour"))
            swatches = [w for w in ui.window.children[0].walk() if w.__class__.__name__ == "BigButton"]
            ui.tap(next(w for w in swatches if getattr(w, "colour", None) == "#8e24aa"))
            assert players.status_text == "Saved." and ui.app.history.store.person(ana.uid).colour == "#8e24aa"  # type: ignore[union-attr]
        finally:
            ui.close()
