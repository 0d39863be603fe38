"""The page's modules as one script: a phone on a slow link fetches one file, not ~30.

A browser opens at most six connections to a server without HTTP/2, so ~30 modules on a
link with 400 ms per request cost five rounds (2 s) even when all are asked for at once.
The modules are written as ES modules and stay so in the source; at the server's start
each becomes a function of its own scope in one module script, evaluated in the order
the browser would evaluate them (depth first, in import order), its exports returned as
an object that its importers destructure.

That is the browser's own meaning only for a graph without cycles, whose modules export
no ``let``/``var`` (a destructured copy does not follow a reassignment) and use only
``import { a, b as c } from "./x.js"`` / ``import "./x.js"`` and ``export`` of
declarations or ``export { a, b as c }``. Anything else raises :class:`NotBundled` and
the page loads the modules one by one (with ``modulepreload``), as written.
"""

from __future__ import annotations

import re
from typing import Final

IMPORT_NAMES: Final = re.compile(r"^import\s*\{([^}]*)\}\s*from\s*[\"'](\./[\w.-]+)[\"'];?[ \t]*$",
                                 re.M)
IMPORT_BARE: Final = re.compile(r"^import\s*[\"'](\./[\w.-]+)[\"'];?[ \t]*$", re.M)
EXPORT_DECLARATION: Final = re.compile(
    r"^export\s+((?:async\s+)?function\s*\*?\s*|class\s+|const\s+)([A-Za-z_$][\w$]*)", re.M)
EXPORT_LIST: Final = re.compile(r"^export\s*\{([^}]*)\};?[ \t]*$", re.M)
IDENTIFIER: Final = re.compile(r"^[A-Za-z_$][\w$]*$")


class NotBundled(Exception):
    """The modules use something the bundle would not mean the same (the reason)."""


def pairs(names: str, where: str) -> list[tuple[str, str]]:
    """``a, b as c`` as ``[("a", "a"), ("b", "c")]``."""
    found = []
    for item in names.split(","):
        words = item.split()
        if not words:
            continue
        if len(words) == 1:
            words = [words[0], "as", words[0]]
        if len(words) != 3 or words[1] != "as" or not all(IDENTIFIER.match(w) for w in words[::2]):
            raise NotBundled(f"{where}: cannot read the names {item.strip()!r}")
        found.append((words[0], words[2]))
    return found


def variable(name: str) -> str:
    return "__module_" + re.sub(r"\W", "_", name)


class Module:
    """One module's source, its imports (in order) and its exports (exported name: local)."""

    def __init__(self, name: str, source: str) -> None:
        self.name = name
        self.imports: list[str] = []
        self.exports: dict[str, str] = {}
        body = IMPORT_NAMES.sub(self._named, source)
        body = IMPORT_BARE.sub(self._bare, body)
        body = EXPORT_DECLARATION.sub(self._declared, body)
        body = EXPORT_LIST.sub(self._listed, body)
        for line in body.splitlines():
            if re.match(r"^(import|export)\b", line):
                raise NotBundled(f"{name}: cannot bundle {line.strip()!r}")
        if re.search(r"\bimport\s*\(|\bimport\.meta\b", body):
            raise NotBundled(f"{name}: a dynamic import or import.meta")
        if re.search(r"^await\b", body, re.M):
            raise NotBundled(f"{name}: a top-level await")
        self.body = body

    def _named(self, found: re.Match[str]) -> str:
        target = self._imported(found.group(2))
        names = pairs(found.group(1), self.name)
        if not names:
            return ""
        inner = ", ".join(name if name == local else f"{name}: {local}" for name, local in names)
        return f"const {{ {inner} }} = {variable(target)};"

    def _bare(self, found: re.Match[str]) -> str:
        self._imported(found.group(1))
        return ""

    def _imported(self, path: str) -> str:
        target = path.removeprefix("./")
        self.imports.append(target)
        return target

    def _declared(self, found: re.Match[str]) -> str:
        self.exports[found.group(2)] = found.group(2)
        return found.group(1) + found.group(2)

    def _listed(self, found: re.Match[str]) -> str:
        for local, exported in pairs(found.group(1), self.name):
            self.exports[exported] = local
        return ""

    def wrapped(self) -> str:
        exported = ", ".join(name if name == local else f"{name}: {local}"
                             for name, local in self.exports.items())
        return (f"// ---- {self.name}\nconst {variable(self.name)} = (() => {{\n"
                f"{self.body.rstrip()}\nreturn {{ {exported} }};\n}})();\n")


def evaluation_order(modules: dict[str, Module], entry: str) -> list[str]:
    """The order a browser evaluates the graph in (depth first, post-order)."""
    order: list[str] = []
    visiting: list[str] = []

    def visit(name: str) -> None:
        if name in order:
            return
        if name in visiting:
            raise NotBundled(f"an import cycle: {' -> '.join([*visiting, name])}")
        if name not in modules:
            raise NotBundled(f"{visiting[-1] if visiting else entry} imports {name}, not found")
        visiting.append(name)
        for imported in modules[name].imports:
            visit(imported)
        visiting.pop()
        order.append(name)

    visit(entry)
    return order


def bundle(sources: dict[str, str], entry: str) -> str:
    """One module script that evaluates ``entry`` and the modules it imports, or
    :class:`NotBundled`."""
    modules = {name: Module(name, source) for name, source in sources.items()}
    order = evaluation_order(modules, entry)
    for name in order:
        for imported in modules[name].imports:  # every imported name is exported
            wanted = IMPORT_NAMES.finditer(sources[name])
            for found in wanted:
                if found.group(2).removeprefix("./") != imported:
                    continue
                missing = [n for n, _ in pairs(found.group(1), name)
                           if n not in modules[imported].exports]
                if missing:
                    raise NotBundled(f"{name} imports {missing} that {imported} does not export")
    header = ("// The page's modules in one script, made by the server from static/*.js "
              "(bundle.py).\n")
    return header + "\n".join(modules[name].wrapped() for name in order)


__all__ = ["NotBundled", "bundle"]
