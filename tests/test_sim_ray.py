"""``uno sim --ray`` (issue 13): the rounds as Ray tasks on a local Ray with 2 CPUs give
exactly the local pool's results, progress bar and files; Ray is optional and cleaned up."""

from __future__ import annotations

import gc
import io
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from unogame.cli import build_parser
from unogame.engine import Rules
from unogame.sim import ray_runner
from unogame.sim.runner import BotError, SimConfig, run_rounds

TOURNAMENT = ["sim", "--players", "3", "--bots", "medium,easy,random", "--games", "40",
              "--seed", "3", "--workers", "2", "--stacking", "--jump-in"]
FILES = ("results.json", "rounds.csv", "bots.csv", "win_rates.png", "points.png",
         "round_lengths.png")


def run_sim(argv: list[str]) -> tuple[int, str, str]:
    args = build_parser().parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    code = args.func(args, out, err)
    return code, out.getvalue(), err.getvalue()


def descendants() -> set[int]:
    """The processes started (directly or not) by this one."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def wait_until_gone(before: set[int], timeout: float = 60.0) -> set[int]:
    """The processes started since ``before`` that are still alive after ``timeout``."""
    deadline = time.monotonic() + timeout
    while (left := descendants() - before) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


def test_a_tournament_on_a_local_ray_is_the_local_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """One local Ray (its start-up is most of this test's time) serves the library calls
    and an ``uno sim --ray ADDRESS`` process; then its processes and files are gone."""
    assert build_parser().parse_args(["sim", "--ray"]).ray == ray_runner.LOCAL
    code, local_out, local_err = run_sim([*TOURNAMENT, "--out", str(tmp_path / "local")])
    assert code == 0, local_err
    real_home = os.environ.get("HOME", "/")
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))  # where Ray would write a token file
    made: list[str] = []
    mkdtemp = tempfile.mkdtemp

    def recording_mkdtemp(*args: str, **kwargs: str) -> str:
        path = mkdtemp(*args, **kwargs)
        made.append(path)
        return path

    monkeypatch.setattr(ray_runner.tempfile, "mkdtemp", recording_mkdtemp)
    config = SimConfig(4, ("medium", "easy", "medium", "random"), 10, seed=5,
                       rules=Rules(jump_in=True))
    before = descendants()
    with ray_runner.ray_session(cpus=2) as ray:
        assert ray_runner.ray_cpus(ray) == 2
        seen: list[tuple[int, int]] = []
        results = ray_runner.run_rounds_on_ray(ray, config, chunk=3,
                                               progress=lambda *done: seen.append(done))
        assert results == run_rounds(config, workers=1)
        assert sorted(seen) == seen and seen[-1] == (10, 10) and len(seen) == 4
        # a bot's failure in a task is the simulator's BotError, as in the local pool
        failing = SimConfig(2, ("medium", "medium"), 4, seed=1, max_decisions=1)
        with pytest.raises(BotError, match="did not end within 1 decisions"):
            ray_runner.run_rounds_on_ray(ray, failing)
        gc.collect()  # Ray reports an error nobody collected when its reference goes
        # the command on this Ray by its address: the same table, files and progress bar
        address = ray.get_runtime_context().gcs_address
        done = subprocess.run([sys.executable, "-m", "unogame", *TOURNAMENT, "--ray", address,
                               "--out", str(tmp_path / "ray")],
                              env={**os.environ, "HOME": real_home}, capture_output=True,
                              text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
    assert local_out.splitlines()[:-2] == done.stdout.splitlines()[:-2]
    assert "as Ray tasks on 2 CPUs" in done.stdout.splitlines()[-2]
    for name in FILES:
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "ray" / name).read_bytes()
    assert "] 40/40 rounds" in done.stderr and "] 2/40 rounds" in done.stderr
    # Ray's processes, session folder and token file are gone or were never made
    assert wait_until_gone(before) == set()
    assert len(made) == 1 and made[0].startswith(os.path.join(tempfile.gettempdir(), "uno-ray-"))
    assert not os.path.exists(made[0])
    assert list(home.iterdir()) == []
    assert "rror" not in capfd.readouterr().err  # the cancelled chunks' errors were collected


def test_sim_works_without_ray_and_says_how_to_get_it() -> None:
    """Ray is imported only for --ray; without the extra, --ray is a clear error in both
    languages and the rest of ``uno sim`` works."""
    script = textwrap.dedent("""
        import sys
        from unogame.cli import main
        argv = ["sim", "--players", "2", "--bots", "easy,random", "--games", "4",
                "--workers", "1", "--no-progress"]
        assert main(argv) == 0
        assert "ray" not in sys.modules, "uno sim imported ray"
        sys.modules["ray"] = None  # as if the [ray] extra were not installed
        sys.exit(main([*argv, "--ray"]))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0].startswith("uno sim: --ray needs Ray, which is not installed: "
                               "pip install 'unogame[ray]'")
    assert lines[1].startswith("uno sim: --ray ต้องใช้ Ray")
    assert "rounds/s" in done.stdout  # the first run's summary; nothing from the second
    assert done.stdout.count("rounds/s") == 1
