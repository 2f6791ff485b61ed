"""Messages players read (#21.9): no Python error text in any of them."""

from __future__ import annotations

import json
import re

import pytest

from companion.games.artcollectors import ENGINE as ART
from companion.games.base import BadSetup, Player, Setup, error_words
from tests.games.replay_trace import GOLDEN

RAW = re.compile(r"\b\w*(Error|Exception)\(|Traceback|<class |\bNone\b")


def test_error_words_never_repeat_pythons_text() -> None:
    assert error_words(KeyError("paintings")) == "the entry 'paintings' is missing"
    assert error_words(IndexError("list index out of range")) == "a list is shorter than expected"
    assert error_words(TypeError("'NoneType' object is not subscriptable")) == "a value of the wrong kind"
    assert error_words(FileNotFoundError(2, "No such file or directory")) == "No such file or directory"
    assert error_words(ValueError("the count must be 3")) == "the count must be 3"
    assert error_words(RuntimeError("boom")) == "an unexpected problem"


def test_a_damaged_recorded_catalogue_is_said_in_words() -> None:
    players = (Player("Ana", seat=1), Player("Bo", seat=2))
    with pytest.raises(BadSetup) as err:
        ART.setup(Setup("artcollectors", players, {"catalogue": {"title": "x"}}))
    assert "the entry 'paintings' is missing" in str(err.value)
    assert not RAW.search(str(err.value))


def test_no_refusal_or_log_line_of_the_example_games_shows_python_text() -> None:
    traces = json.loads(GOLDEN.read_text(encoding="utf-8"))
    texts = [step[1] for steps in traces.values() for step in steps if isinstance(step, list) and len(step) > 1]
    assert len(texts) > 3000
    bad = [t for t in texts if RAW.search(t)]
    assert not bad, bad[:5]
