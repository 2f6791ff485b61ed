"""The table's language: asked at first start (each language in its own script), switched live in settings
without a restart, remembered; a game keeps no words in its journal, so one started in Korean resumes in
Catalan."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from ui_support import UI

from companion import i18n
from companion.journal.replay import load_lines

LOG = Path(__file__).resolve().parent.parent / "games" / "logs" / "ratatat-3p-korean.jsonl"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A data folder of this test's own (the remembered language must not reach other tests)."""
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    yield tmp_path / "home"
    i18n.set_language("en")


def test_first_start_asks_with_the_system_language_first_and_remembers(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COMPANION_LANGUAGE", raising=False)
    monkeypatch.setenv("LANG", "ca_ES.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    ui = UI(tmp_path)
    try:
        assert ui.screen().name == "language"
        buttons = list(reversed(ui.screen().ids.choices.children))
        assert "Català" in buttons[0].text and "Continua en català" in buttons[0].text  # the system's, first
        labels = " ".join(b.text for b in buttons)
        for own, line in (
            ("English", "Continue in English"),
            ("한국어", "한국어로 계속하기"),
            ("Español", "Continuar en español"),
        ):
            assert own in labels and line in labels
        ui.screenshot("language-first-start")
        ui.tap_text("Español")
        assert ui.screen().name == "home"
        assert "Nueva partida" in ui.texts()
        assert "Partidas guardadas" in ui.texts()
        ui.screenshot("language-home-es")
    finally:
        ui.close()
    assert json.loads((home / "data" / "preferences.json").read_text(encoding="utf-8")) == {"language": "es"}
    ui = UI(tmp_path)  # the next start: no question, straight home in Spanish
    try:
        assert ui.screen().name == "home"
        assert "Nueva partida" in ui.texts()
    finally:
        ui.close()


def test_settings_switch_the_language_live_everywhere(home: Path, tmp_path: Path) -> None:
    ui = UI(tmp_path)
    try:
        assert ui.screen().name == "home" and "New game" in ui.texts()
        ui.tap(ui.screen().ids.settings)  # the language's own name, top right
        assert ui.screen().name == "settings"
        ui.tap_text("한국어")
        assert ui.screen().name == "settings"  # no restart, no screen change
        assert "설정" in ui.texts() and "뒤로" in ui.texts() and "Settings" not in ui.texts()
        assert "✓ 사용 중" in ui.find("한국어").text
        ui.screenshot("language-settings-ko")
        ui.tap_text("뒤로")
        assert ui.screen().name == "home"
        texts = ui.texts()
        assert "새 게임" in texts and "랫어탯롤" in texts and "저장된 게임" in texts and "New game" not in texts
        assert ui.screen().ids.settings.text == "한국어"
        ui.screenshot("language-home-ko")
        ui.tap(ui.screen().ids.settings)
        ui.tap_text("Català")
        ui.tap_text("Enrere")
        assert "Nova partida" in ui.texts() and "Col·leccionistes d'art" in ui.texts()
    finally:
        ui.close()
    assert json.loads((home / "data" / "preferences.json").read_text(encoding="utf-8")) == {"language": "ca"}


def test_a_notice_on_show_is_worded_again_after_a_switch(home: Path, tmp_path: Path) -> None:
    ui = UI(tmp_path)
    try:
        ui.app.notice("test", i18n.Lazy("Camera: {problem}", problem="USB"))  # a topic no camera clears
        ui.advance(2)
        assert ui.app.banner == "Camera: USB" or "Camera: USB" in ui.app.banner
        ui.go("settings")
        ui.tap_text("Español")
        assert "Cámara: USB" in ui.app.banner
    finally:
        ui.close()


@pytest.mark.slow
def test_a_game_started_in_korean_resumes_in_catalan(home: Path, tmp_path: Path) -> None:
    """The journal holds actions, not sentences: the same rows replay to the same state in any language."""
    setup, actions = load_lines(LOG.read_text(encoding="utf-8").splitlines(), source=str(LOG))
    journal = tmp_path / "journal.sqlite3"
    ui = UI(tmp_path, journal_path=journal)
    try:
        ui.go("settings")
        ui.tap_text("한국어")
        session = ui.app.start_game(setup)
        for action in actions[:12]:
            session.do(action)
        korean_state = session.state
        game_id = session.game_id
        ui.go("home")
    finally:
        ui.close()
    rows = sqlite3.connect(journal).execute("SELECT * FROM actions").fetchall()
    stored = json.dumps(rows, ensure_ascii=False)
    names = {p.name for p in setup.players}
    assert not any("\uac00" <= ch <= "\ud7a3" for ch in stored if not any(ch in n for n in names)), stored[:400]
    ui = UI(tmp_path, journal_path=journal)
    try:
        assert i18n.current() == "ko"  # remembered
        ui.go("settings")
        ui.tap_text("Català")
        ui.tap_text("Enrere")
        assert "Continua" in ui.screen().ids.resume.text
        ui.tap(ui.screen().ids.resume)
        assert ui.app.session is not None and ui.app.session.game_id == game_id
        assert ui.app.session.state == korean_state
        ui.screenshot("language-resumed-ca")
    finally:
        ui.close()
