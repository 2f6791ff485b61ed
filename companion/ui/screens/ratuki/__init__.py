"""Ratuki's screen: ``screen`` (:class:`RatukiScreen`: presses to the live referee, the round flow, which pane
shows, forwarding to the engine), one panel a phase (``ready``, ``play``, ``score``, ``over``, on the base in
``panels``), ``verdict`` (the verdict banner's words and textures, the tones, the clock's text) and ``sheet`` (the
score sheet and the score entry). Each with its ``.kv`` beside it."""

from companion.ui.screens.ratuki.screen import RatukiScreen
from companion.ui.screens.ratuki.verdict import TIE_COLOUR, TONES, clock_text, verdict_parts

__all__ = ["TIE_COLOUR", "TONES", "RatukiScreen", "clock_text", "verdict_parts"]
