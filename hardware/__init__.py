"""Hardware adapters, importable on any machine: nothing Pi-only is imported until it is used.

- :mod:`hardware.buttons` — ``ButtonEvent``, the tick-based ``Debouncer``, ``ButtonBoard`` and ``FakeButtons``.
- :mod:`hardware.gpio` — ``GpioButtons`` (gpiozero) and ``open_buttons``, which falls back to the fake.
- :mod:`hardware.camera` — the ``FrameSource`` protocol and ``CameraUnavailable``.
- :mod:`hardware.sources` — Pi camera, OpenCV webcam, replay, ``ReconnectingSource`` and ``open_camera``.
"""
