"""The piecepack table referee: vision, rules and replay for tabletop flicking games."""

__version__ = "0.1.0"
