"""Art Collectors' screen: ``screen`` (:class:`ArtCollectorsScreen`: what is chosen between taps, forwarding to
the engine), its panels ``count`` (setup summary and final count), ``results``, ``tracker`` and ``robin`` (Robin
Tell's deal), and ``widgets`` (tiles and cells). Each module has its ``.kv`` beside it."""

from companion.ui.screens.artcollectors.screen import ArtCollectorsScreen
from companion.ui.screens.artcollectors.widgets import chunks_from_gives

__all__ = ["ArtCollectorsScreen", "chunks_from_gives"]
