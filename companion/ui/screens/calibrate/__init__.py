"""The calibrate screen: ``screen`` (:class:`CalibrateScreen`: frames from the camera feed to the wizard, its
actions and display), ``steps`` (each step's labels and buttons, and the simulated tray's dice, without Kivy),
``words`` (texts and sentences, errors as a line for the player), ``preview`` (the live picture, its overlay and
textures), ``chips`` (the row of per-step chips and buttons), ``verify`` and ``save`` (their helpers, plain
functions). ``screen`` and ``chips`` have their ``.kv`` beside them."""

from companion.ui.screens.calibrate.preview import Preview
from companion.ui.screens.calibrate.screen import CalibrateScreen
from companion.ui.screens.calibrate.words import answer_name, guarded, problem_sentence

__all__ = ["CalibrateScreen", "Preview", "answer_name", "guarded", "problem_sentence"]
