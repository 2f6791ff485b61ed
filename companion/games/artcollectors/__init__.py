"""Art Collectors: ``catalogue`` (paintings and tokens as data), ``rules`` (the engine: settings, setup, the
final count), ``tracker`` (the pile tracker's moves and what can be done now), ``scoring`` (majorities with the
black-cat tie-break), ``wording`` (what the log and the screen say). The names other code uses are here."""

from companion.games.artcollectors.catalogue import (
    ABILITIES,
    BLACK_CAT_MARK,
    DATA_PATH,
    Catalogue,
    Painting,
    TokenKind,
    catalogue_json,
    load_catalogue,
    painting_of,
    parse_catalogue,
    plain,
)
from companion.games.artcollectors.rules import ENGINE, ArtCollectors
from companion.games.artcollectors.scoring import black_cat_painting, pile_counts, tally, top_run, uncounted, working
from companion.games.artcollectors.tracker import bag_total, protected, steal_run
from companion.games.artcollectors.wording import token_name
from companion.i18n import a_number

__all__ = [
    "ABILITIES",
    "BLACK_CAT_MARK",
    "DATA_PATH",
    "ENGINE",
    "ArtCollectors",
    "Catalogue",
    "Painting",
    "TokenKind",
    "a_number",
    "bag_total",
    "black_cat_painting",
    "catalogue_json",
    "load_catalogue",
    "painting_of",
    "parse_catalogue",
    "pile_counts",
    "plain",
    "protected",
    "steal_run",
    "tally",
    "token_name",
    "top_run",
    "uncounted",
    "working",
]
