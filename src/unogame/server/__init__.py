"""The web front end: an authoritative game server with rooms, bots and a browser UI.

``uno serve`` runs :func:`create_app` on uvicorn; see :mod:`unogame.server.app` for the
WebSocket protocol and :mod:`unogame.server.storage` for what is persisted.
"""

from .app import create_app
from .flow import Timing
from .manager import Limits

__all__ = ["Limits", "Timing", "create_app"]
