"""Ratuki's screen: ``screen`` (:class:`RatukiScreen`: presses to the live referee, the round flow, forwarding to
the engine), ``verdict`` (the verdict banner's words and textures, the tones, the clock's text) and ``sheet`` (the
score sheet and the score entry). Each with its ``.kv`` beside it."""

from companion.ui.screens.ratuki.screen import RatukiScreen
from companion.ui.screens.ratuki.verdict import TIE_COLOUR, TONES, clock_text, verdict_parts

__all__ = ["TIE_COLOUR", "TONES", "RatukiScreen", "clock_text", "verdict_parts"]
