"""ruff and mypy --strict on the engine stay clean (DEVELOPERS.md, issue 2)."""

import ast
import re
import subprocess
import sys
from pathlib import Path

from unogame.engine import EVENT_KINDS

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def test_ruff_is_clean() -> None:
    result = run("ruff", "check", "src", "tests", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_the_package() -> None:
    result = run("mypy", "--strict", "src/unogame")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_native_core_wrapper() -> None:
    result = run("mypy", "--strict", "src/unogame/native")
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_module_touches_private_game_fields() -> None:
    result = run("ruff", "check", "--select", "SLF001", "src")
    assert result.returncode == 0, result.stdout + result.stderr


def engine_imports() -> dict[str, set[str]]:
    """Each engine module and the engine modules it imports, anywhere in the file
    (function level and ``TYPE_CHECKING`` blocks included)."""
    engine = ROOT / "src" / "unogame" / "engine"
    graph: dict[str, set[str]] = {}
    for path in engine.glob("*.py"):
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    imported.add(node.module.split(".")[0])
                else:
                    imported.update(alias.name for alias in node.names)
        graph[path.stem] = imported - {path.stem}
    return graph


def test_engine_has_no_import_circle() -> None:
    graph = engine_imports()
    assert "position" in graph["game"] and "game" not in graph["position"]  # the check sees
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        assert module not in path, " -> ".join([*path, module])
        if module in done:
            return
        for other in sorted(graph.get(module, ())):
            visit(other, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])


def test_engine_imports_only_the_standard_library() -> None:
    engine = ROOT / "src" / "unogame" / "engine"
    for path in engine.glob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped.startswith(("import ", "from ")) and not stripped.startswith("from ."):
                module = stripped.split()[1].split(".")[0]
                assert module in sys.stdlib_module_names or module == "__future__", (
                    f"{path.name} imports {module}"
                )


def test_front_ends_show_every_event_kind_of_the_engine() -> None:
    """EVENT_KINDS is the one list of event kinds: the web log (``case "KIND"`` in the
    page's modules) and the terminal log (``kind == "KIND"`` in tui/) each have a line for
    every kind."""
    kinds = {kind.name for kind in EVENT_KINDS}
    script = "\n".join(path.read_text("utf-8") for path in
                       (ROOT / "src" / "unogame" / "server" / "static").glob("*.js"))
    web = set(re.findall(r'case "(\w+)"', script))
    assert kinds <= web, f"the web log has no line for {sorted(kinds - web)}"
    tui: set[str] = set()
    for path in (ROOT / "src" / "unogame" / "tui").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Compare) and isinstance(node.left, ast.Name)
                    and node.left.id == "kind"):
                tui.update(c.value for c in node.comparators
                           if isinstance(c, ast.Constant) and isinstance(c.value, str))
    assert kinds <= tui, f"the terminal log has no line for {sorted(kinds - tui)}"
