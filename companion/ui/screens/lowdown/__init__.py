"""Lowdown's screen: ``screen`` (:class:`LowdownScreen`: what is picked, forwarding to the engine), ``board`` (the
board's squares and lines), ``entry`` (dice entry by touch), ``panels`` (one panel per part of the turn). Each
module has its ``.kv`` beside it."""

from companion.ui.screens.lowdown.entry import DieTile
from companion.ui.screens.lowdown.screen import LowdownScreen

__all__ = ["DieTile", "LowdownScreen"]
