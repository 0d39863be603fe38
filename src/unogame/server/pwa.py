"""Installable on a phone's home screen: the web app manifest and the service worker.

The manifest names the game, its start page and its icons (192 and 512 pixels, and a
maskable one). The service worker (``templates/sw.js``, filled in with the release's version and
files) keeps the page's files and shows ``offline.html`` when the server is gone.
"""

from __future__ import annotations

import json
from importlib import resources

from .. import i18n
from .assets import Assets, Body

THEME = "#0f5132"
"""The table's green (index.html's theme-color)."""
PRECACHED = ("index.html", "offline.html")
"""Besides every module and style sheet: the pages the worker may have to show."""


def manifest(assets: Assets) -> Body:
    english, thai = i18n.table("en"), i18n.table("th")
    document = {
        "id": "/",
        "name": english["web.app_name"],
        "short_name": "UNO",
        "description": f"{english['web.app_description']} / {thai['web.app_description']}",
        "lang": "en",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": [
            {"src": assets.url("icon-192.png"), "sizes": "192x192", "type": "image/png",
             "purpose": "any"},
            {"src": assets.url("icon-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "any"},
            {"src": assets.url("icon-maskable-512.png"), "sizes": "512x512",
             "type": "image/png", "purpose": "maskable"},
            {"src": assets.url("icon.svg"), "sizes": "any", "type": "image/svg+xml",
             "purpose": "any"},
        ],
    }
    return Body.of(json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8"),
                   "application/manifest+json")


def precached(assets: Assets) -> list[str]:
    """What the worker keeps at install: the page's scripts, styles, pages and small icon."""
    return assets.urls([*assets.page_files, *PRECACHED, "offline.css", "icon.svg"])


def service_worker(assets: Assets) -> Body:
    template = (resources.files("unogame.server") / "templates" / "sw.js").read_text("utf-8")
    script = (template.replace("__VERSION__", assets.version)
              .replace("__FILES__", json.dumps(precached(assets)))
              .replace("__OFFLINE__", assets.url("offline.html")))
    return Body.of(script.encode("utf-8"), "text/javascript; charset=utf-8")


__all__ = ["THEME", "manifest", "precached", "service_worker"]
