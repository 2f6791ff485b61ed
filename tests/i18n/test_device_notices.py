"""The devices' notices on the banner are worded in the table's language and again after a switch: the buttons'
fallback (hardware.gpio says it in English, its own tests read it) and a reconnecting camera's news."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion import i18n
from companion.runtime import buttons_news, camera_news
from hardware.camera import CameraReconnecting
from hardware.gpio import FALLBACK_TAIL, NO_GPIO_MESSAGE


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def test_no_gpio_reads_in_the_language_of_the_moment() -> None:
    notice = buttons_news(NO_GPIO_MESSAGE)
    assert str(notice) == NO_GPIO_MESSAGE
    i18n.set_language("ko")
    assert str(notice) == "GPIO가 없습니다: 키 1–5와 화면의 버튼을 씁니다"
    i18n.set_language("ca")
    assert str(notice).startswith("No hi ha GPIO")


def test_a_gpio_problem_keeps_its_device_words() -> None:
    i18n.set_language("es")
    notice = buttons_news(f"GPIO buttons unavailable (GPIO17 is busy): {FALLBACK_TAIL}")
    assert str(notice) == (
        "Los botones GPIO no están disponibles (GPIO17 is busy): se usan las teclas 1–5 y los botones de la pantalla"
    )
    assert str(buttons_news("something else")) == "something else"


def test_a_camera_lost_or_never_found_in_words() -> None:
    lost = CameraReconnecting("Camera lost (webcam 0): no frame. ...", lost=True, camera="webcam 0", reason="no frame")
    gone = CameraReconnecting("Camera not available: x. ...", reason="unplugged")
    i18n.set_language("ca")
    assert str(camera_news(lost)).startswith("S'ha perdut la càmera (webcam 0): no frame.")
    assert str(camera_news(gone)).startswith("La càmera no està disponible: unplugged.")
    i18n.set_language("en")
    assert str(camera_news(gone)) == "Camera not available: unplugged. Trying again; touch input works meanwhile."
    assert camera_news(CameraReconnecting("a sentence")) == "a sentence"  # nothing to word: as it came
