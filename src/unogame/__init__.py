"""unogame: the complete UNO card game (112-card deck, 2-10 players)."""

__version__ = "0.1.0"
