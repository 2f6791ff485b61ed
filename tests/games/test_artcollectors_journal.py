"""Art Collectors through the journal: the catalogue a game starts with is stored inline in its recorded setup, so
resume, undo, redo and ``companion replay`` give the same game after an app update corrects ``artcollectors.json``;
games recorded before (no inline copy) still use the packaged catalogue."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.games import artcollectors
from companion.games.artcollectors import ENGINE, catalogue_json, load_catalogue, parse_catalogue
from companion.games.base import BadSetup, Player, Setup
from companion.journal import GameSession, Journal
from companion.journal.replay import ReplayError, dump_lines, load_lines, replay

LOG = Path(__file__).parent / "logs" / "artcollectors-tracked-3p.jsonl"


def logged_game() -> tuple[Setup, list[dict[str, Any]]]:
    """A whole tracked 3-player game (its setup names no black-cat painting: the catalogue's default applies)."""
    return load_lines(LOG.read_text(encoding="utf-8").splitlines(), source=LOG.name)


@pytest.fixture
def update_catalogue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Returns a function that does what an app update with a corrected data file does: the engine's catalogue
    becomes one where 3-4 players set painting 9 aside instead of 10, painting 7 is worth 17 and the black cat
    is on painting 5."""

    def update() -> None:
        raw = json.loads(artcollectors.DATA_PATH.read_text(encoding="utf-8"))
        raw["removed_paintings"] = {"3": [9], "4": [9]}
        raw["paintings"][6]["value"] = 17
        raw["black_cat"]["painting"] = 5
        path = tmp_path / "artcollectors.json"
        path.write_text(json.dumps(raw), encoding="utf-8")
        monkeypatch.setattr(ENGINE, "catalogue", load_catalogue(path))

    return update


def test_a_game_replays_the_same_after_the_catalogue_changes(tmp_path: Path, update_catalogue: Any) -> None:
    setup, actions = logged_game()
    journal = Journal(tmp_path / "j.sqlite3")
    session = GameSession.start(journal, setup)
    for action in actions:
        session.do(action)
    assert session.over
    before, scores = session.state, session.scores()
    recorded = journal.game(session.game_id).setup
    assert recorded.settings["catalogue"] == catalogue_json(ENGINE.catalogue)
    assert "catalogue" not in before["settings"]  # the state keeps what it needs, not the whole catalogue
    exported = dump_lines(recorded, session.actions)
    journal.close()

    update_catalogue()
    assert ENGINE.default_settings()["black_cat_painting"] == 5  # new games would get the corrected catalogue

    journal = Journal(tmp_path / "j.sqlite3")
    resumed = GameSession(journal, session.game_id)  # resume
    assert resumed.state == before and resumed.scores() == scores
    last = resumed.undo()
    assert last == actions[-1] and not resumed.over
    assert resumed.redo() == last and resumed.state == before
    again, again_actions = load_lines(exported, source="export")  # companion replay FILE
    assert replay(again, again_actions) == before
    journal.close()


def test_without_the_inline_copy_an_update_would_break_the_game(update_catalogue: Any) -> None:
    """What the inline copy prevents: an old-style setup replayed after the update uses the new catalogue."""
    setup, actions = logged_game()
    assert ENGINE.is_over(replay(setup, actions))
    update_catalogue()
    with pytest.raises(ReplayError, match="action 1"):  # painting 9 is now set aside with 3 players
        replay(setup, actions)


def test_a_game_recorded_before_the_inline_copy_still_opens(tmp_path: Path) -> None:
    setup, actions = logged_game()
    assert "catalogue" not in setup.settings
    journal = Journal(tmp_path / "j.sqlite3")
    game_id = journal.new_game(setup)  # as written by a version without prepare_setup
    for action in actions[:-1]:
        journal.append(game_id, action)
    session = GameSession(journal, game_id)
    assert session.state == replay(setup, actions[:-1])
    session.do(actions[-1])
    assert session.over and session.state == replay(setup, actions)
    inline = ENGINE.prepare_setup(setup)
    assert ENGINE.setup(inline) == ENGINE.setup(setup)  # the same game either way while the file is unchanged
    journal.close()


def test_the_inline_catalogue_is_the_data_file_format_and_reads_back() -> None:
    catalogue = load_catalogue()
    data = catalogue_json(catalogue)
    assert json.loads(json.dumps(data)) == data
    assert parse_catalogue(data) == catalogue
    raw = json.loads(artcollectors.DATA_PATH.read_text(encoding="utf-8"))
    assert parse_catalogue(raw) == catalogue
    players = (Player("Ana", seat=1), Player("Bo", seat=2))
    given = Setup("artcollectors", players, {"catalogue": data}, 3)
    assert ENGINE.prepare_setup(given) is given  # already inline: kept as it is


def test_the_inline_catalogue_decides_players_and_the_black_cat_default() -> None:
    data = catalogue_json(load_catalogue())
    data["players"] = {"min": 3, "max": 4}
    data["black_cat"] = {"painting": 6}
    two = (Player("Ana", seat=1), Player("Bo", seat=2))
    with pytest.raises(BadSetup, match="needs 3–4 players"):
        ENGINE.setup(Setup("artcollectors", two, {"catalogue": data}, 1))
    three = (*two, Player("Cy", seat=3))
    state = ENGINE.setup(Setup("artcollectors", three, {"catalogue": data}, 1))
    assert state["settings"]["black_cat_painting"] == 6
    state = ENGINE.setup(Setup("artcollectors", three, {"catalogue": data, "black_cat_painting": 0}, 1))
    assert state["settings"]["black_cat_painting"] == 0


def test_a_bad_inline_catalogue_is_a_clear_setup_error() -> None:
    players = (Player("Ana", seat=1), Player("Bo", seat=2))
    data = catalogue_json(load_catalogue())
    data["paintings"][6]["tokens"][0]["ability"] = "teleport"
    with pytest.raises(BadSetup, match="recorded catalogue: token '7' has ability 'teleport'"):
        ENGINE.setup(Setup("artcollectors", players, {"catalogue": data}, 1))
    with pytest.raises(BadSetup, match="cannot read the game's recorded catalogue"):
        ENGINE.setup(Setup("artcollectors", players, {"catalogue": {"paintings": []}}, 1))
    with pytest.raises(BadSetup, match="must be empty or the catalogue as an object"):
        ENGINE.setup(Setup("artcollectors", players, {"catalogue": "artcollectors.json"}, 1))


def test_the_setup_screen_offers_the_same_settings() -> None:
    """The inline copy is no choice on the new-game screen: the settings table keeps it but does not show it."""
    defaults = ENGINE.default_settings()
    assert defaults.pop("catalogue") is None
    assert set(defaults) == {
        "tracker",
        "full_game",
        "angel_guards_banker",
        "black_cat_painting",
        "steal_hints",
        "first_player",
    }
    assert not ENGINE.settings["catalogue"].shown and all(ENGINE.settings[key].shown for key in defaults)
