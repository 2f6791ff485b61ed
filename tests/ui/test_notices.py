"""Notices are typed (#23 item 5): the app decides by a notice's type and fields, never by its wording."""

from __future__ import annotations

from pathlib import Path

import pytest
from ui_support import UI

from companion.notices import Notice, Severity, Topic
from companion.vision.dice_kinds import ReaderCalibration
from hardware.camera import CameraReconnecting, CameraUnavailable


def test_a_reconnecting_camera_is_shown_in_its_own_words_a_bare_reason_is_explained(ui: UI) -> None:
    # Worded any way at all (another language, no "camera" in front): the type says it is a whole sentence.
    ui.app.hub.put("camera", CameraReconnecting("La càmera s'ha perdut; es torna a connectar sola."))
    assert ui.wait_until(lambda: "càmera" in ui.app.banner)
    assert ui.app.banner == "La càmera s'ha perdut; es torna a connectar sola."
    notice = ui.app.notices[Topic.CAMERA]
    assert isinstance(notice, Notice) and notice.topic == Topic.CAMERA and notice.severity == Severity.WARNING
    # A bare reason from a plain source, even one that starts with "Camera", is explained for the players.
    ui.app.hub.put("camera", CameraUnavailable("Camera cable pulled"))
    assert ui.wait_until(lambda: "cable" in ui.app.banner)
    assert str(ui.app.notices[Topic.CAMERA]) == (
        "Camera lost: Camera cable pulled. Touch entry still works; reconnecting…"
    )
    ui.app.hub.put("camera", None)  # frames flow again
    assert ui.wait_until(lambda: Topic.CAMERA not in ui.app.notices)


@pytest.mark.parametrize("broken", [True, False])
def test_the_calibration_notice_follows_the_broken_flag_not_the_words(
    ui: UI, monkeypatch: pytest.MonkeyPatch, broken: bool
) -> None:
    def lookup(resolution: tuple[int, int], camera: str | None = None, *, base_dir: Path) -> ReaderCalibration:
        # the words that used to decide, on both sides: only ``broken`` counts now
        return ReaderCalibration(None, "club.json: made for pi@640x480; using no calibration", broken)

    monkeypatch.setattr("companion.vision.dice_kinds.active_vision_profile", lookup)
    assert ui.app.vision_profile((640, 480)) is None
    ui.advance(3)
    if broken:
        notice = ui.app.notices[Topic.CALIBRATION]
        assert notice.severity == Severity.WARNING and "club.json" in str(notice)
        assert "Calibration: club.json" in ui.app.banner
    else:
        assert Topic.CALIBRATION not in ui.app.notices


def test_an_uncaught_error_is_an_error_notice(ui: UI) -> None:
    ui.app._errors.handle_exception(ValueError("boom"))
    notice = ui.app.notices[Topic.ERROR]
    assert notice.severity == Severity.ERROR and "boom" in str(notice)
    ui.app.notice("test", "a screen's own topic")  # screens may use topics of their own
    assert ui.app.notices["test"] == Notice("test", Severity.WARNING, "a screen's own topic")
    ui.app.notice("test", None)
    assert "test" not in ui.app.notices
