"""The Art Collectors screen driven by touch: summary, counting with counters, the black cat, results with the
working; the pile tracker's draws, steals, stop order, Robin Tell's deal; undo; the player button. Screenshots
land in ``tests/screenshots/artcollectors-*.png``."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from ui_support import UI

from companion.games.base import Player, Setup
from companion.ui.screens.artcollectors import chunks_from_gives

pytestmark = pytest.mark.ui

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2), Player("Cy", "#fdd835", 3))


def start(ui: UI, players: tuple[Player, ...] = PLAYERS, **settings: Any) -> Any:
    ui.app.start_game(Setup("artcollectors", players, settings))
    ui.advance(3)
    screen = ui.screen()
    assert screen.name == "artcollectors"
    return screen


def exact(root: Any, text: str) -> Any:
    """The visible button under ``root`` whose text is exactly ``text``."""
    from kivy.uix.button import Button

    return next(w for w in root.walk(restrict=True) if isinstance(w, Button) and w.text == text and w.opacity > 0)


def counter(screen: Any, painting: int, sign: str) -> Any:
    return exact(screen.cells[str(painting)], sign)


def tap_times(ui: UI, widget: Any, times: int) -> None:
    for _ in range(times):
        ui.tap(widget)


def test_chunks_keep_runs_together() -> None:
    assert chunks_from_gives([1, 1, 2, 1]) == [{"to": 1, "count": 2}, {"to": 2, "count": 1}, {"to": 1, "count": 1}]


def test_count_by_touch_to_results(ui: UI) -> None:
    screen = start(ui)
    assert "painting 10 and its tokens are out" in ui.texts()
    ui.screenshot("artcollectors-1-summary")
    ui.tap_text("Count the tokens")
    assert screen.count.parent is not None
    tap_times(ui, counter(screen, 7, "+"), 4)
    tap_times(ui, counter(screen, 5, "+"), 1)
    ui.tap(ui.find("Bo ·"))
    tap_times(ui, counter(screen, 7, "+"), 2)
    tap_times(ui, counter(screen, 5, "+"), 3)
    ui.tap(ui.find("Cy ·"))
    tap_times(ui, counter(screen, 7, "+"), 1)
    tap_times(ui, counter(screen, 11, "+"), 5)
    ui.tap(exact(screen.count.ids.cat, "Cy"))
    state = screen.session.state
    assert state["counts"][0]["7"] == 4 and state["counts"][1]["5"] == 3 and state["counts"][2]["11"] == 5
    assert screen.cells["7"].full  # all 7 sevens are counted
    assert "0 left" in screen.cells["7"].caption
    ui.screenshot("artcollectors-2-count")
    ui.tap_text("Score")  # most tokens are not counted: at the end of a game that is a slip, so Score asks again
    assert not screen.session.over and screen.message_is_error
    assert "Not counted yet: 1 of painting 1, 2 of painting 2, 3 of painting 3, 4 of painting 4 and 5 more" in (
        screen.header_text
    )
    ui.tap_text("Score")
    assert screen.session.over
    assert screen.session.scores() == {"Ana": 12, "Bo": 10, "Cy": 17, "winners": ["Cy"]}
    assert screen.header_text.startswith("Cy wins with 17 points")
    text = ui.texts()
    assert "Ana has the most: 4 of 7" in text and "1st Cy" in text
    ui.screenshot("artcollectors-3-results")


def test_black_cat_tie_and_counter_limits(ui: UI) -> None:
    screen = start(ui)
    ui.tap_text("Count the tokens")
    ui.tap(counter(screen, 1, "+"))
    ui.tap(ui.find("Bo ·"))
    ui.tap(counter(screen, 1, "+"))
    assert screen.message_is_error and "painting 1 has only 1 token" in screen.header_text
    ui.tap(counter(screen, 3, "−"))
    assert screen.message_is_error and "no tokens of painting 3" in screen.header_text
    tap_times(ui, counter(screen, 9, "+"), 3)
    ui.tap(ui.find("Ana ·"))
    tap_times(ui, counter(screen, 9, "+"), 3)
    ui.tap_text("Score")
    assert "say who holds the black-cat token" in screen.header_text and not screen.session.over
    ui.tap(exact(screen.count.ids.cat, "Cy"))
    ui.tap_text("Score")
    ui.tap_text("Score")  # score anyway (most tokens uncounted in this test)
    rows = {row["painting"]: row for row in screen.session.state["result"]["paintings"]}
    assert rows[9]["winner"] == 2
    assert "Cy holds the black cat, so takes it" in ui.texts()


def test_undo_a_count_by_touch(ui: UI) -> None:
    screen = start(ui)
    ui.tap_text("Count the tokens")
    tap_times(ui, counter(screen, 8, "+"), 2)
    assert screen.cells["8"].value == 2
    ui.tap(ui.find("Undo"))
    assert screen.cells["8"].value == 1
    assert screen.session.state["counts"][0]["8"] == 1


def test_tracker_draws_steals_and_stop_order(ui: UI) -> None:
    screen = start(ui, tracker=True, steal_hints=True)
    assert "Ana draws first." in ui.texts()
    ui.screenshot("artcollectors-4-tracker-summary")
    ui.tap_text("Start tracking")
    ui.tap(screen.picks["7"])
    ui.tap(screen.picks["5"])
    ui.tap(screen.picks["3"])
    assert screen.order == ["7", "5", "3"]
    turn = screen.tracker.ids.turn
    ui.tap(turn.children[-1])  # the 7 goes on top
    assert screen.order == ["5", "3", "7"]
    ui.screenshot("artcollectors-5-turn")
    ui.tap(screen.tracker.ids.stop)
    state = screen.session.state
    assert state["piles"][0] == ["5", "3", "7"] and state["current"] == 1
    ui.tap(screen.picks["7"])
    steal = ui.find("Steal 1×7 from Ana")
    ui.screenshot("artcollectors-6-steal-offer")
    ui.tap(steal)
    state = screen.session.state
    assert state["turn"]["tokens"] == ["7", "7"] and state["piles"][0] == ["5", "3"]
    assert "angel" in ui.texts()  # Ana's pile now shows the angel on top
    ui.tap(screen.picks["7"])  # a second 7 drawn: bust
    assert "Bust!" in screen.header_text and screen.session.state["current"] == 2
    assert screen.picks["7"].text.endswith("7 left[/size]")  # the stolen 7 went to the bag too


def test_turn_order_follows_the_turn_after_undo_and_a_cat_swap(ui: UI) -> None:
    """The screen's order of this turn's tokens is matched to the turn by count: an undone steal or a cat swap
    that takes one of two equal tokens used to leave a copy too many, and Stop was refused with no way out."""
    screen = start(ui, tracker=True)
    ui.tap_text("Start tracking")
    stop = screen.tracker.ids.stop
    for code in ("9", "5", "6"):  # Ana, Bo (a 5 on top), Cy
        ui.tap(screen.picks[code])
        ui.tap(stop)
    ui.tap(screen.picks["7"])
    ui.tap(screen.picks["5"])
    ui.tap(ui.find("Steal from Bo"))
    ui.tap(screen.tracker.ids.turn.children[-1])  # the 7 goes on top
    assert screen.order == ["5", "5", "7"]
    ui.tap(ui.find("Undo"))
    assert screen.session.state["turn"]["tokens"] == ["7", "5"]
    assert sorted(screen.order) == ["5", "7"]
    ui.tap(stop)
    assert not screen.message_is_error, screen.header_text
    assert screen.session.state["piles"][0][-2:] in (["7", "5"], ["5", "7"])

    screen = start(ui, tracker=True)
    ui.tap_text("Start tracking")
    stop = screen.tracker.ids.stop
    for code in ("5", "11", "6"):  # Ana, Bo (a musician cat on top), Cy (a 6 on top)
        ui.tap(screen.picks[code])
        ui.tap(stop)
    ui.tap(screen.picks["11"])
    ui.tap(ui.find("Steal from Bo"))
    ui.tap(screen.picks["2C"])  # the cheater lets the next duplicate pass
    ui.tap(screen.picks["11"])
    ui.tap(ui.find("Swap cat for Cy's 6"))
    tokens = screen.session.state["turn"]["tokens"]
    assert sorted(screen.order) == sorted(tokens), (screen.order, tokens)
    ui.tap(stop)
    assert not screen.message_is_error, screen.header_text
    assert screen.session.state["current"] == 1


def test_the_black_cat_keeps_its_painting_after_a_bust(ui: UI) -> None:
    screen = start(ui, tracker=True)
    ui.tap_text("Start tracking")
    cat = screen.tracker.ids.black_cat
    assert cat.text == "Next draw is the black cat (*)"
    ui.tap(cat)
    ui.tap(screen.picks["7"])
    assert screen.session.state["turn"]["tokens"] == ["7*"]
    ui.tap(screen.picks["7"])  # bust: the black cat goes back to the bag
    assert cat.text == "Next draw is the black-cat 7 (*)"
    ui.screenshot("artcollectors-black-cat-known")
    ui.tap(cat)
    ui.tap(screen.picks["5"])
    assert screen.message_is_error and "the black-cat token is a 7, not a 5" in screen.header_text
    assert screen.session.state["turn"]["tokens"] == []


def test_tracker_refuses_with_reason(ui: UI) -> None:
    screen = start(ui, tracker=True)
    ui.tap_text("Start tracking")
    ui.tap(screen.picks["1"])
    assert screen.picks["1"].disabled  # the only Robin Tell is out of the bag
    assert screen.act({"type": "draw", "token": "1"}) is False
    assert "there is no 1 (Robin Tell) left in the bag" in screen.header_text
    assert screen.message_is_error


def test_robin_tell_deal_by_touch(ui: UI) -> None:
    screen = start(ui, tracker=True)
    ui.tap_text("Start tracking")
    for action in (
        {"type": "draw", "token": "5"},
        {"type": "draw", "token": "6"},
        {"type": "draw", "token": "7"},
        {"type": "stop", "order": ["5", "6", "7"]},
        {"type": "draw", "token": "8"},
        {"type": "stop"},
    ):
        assert screen.act(action), screen.header_text
    ui.advance(2)
    ui.tap(screen.picks["1"])
    ui.tap(ui.find("Robin Tell: Ana's pile"))
    assert screen.robin.parent is not None
    givers = screen.robin.ids.givers
    ui.tap(exact(givers, "Bo"))
    ui.tap(exact(givers, "Bo"))
    ui.screenshot("artcollectors-7-robin")
    assert screen.robin.ids.deal.disabled
    ui.tap(exact(givers, "Cy"))
    ui.tap(screen.robin.ids.deal)
    state = screen.session.state
    assert state["piles"] == [[], ["8", "6", "7"], ["5"]]
    assert state["turn"]["robin"] == "used" and screen.robin.parent is None


def test_player_button_stops_the_turn(ui: UI) -> None:
    from hardware.buttons import ButtonEvent

    screen = start(ui, tracker=True)
    ui.tap_text("Start tracking")
    ui.tap(screen.picks["4"])
    screen.on_button(ButtonEvent(seat=2, kind="press", tick=1.0))  # Bo's button: not his turn
    assert screen.session.state["current"] == 0
    assert "It is Ana's turn" in screen.header_text
    screen.on_button(ButtonEvent(seat=1, kind="press", tick=1.1))
    assert screen.session.state["piles"][0] == ["4"] and screen.session.state["current"] == 1
    ui.tap(ui.find("Count by hand"))
    screen.on_button(ButtonEvent(seat=3, kind="press", tick=2.0))  # Cy's button shows Cy's counts
    assert screen.count_seat == 2 and ui.find("Cy ·").state == "down"


def test_tracked_game_to_the_end_shows_results(ui: UI) -> None:
    from pathlib import Path

    from companion.journal.replay import load_lines

    log = Path(__file__).parents[1] / "games" / "logs" / "artcollectors-tracked-3p.jsonl"
    setup, actions = load_lines(log.read_text(encoding="utf-8").splitlines())
    ui.app.start_game(setup)
    ui.advance(3)
    screen = ui.screen()
    for action in actions[:-1]:
        assert screen.act(action, quiet=True), screen.header_text
    ui.advance(2)
    ui.screenshot("artcollectors-8-tracker-late")
    ui.tap(screen.tracker.ids.stop)
    assert screen.session.over
    assert "wins with" in screen.header_text
    ui.screenshot("artcollectors-9-tracked-results")


FIVE = (*PLAYERS, Player("Di", "#fb8c00", 4), Player("Ed", "#43a047", 5))


def test_five_players_swap_ladies_and_black_cat_by_touch(ui: UI) -> None:
    screen = start(ui, FIVE, tracker=True)
    assert "66 tokens" in ui.texts()
    ui.tap_text("Start tracking")
    assert len(screen.picks) == 12  # 1, 2B, 2C, 3..11: painting 10 plays with 5
    ui.tap(screen.tracker.ids.black_cat)
    ui.tap(screen.picks["5"])
    assert screen.session.state["turn"]["tokens"] == ["5*"]
    assert screen.tracker.ids.black_cat.disabled and screen.tracker.ids.black_cat.state == "normal"
    ui.tap(screen.tracker.ids.stop)
    for code in ("8", "3", "10"):  # Bo, Cy, Di pile one token each
        ui.tap(screen.picks[code])
        ui.tap(screen.tracker.ids.stop)
    ui.tap(screen.picks["11"])  # Ed: a musician cat
    assert "Swap cat for Cy" not in ui.texts(screen.tracker.ids.moves)  # the angel cannot be swapped
    ui.screenshot("artcollectors-10-five-swap")
    ui.tap(ui.find("Swap cat for Ana's 5"))
    state = screen.session.state
    assert state["turn"]["tokens"] == ["5*"] and state["piles"][0] == ["11"]
    ui.tap(screen.tracker.ids.stop)
    for code in ("4", "6", "9"):  # Ana: the three ladies
        ui.tap(screen.picks[code])
    ui.tap(ui.find("Ladies take Bo's 8"))
    ui.tap(ui.find("Ladies take Di's 10"))
    assert "Ladies take Cy's" not in ui.texts(screen.tracker.ids.moves)  # Cy's angel protects her pile
    ui.screenshot("artcollectors-11-ladies")
    state = screen.session.state
    assert state["turn"]["ladies"] == 2 and state["turn"]["tokens"] == ["4", "6", "9", "8", "10"]


def test_count_by_hand_prefilled_from_the_piles(ui: UI) -> None:
    screen = start(ui, tracker=True)
    ui.tap_text("Start tracking")
    for code in ("7", "8"):
        ui.tap(screen.picks[code])
    ui.tap(screen.tracker.ids.stop)
    ui.tap(ui.find("Count by hand"))
    assert screen.session.state["phase"] == "count"
    assert screen.cells["7"].value == 1 and screen.cells["8"].value == 1
    ui.tap(exact(screen.count.ids.cat, "Nobody"))
    ui.tap_text("Score")
    ui.tap_text("Score")  # the tracker stopped early: score the two tokens anyway
    assert screen.session.scores() == {"Ana": 1 + 2 + 7 + 8, "Bo": 0, "Cy": 0, "winners": ["Ana"]}


def test_resume_mid_turn(tmp_path: Any) -> None:
    journal = tmp_path / "journal.sqlite3"
    ui = UI(tmp_path, journal_path=journal)
    try:
        screen = start(ui, tracker=True)
        ui.tap_text("Start tracking")
        ui.tap(screen.picks["6"])
        ui.tap(screen.picks["2C"])
        game_id = screen.session.game_id
        before = screen.session.state
    finally:
        ui.close()
    ui = UI(tmp_path, journal_path=journal)
    try:
        ui.app.resume(game_id)
        ui.advance(3)
        screen = ui.screen()
        assert screen.session.state == before
        assert screen.tracker.parent is not None  # straight back to the tracker, no summary
        assert screen.order == ["6", "2C"]
        assert screen.picks["2C"].disabled
    finally:
        ui.close()


def small_buttons(ui: UI) -> list[str]:
    """Visible, enabled buttons under 48 px in either direction on the current screen."""
    from kivy.uix.button import Button

    return [
        f"{w.text!r} {w.width:.0f}×{w.height:.0f}"
        for w in ui.screen().walk(restrict=True)
        if isinstance(w, Button) and w.opacity > 0 and not w.disabled and w.width >= 1 and w.height >= 1
        if min(w.width, w.height) < 48
    ]


def test_every_panel_has_finger_sized_buttons(ui: UI) -> None:
    screen = start(ui, FIVE, tracker=True)
    assert small_buttons(ui) == []  # summary
    ui.tap_text("Start tracking")
    for code in ("5", "6", "7", "8", "9", "4", "3", "2C"):
        screen.act({"type": "draw", "token": code})
    ui.advance(2)
    assert small_buttons(ui) == [], "tracker with a long turn"
    ui.tap(screen.tracker.ids.stop)
    ui.tap(screen.picks["1"])
    ui.tap(ui.find("Robin Tell: Ana's pile"))
    ui.advance(2)
    assert small_buttons(ui) == [], "Robin Tell's deal"
    ui.tap(ui.find("Cancel"))
    assert screen.robin.parent is None and screen.robin_plan is None
    ui.tap(screen.tracker.ids.stop)
    ui.tap(ui.find("Count by hand"))
    assert small_buttons(ui) == [], "count"
    ui.tap(exact(screen.count.ids.cat, "Nobody"))
    ui.tap_text("Score")
    ui.tap_text("Score")
    assert small_buttons(ui) == [], "results"


def test_without_hints_every_pile_is_offered_and_the_rules_judge(ui: UI) -> None:
    screen = start(ui, tracker=True)  # steal_hints off: the rulebook says nobody may help spot equal tokens
    ui.tap_text("Start tracking")
    for code in ("5", "7"):
        ui.tap(screen.picks[code])
        ui.tap(screen.tracker.ids.stop)
    ui.tap(screen.picks["7"])  # Cy draws a 7: both piles are offered, without saying which matches
    assert "Steal 1×7" not in ui.texts()
    ui.tap(ui.find("Steal from Ana"))
    assert screen.message_is_error and "Ana's top token is a 5, not a 7" in screen.header_text
    ui.tap(ui.find("Steal from Bo"))
    assert screen.session.state["turn"]["tokens"] == ["7", "7"]


def test_setup_screen_offers_the_settings(ui: UI) -> None:
    ui.screen("setup").prepare("artcollectors")
    ui.go("setup")
    ui.tap(ui.find("pile tracker"))
    assert ui.screen().settings["tracker"] is True
    ui.screenshot("artcollectors-0-setup")
    ui.tap_text("Start game")
    screen = ui.screen()
    assert screen.name == "artcollectors" and screen.session.state["phase"] == "play"


def test_count_by_hand_in_the_middle_of_a_turn(ui: UI) -> None:
    screen = start(ui, tracker=True)
    ui.tap_text("Start tracking")
    ui.tap(screen.picks["5"])
    ui.tap(screen.tracker.ids.stop)
    ui.tap(screen.picks["7"])  # Bo is mid-turn when the table notices the tracker is wrong
    ui.tap(ui.find("Count by hand"))
    state = screen.session.state
    assert state["phase"] == "count" and not screen.message_is_error
    assert "counted as Bo's" in screen.header_text
    assert state["counts"][0]["5"] == 1 and state["counts"][1]["7"] == 1
    ui.tap(ui.find("Undo"))  # and back to the tracker, the turn intact
    assert screen.session.state["phase"] == "play" and screen.session.state["turn"]["tokens"] == ["7"]


def test_piles_show_only_their_top_token_without_hints(ui: UI) -> None:
    screen = start(ui, tracker=True)  # piles are blind stacks: the screen must not show what lies below the top
    ui.tap_text("Start tracking")
    for code in ("11", "5", "7"):
        ui.tap(screen.picks[code])
    ui.tap(screen.tracker.ids.stop)  # Ana piles 11, 5, 7 (7 on top)
    view = screen.pile_views[0]
    assert [tile.text for tile in view["tiles"]] == ["7"] and view["below"].text == "+2 below"
    assert "11" not in ui.texts(screen.tracker.ids.piles)
    ui.screenshot("artcollectors-12-top-only")


def test_piles_show_deeper_with_hints(ui: UI) -> None:
    screen = start(ui, tracker=True, steal_hints=True)
    ui.tap_text("Start tracking")
    for code in ("11", "5", "7"):
        ui.tap(screen.picks[code])
    ui.tap(screen.tracker.ids.stop)
    shown = [tile.text for tile in screen.pile_views[0]["tiles"] if tile.opacity > 0]
    assert shown == ["7", "5", "11"]


def test_a_long_turn_scrolls_instead_of_running_under_stop(ui: UI) -> None:
    screen = start(ui, FIVE, tracker=True)
    ui.tap_text("Start tracking")
    for code in ("4", "5", "6", "7", "9", "8", "10", "11", "2C", "3"):
        assert screen.act({"type": "draw", "token": code}), screen.header_text
    ui.advance(3)
    ids = screen.tracker.ids
    chips = list(reversed(ids.turn.children))  # left to right
    assert len(chips) == 10 and all(chip.width >= 48 for chip in chips)
    top = chips[-1]
    right_edge = top.to_window(top.right, top.y)[0]
    stop_left = ids.stop.to_window(ids.stop.x, ids.stop.y)[0]
    assert right_edge <= stop_left + 1, "the top token runs under Stop"
    ui.screenshot("artcollectors-13-long-turn")
    ui.tap(chips[-2])  # the 2C, visible beside the top: tapping puts it on top through the scroll view
    assert screen.order[-1] == "2C"


def test_score_warns_once_about_uncounted_tokens(ui: UI) -> None:
    screen = start(ui)
    ui.tap_text("Count the tokens")
    tap_times(ui, counter(screen, 1, "+"), 1)
    ui.tap(exact(screen.count.ids.cat, "Ana"))
    ui.tap_text("Score")
    assert not screen.session.over and "Not counted yet: 2 of painting 2" in screen.header_text
    ui.tap(counter(screen, 2, "+"))  # the counts change: the next Score warns again about what is still missing
    ui.tap_text("Score")
    assert not screen.session.over and "Not counted yet: 1 of painting 2" in screen.header_text
    ui.tap_text("Score")
    assert screen.session.over


def test_first_player_setting_starts_the_tracker(ui: UI) -> None:
    screen = start(ui, tracker=True, first_player=2)
    assert "Cy draws first." in ui.texts()
    ui.tap_text("Start tracking")
    assert "Cy" in screen.tracker.ids.whose.text
    ui.tap(screen.picks["5"])
    ui.tap(screen.tracker.ids.stop)
    assert screen.session.state["piles"][2] == ["5"] and screen.session.state["current"] == 0


# Five players with names as long as the name pad allows (14 characters).
LONG = (
    Player("Bartholomew-Ch", "#1e88e5", 1),
    Player("Dmitri-Konstan", "#fb8c00", 2),
    Player("Alexandrina-Ma", "#e53935", 3),
    Player("Maximiliano-Jo", "#43a047", 4),
    Player("Christophe-Xav", "#fdd835", 5),
)


def drawn_whole(label: Any) -> bool:
    """The label's text is drawn inside it, none of it cut (its texture fits its box)."""
    width, height = label.texture_size
    return width <= label.width + 0.5 and height <= label.height + 0.5


def shown_lines(button: Any) -> list[str]:
    return str(button.text).split("\n")


def test_five_long_names_count_screen_fits(ui: UI) -> None:
    screen = start(ui, LONG)
    ui.tap_text("Count the tokens")
    for painting, count in ((11, 11), (9, 3)):  # Bartholomew-Ch holds 14 tokens: his tab needs two lines
        assert screen.act({"type": "set_count", "player": 0, "painting": painting, "count": count}, quiet=True)
    ui.advance(3)
    tabs = list(reversed(screen.count.ids.tabs.children))
    assert len(tabs) == 5
    for tab, player in zip(tabs, LONG, strict=True):
        assert drawn_whole(tab), tab.text
        assert tab.text.startswith(player.name[:8])
    assert tabs[0].text.endswith("14 tokens")  # the count is always shown whole
    assert tabs[1].text.endswith("0") or tabs[1].text.endswith("0 tokens")
    cats = list(reversed(screen.count.ids.cat.children))
    assert [shown_lines(b)[0][:6] for b in cats] == [p.name[:6] for p in LONG] + ["Nobody"]
    for button in cats:
        assert drawn_whole(button), button.text
        assert len(shown_lines(button)) <= 2
        assert button.width >= 48 and button.height >= 48
    for left, right in itertools.pairwise(cats):  # side by side, none over the next
        assert left.right <= right.x
    for button, player in zip(cats, LONG, strict=False):  # wrapped at the hyphen, every letter shown
        assert "".join(shown_lines(button)) == player.name
    ui.tap(cats[3])
    assert screen.session.state["black_cat"] == 3 and "Maximiliano-Jo holds the black-cat token" in screen.header_text
    ui.screenshot("artcollectors-14-long-names-count")


def test_five_long_names_ranking_shows_every_score_whole(ui: UI) -> None:
    screen = start(ui, LONG)
    ui.tap_text("Count the tokens")
    # Every token to someone, so two-digit totals: painting p goes to seat p % 5.
    for key, info in screen.session.state["paintings"].items():
        seat = int(key) % 5
        assert screen.act({"type": "set_count", "player": seat, "painting": int(key), "count": info["tokens"]})
    assert screen.act({"type": "set_black_cat", "player": 0})
    assert screen.act({"type": "finish"})
    ui.advance(4)
    players = screen.session.state["result"]["players"]
    assert max(p["total"] for p in players) >= 10
    ranking = screen.results.ids.ranking
    tiles = list(reversed(ranking.children))
    assert len(tiles) == 5
    from kivy.uix.label import Label

    for tile in tiles:
        labels = [w for w in tile.walk(restrict=True) if isinstance(w, Label)]
        for label in labels:
            assert drawn_whole(label), label.text
            assert tile.x <= label.x and label.right <= tile.right + 0.5, label.text
    texts = [[str(w.text) for w in tile.walk(restrict=True) if isinstance(w, Label)] for tile in tiles]
    for player in players:  # each total is a label of its own, drawn whole
        assert any(str(player["total"]) in row and any(player["name"][:6] in t for t in row) for row in texts)
        detail = f"{player['token_points']} token pts + {player['painting_points']} paintings"
        assert any(detail in row for row in texts)
    ui.screenshot("artcollectors-15-long-names-results")


def test_numbers_take_an_before_a_vowel_sound(ui: UI) -> None:
    from companion.games.artcollectors import a_number

    assert [a_number(n) for n in (1, 7, 8, 11, 18, 80, 88, 100, 800, 1100, 8000, 11000, 18500)] == [
        "a 1",
        "a 7",
        "an 8",
        "an 11",
        "an 18",
        "an 80",
        "an 88",
        "a 100",
        "an 800",
        "a 1100",
        "an 8000",
        "an 11000",
        "an 18500",
    ]
    screen = start(ui, tracker=True)  # no steal hints: every pile is offered, the rules judge
    ui.tap_text("Start tracking")
    for code in ("8", "11"):  # Ana piles an 8, Bo an 11
        ui.tap(screen.picks[code])
        ui.tap(screen.tracker.ids.stop)
    ui.tap(screen.picks["7"])
    ui.tap(ui.find("Steal from Ana"))
    assert screen.message_is_error and "Ana's top token is an 8, not a 7" in screen.header_text
    ui.tap(ui.find("Steal from Bo"))
    assert screen.message_is_error and "Bo's top token is an 11, not a 7" in screen.header_text


def test_five_long_names_robin_deal_fits(ui: UI) -> None:
    screen = start(ui, LONG, tracker=True)
    ui.tap_text("Start tracking")
    ui.tap(screen.picks["5"])
    ui.tap(screen.picks["6"])
    ui.tap(screen.tracker.ids.stop)  # Bartholomew-Ch piles two tokens
    ui.tap(screen.picks["1"])  # Dmitri-Konstan: Robin Tell
    ui.tap(ui.find("Robin Tell: Bartholomew-Ch's pile"))
    ui.advance(3)
    title = screen.robin.ids.title
    assert title.text.startswith("Robin Tell takes Bartholomew-Ch's 2 tokens: hand them all out, top first")
    from kivy.core.text import Label as CoreLabel

    probe = CoreLabel(text=title.text, font_size=title.font_size, text_size=(title.width, None))
    probe.refresh()
    assert probe.texture.size[1] <= title.height  # three lines with long names, none cut at the top
    givers = list(reversed(screen.robin.ids.givers.children))
    for button, player in zip(givers, LONG, strict=True):
        assert drawn_whole(button), button.text
        assert len(shown_lines(button)) <= 2 and "".join(shown_lines(button)) == player.name
        assert button.width >= 48 and button.height >= 48
    ui.screenshot("artcollectors-16-long-names-robin")
    ui.tap(givers[4])
    ui.tap(givers[3])
    ui.tap(ui.find("Deal"))
    assert screen.session.state["piles"][4] == ["6"] and screen.session.state["piles"][3] == ["5"]
    assert "Robin Tell takes Bartholomew-Ch's 2 tokens and hands them out" in screen.header_text


def test_robin_tell_takes_a_single_token(ui: UI) -> None:
    screen = start(ui, tracker=True)
    ui.tap_text("Start tracking")
    ui.tap(screen.picks["5"])
    ui.tap(screen.tracker.ids.stop)  # Ana piles one token
    ui.tap(screen.picks["1"])  # Bo: Robin Tell
    ui.tap(ui.find("Robin Tell: Ana's pile"))
    assert screen.robin.ids.title.text.startswith("Robin Tell takes Ana's 1 token: hand it out (")
    ui.tap(exact(screen.robin.ids.givers, "Cy"))
    ui.tap(ui.find("Deal"))
    assert screen.session.state["piles"][2] == ["5"]
    assert "Robin Tell takes Ana's token and hands it out" in screen.header_text


def test_robin_title_with_a_longer_name_is_not_cut(ui: UI) -> None:
    """Names from the config file may be longer than the name pad's 14 letters: the deal's sentence then takes a
    third line, which must fit (it was cut at the top)."""
    players = (Player("Bartholomew-Christopher", "#1e88e5", 1), *PLAYERS[1:])
    screen = start(ui, players, tracker=True)
    ui.tap_text("Start tracking")
    ui.tap(screen.picks["5"])
    ui.tap(screen.picks["6"])
    ui.tap(screen.tracker.ids.stop)
    ui.tap(screen.picks["1"])
    ui.tap(ui.find("Robin Tell: Bartholomew-Christopher's pile"))
    ui.advance(3)
    from kivy.core.text import Label as CoreLabel

    title = screen.robin.ids.title
    probe = CoreLabel(text=title.text, font_size=title.font_size, text_size=(title.width, None))
    probe.refresh()
    assert 2 * title.font_size < probe.texture.size[1] <= title.height  # three lines, all shown
