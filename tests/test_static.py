"""ruff and mypy --strict on the engine stay clean (DEVELOPERS.md, issue 2)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def test_ruff_is_clean() -> None:
    result = run("ruff", "check", "src", "tests", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_engine() -> None:
    result = run("mypy", "--strict", "src/unogame/engine")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_native_core_wrapper() -> None:
    result = run("mypy", "--strict", "src/unogame/native")
    assert result.returncode == 0, result.stdout + result.stderr


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
