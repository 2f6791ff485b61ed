"""Camera: the live frames, to aim and focus the camera over the tray."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.graphics.texture import Texture
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.i18n import _
from companion.ui.screens import load_kv

load_kv("camera")


def frame_texture(frame: Any, texture: Texture | None = None) -> Texture:
    """A Kivy texture showing a BGR frame (reused when the size is unchanged)."""
    height, width = frame.shape[:2]
    if texture is None or tuple(texture.size) != (width, height):
        texture = Texture.create(size=(width, height), colorfmt="bgr")
        texture.flip_vertical()
    texture.blit_buffer(frame.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    return texture


class CameraScreen(Screen):
    """Shows the newest camera frame; says so plainly when there is no camera."""

    info_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._texture: Texture | None = None
        self.frames = 0

    def on_pre_enter(self, *_args: Any) -> None:
        app = App.get_running_app()
        self._texture = None
        self.ids.view.texture = None  # never show a stale picture from an earlier visit
        if app.feed is None:
            self.info_text = _("No camera configured: dice can still be entered by touch.")
            return
        self.info_text = _("{camera}: waiting for frames…").format(camera=getattr(app.camera, "name", _("camera")))
        app.feed.want(True)

    def on_leave(self, *_args: Any) -> None:
        app = App.get_running_app()
        if app.feed is not None:
            app.feed.want(False)

    def on_frame(self, frame: Any, _result: Any) -> None:
        self._texture = frame_texture(frame, self._texture)
        self.ids.view.texture = self._texture
        self.frames += 1
        height, width = frame.shape[:2]
        self.info_text = f"{getattr(App.get_running_app().camera, 'name', 'camera')}: {width}×{height}"
