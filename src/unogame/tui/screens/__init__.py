"""The terminal game's screens, one per module."""
