"""The terminal front end: ``uno play`` (Textual), against bots or friends on one keyboard."""
