"""Rules engines, one module per game; importing the package registers every game."""

from referee.rules import arithmetical  # noqa: F401, I001
from referee.rules import carroll  # noqa: F401
from referee.rules import croquetnole  # noqa: F401  (registers castle-croquetnole)
from referee.rules import tabletop  # noqa: F401
from referee.rules.base import GAMES, Replay, Ruling, make_game, replay

__all__ = ["GAMES", "Replay", "Ruling", "make_game", "replay"]
