"""The page's files, read and compressed once, served with validators and lifetimes.

A phone on a slow link should fetch each file once, small, and never again until it
changes. So every file under ``static/`` is also served at ``/v/VERSION/NAME``, where
VERSION is a hash of all of them: those answers may be kept for a year (a new release
has a new VERSION, so the pages it serves name new URLs). The page itself, ``/static/``
and the service worker are revalidated on every use (``no-cache`` with an ETag: a 304
costs a round trip, not the file). Text is sent gzipped to clients that accept it.

The modules are served as one script (bundle.py: one request instead of ~30) where
that keeps their meaning; otherwise (or with ``UNOGAME_NO_BUNDLE=1``) one by one, all
asked for at once (``<link rel=modulepreload>`` for the whole import graph, instead of
one import level per round trip).

The HTML files are templates: ``"/static/`` becomes the versioned prefix,
``"/static/app.js"`` the bundle, ``<!--modulepreload-->`` the preload links of the
unbundled modules, and ``{{KEY}}`` / ``{{th:KEY}}`` the English / Thai text of an i18n key.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import json
import logging
import mimetypes
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import Response

from .. import i18n
from .bundle import NotBundled, bundle

log = logging.getLogger("unogame.server")

IMMUTABLE: Final = "public, max-age=31536000, immutable"
"""A versioned file: the same URL never names other bytes."""
REVALIDATE: Final = "no-cache"
"""Kept, but asked about (If-None-Match) before each use."""
ENTRY: Final = "app.js"
"""The page's one script; every other module is reached from it by imports."""
BUNDLE: Final = "app.bundle.js"
"""The name the modules have as one script."""
NO_BUNDLE_VARIABLE: Final = "UNOGAME_NO_BUNDLE"
"""Set (to anything but empty or 0): the page loads its modules one by one (debugging)."""
COMPRESSED_TYPES: Final = ("text/", "application/javascript", "application/json",
                           "application/manifest+json", "image/svg+xml")
IMPORT: Final = re.compile(r"^(?:import|export)\s(?:[^;\"']*?\sfrom\s*)?[\"'](\./[\w./-]+)[\"']",
                           re.M)
"""A static import (or re-export) of a module of this folder."""
TEXT_KEY: Final = re.compile(r"\{\{(?:(th):)?([a-z0-9_.]+)\}\}")
MEDIA_TYPES: Final = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                      ".html": "text/html; charset=utf-8", ".svg": "image/svg+xml",
                      ".png": "image/png", ".json": "application/json"}


@dataclass(frozen=True)
class Body:
    """One answer's bytes: as they are, gzipped (``None``: not worth it) and its ETag."""

    raw: bytes
    gzipped: bytes | None
    etag: str
    media_type: str

    @classmethod
    def of(cls, raw: bytes, media_type: str) -> Body:
        compressible = media_type.startswith(COMPRESSED_TYPES) and len(raw) > 512
        gzipped = gzip.compress(raw, compresslevel=9, mtime=0) if compressible else None
        if gzipped is not None and len(gzipped) >= len(raw):
            gzipped = None
        return cls(raw, gzipped, f'W/"{hashlib.sha256(raw).hexdigest()[:20]}"', media_type)

    def response(self, request: Request, cache_control: str) -> Response:
        """The answer to ``request``: 304 if it holds this ETag, gzipped if it accepts it."""
        headers = {"Cache-Control": cache_control, "ETag": self.etag,
                   "Vary": "Accept-Encoding"}
        if self.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        if self.gzipped is not None and accepts_gzip(request.headers.get("accept-encoding", "")):
            return Response(self.gzipped, media_type=self.media_type,
                            headers={**headers, "Content-Encoding": "gzip"})
        return Response(self.raw, media_type=self.media_type, headers=headers)


def accepts_gzip(accept_encoding: str) -> bool:
    for item in accept_encoding.lower().split(","):
        name, _, params = item.strip().partition(";")
        if name.strip() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def media_type(name: str) -> str:
    suffix = Path(name).suffix
    return MEDIA_TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"


def module_graph(sources: dict[str, str], entry: str = ENTRY) -> list[str]:
    """The modules ``entry`` imports, directly or not (static imports; ``entry`` excluded),
    in the order they are first reached."""
    seen = [entry]
    for name in seen:
        for found in IMPORT.finditer(sources.get(name, "")):
            module = found.group(1).removeprefix("./")
            if module in sources and module not in seen:
                seen.append(module)
    return seen[1:]


def texts(template: str) -> str:
    """``{{KEY}}`` and ``{{th:KEY}}`` filled with the escaped English or Thai text."""
    tables = {language: i18n.table(language) for language in ("en", "th")}
    return TEXT_KEY.sub(lambda found: html.escape(tables[found.group(1) or "en"][found.group(2)]),
                        template)


class Assets:
    """The files of one folder, read once (a server serves the release it started with)."""

    def __init__(self, folder: Path, bundled: bool | None = None) -> None:
        """``bundled``: serve the modules as one script if they allow (default: unless
        ``UNOGAME_NO_BUNDLE`` is set)."""
        if bundled is None:
            bundled = os.environ.get(NO_BUNDLE_VARIABLE, "") in ("", "0")
        files = {path.name: path.read_bytes() for path in sorted(folder.iterdir())
                 if path.is_file() and not path.name.startswith(".")}
        digest = hashlib.sha256()
        for name, raw in files.items():
            digest.update(name.encode() + b"\0" + hashlib.sha256(raw).digest())
        digest.update(json.dumps([i18n.table(language) for language in i18n.LANGUAGES],
                                 sort_keys=True).encode())  # the HTML carries some of it
        self.version = digest.hexdigest()[:12]
        self.prefix = f"/v/{self.version}/"
        sources = {name: raw.decode("utf-8") for name, raw in files.items()
                   if name.endswith(".js")}
        self.not_bundled: str | None = "not asked for" if not bundled else None
        """Why the modules are not served as one script (None: they are)."""
        if bundled:
            try:
                files[BUNDLE] = bundle(sources, ENTRY).encode("utf-8")
            except NotBundled as why:
                self.not_bundled = str(why)
                log.warning("the page's modules are served one by one: %s", why)
        self.modules = [] if self.not_bundled is None else module_graph(sources)
        """The modules preloaded with the page (unbundled: all that ``app.js`` imports)."""
        self.bodies = {name: Body.of(self._filled(name, raw), media_type(name))
                       for name, raw in files.items()}
        self.index_pages = {language: self._with_strings(language)
                            for language in i18n.LANGUAGES}
        """The page for a browser that prefers each language (its strings asked for with
        the page's scripts, not after them)."""
        entry = ENTRY if self.not_bundled is not None else BUNDLE
        page = files.get("index.html", b"").decode("utf-8")
        self.page_files = [entry, *self.modules, *(name for name in files if name.endswith(
            ".css") and f'"/static/{name}"' in page)]
        """The scripts and style sheets the page loads."""

    def _filled(self, name: str, raw: bytes) -> bytes:
        if not name.endswith(".html"):
            return raw
        preload = "\n".join(f'<link rel="modulepreload" href="{self.prefix}{module}">'
                            for module in self.modules)
        text = texts(raw.decode("utf-8"))
        if self.not_bundled is None:
            text = text.replace(f'"/static/{ENTRY}"', f'"/static/{BUNDLE}"')
        text = text.replace('"/static/', f'"{self.prefix}')
        return text.replace("<!--modulepreload-->", preload).encode("utf-8")

    def _with_strings(self, language: str) -> Body:
        page = self.bodies["index.html"]
        link = f'<link rel="preload" href="/api/i18n/{language}" as="fetch" crossorigin>'
        return Body.of(page.raw.replace(b"<!--preload-strings-->", link.encode()),
                       page.media_type)

    def index(self, request: Request, cache_control: str) -> Response:
        """The page, for the language its browser prefers (as the page picks it: Thai if
        any of its languages is, else English)."""
        wanted = request.headers.get("accept-language", "").lower()
        language = "th" if any(item.strip().startswith("th") for item in wanted.split(",")) \
            else "en"
        response = self.index_pages[language].response(request, cache_control)
        response.headers["Vary"] = "Accept-Encoding, Accept-Language"
        return response

    def url(self, name: str) -> str:
        return self.prefix + name

    def urls(self, names: Iterable[str] | None = None) -> list[str]:
        return [self.url(name) for name in (self.bodies if names is None else names)]

    def versioned(self, request: Request) -> Response:
        """``/v/{version}/{name}``: kept a year; another release's version is not found."""
        body = self.bodies.get(request.path_params["name"])
        if body is None or request.path_params["version"] != self.version:
            return Response("not found", status_code=404, media_type="text/plain",
                            headers={"Cache-Control": "no-store"})
        return body.response(request, IMMUTABLE)

    def plain(self, request: Request) -> Response:
        """``/static/{name}``: the same files, asked about before each use."""
        body = self.bodies.get(request.path_params["name"])
        if body is None:
            return Response("not found", status_code=404, media_type="text/plain")
        return body.response(request, REVALIDATE)


__all__ = ["IMMUTABLE", "REVALIDATE", "Assets", "Body", "accepts_gzip", "module_graph"]
