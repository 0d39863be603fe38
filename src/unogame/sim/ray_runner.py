"""Playing a run's rounds as Ray tasks: a local Ray, or a Ray cluster by its address.

The rounds are the local pool's (:func:`~unogame.sim.runner.play_one` with the same per-round
seeds), cut into chunks of consecutive rounds, one Ray task each, so that a task plays for
long enough that Ray's per-task cost does not count. The results are put back in round
order, so a seed gives exactly the local pool's results.

Ray is an optional extra (``pip install 'unogame[ray]'``) and is imported only here, when a
run asks for it. A local Ray listens on the loopback interface only, keeps its session files
in a temporary folder of its own (removed afterwards), sends no usage statistics, starts no
dashboard, and is shut down when the run ends, however it ends.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import secrets
import shutil
import signal
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .runner import BotError, RoundResult, SimConfig, play_chunk

LOCAL = ""
"""The address that means: start a Ray of our own on this machine."""

MAX_CHUNK = 200
"""Rounds per task at most; a medium round takes milliseconds, so a task takes about a
second at this size, against Ray's fraction of a millisecond per task."""

TASKS_PER_CPU = 16
"""Chunks are cut so that each CPU gets about this many (a finer progress bar, and no CPU
left idle at the end while another plays a long chunk)."""

ABANDON_SECONDS = 10.0
"""How long chunks cancelled after a failure are waited for."""

START_ATTEMPTS = 3
"""Tries to start a local Ray before giving up."""


class RayUnavailableError(RuntimeError):
    """``--ray`` was asked for but Ray is not installed (the ``[ray]`` extra)."""


class RayRunError(RuntimeError):
    """Ray could not be started or reached, or lost a task (not a bot's failure)."""


def chunk_size(total: int, cpus: int) -> int:
    """Rounds per Ray task for ``total`` rounds on ``cpus`` CPUs.

    >>> chunk_size(20_000, 2), chunk_size(60, 2), chunk_size(1, 8)
    (200, 2, 1)
    """
    return max(1, min(MAX_CHUNK, math.ceil(total / (max(1, cpus) * TASKS_PER_CPU))))


def import_ray() -> Any:
    """The ``ray`` module, or :class:`RayUnavailableError` if it is not installed."""
    try:
        import ray
    except ImportError as error:
        raise RayUnavailableError(str(error)) from None
    return ray


def _set_local_ray_environment() -> None:
    """Settings for a local Ray, made before ``ray`` is imported, for the rest of the process
    (Ray reads some of them once; a setting made by the user stays).

    Loopback only (Ray otherwise binds the address it would use to reach the internet),
    usage statistics off, a token of this process's own (so Ray writes none under
    ``~/.ray``), and a longer wait for Ray's own agents to start on a loaded machine.
    """
    settings = {
        "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": secrets.token_hex(32),
        "RAY_agent_register_timeout_ms": "120000",
    }
    for name, value in settings.items():
        os.environ.setdefault(name, value)


@contextmanager
def ray_session(address: str = LOCAL, cpus: int | None = None) -> Iterator[Any]:
    """A connected Ray (the ``ray`` module): our own local one when ``address`` is empty,
    else the cluster at ``address``; shut down (and its files removed) on the way out.

    ``cpus`` is the local Ray's CPU count (default: every core); a cluster has its own.
    """
    if address == LOCAL:
        temp_dir = tempfile.mkdtemp(prefix="uno-ray-")
        try:
            _set_local_ray_environment()
            ray = import_ray()
            for attempt in range(1, START_ATTEMPTS + 1):
                before = descendants()
                try:
                    ray.init(address="local", num_cpus=cpus or os.cpu_count() or 1,
                             include_dashboard=False, _temp_dir=temp_dir,
                             object_store_memory=100 * 1024 * 1024,
                             logging_level=logging.WARNING, log_to_driver=False)
                    break
                except Exception as error:
                    # Ray gives its processes 30 s to come up, which a busy machine can
                    # miss; a second start finds their files in the page cache.
                    ray.shutdown()
                    end_processes(descendants() - before)  # a failed start leaves them
                    if attempt == START_ATTEMPTS:
                        raise RayRunError(f"cannot start a local Ray: {error}") from error
            try:
                yield ray
            finally:
                ray.shutdown()
        finally:
            shutil.rmtree(temp_dir, ignore_errors=True)
    else:
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        ray = import_ray()
        try:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
        except Exception as error:
            ray.shutdown()
            raise RayRunError(f"cannot connect to Ray at {address}: {error}") from error
        try:
            yield ray
        finally:
            ray.shutdown()


def descendants() -> set[int]:
    """The processes this one started, directly or not (empty where there is no /proc)."""
    parents: dict[int, int] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return set()
    for entry in entries:
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def end_processes(pids: set[int]) -> None:
    """Stop the given processes of ours (those of a Ray that failed to start): TERM, then KILL
    what is still there after a few seconds."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, sig)
        deadline = time.monotonic() + 5.0
        while (pids := pids & descendants()) and time.monotonic() < deadline:
            time.sleep(0.1)
        if not pids:
            return


def ray_cpus(ray: Any) -> int:
    """The CPUs of the connected Ray cluster."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def run_rounds_on_ray(ray: Any, config: SimConfig, timed: bool = False,
                      progress: Callable[[int, int], None] | None = None,
                      chunk: int | None = None) -> list[RoundResult]:
    """Play ``config.games`` rounds as Ray tasks on the connected ``ray``; the same results,
    in round order, as :func:`~unogame.sim.runner.run_rounds`.

    At most a few chunks per CPU are in flight at a time (the rest wait here, not in Ray's
    queue), and ``progress(done, total)`` is called as chunks come back. A bot's failure in
    a task is raised here as the same :class:`~unogame.sim.runner.BotError`.
    """
    total = config.games
    cpus = ray_cpus(ray)
    size = chunk or chunk_size(total, cpus)
    jobs = [(config, start, min(total, start + size), timed) for start in range(0, total, size)]
    task = ray.remote(num_cpus=1, max_retries=0)(play_chunk)
    window = 4 * cpus
    pending: list[Any] = []
    results: list[RoundResult] = []
    next_job = 0
    try:
        while next_job < len(jobs) or pending:
            while next_job < len(jobs) and len(pending) < window:
                pending.append(task.remote(jobs[next_job]))
                next_job += 1
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                results.extend(_get(ray, ref))
            if progress is not None:
                progress(len(results), total)
    finally:
        _abandon(ray, pending)
    results.sort(key=lambda result: result.index)
    return results


def _abandon(ray: Any, pending: list[Any]) -> None:
    """Cancel the chunks still in flight after a failure (or Ctrl-C) and collect what they
    left, so that Ray reports no "unhandled error" of a chunk nobody waits for."""
    if not pending:
        return
    for ref in pending:
        ray.cancel(ref)
    finished, _ = ray.wait(pending, num_returns=len(pending), timeout=ABANDON_SECONDS)
    for ref in finished:
        with contextlib.suppress(Exception):
            ray.get(ref)


def _get(ray: Any, ref: Any) -> list[RoundResult]:
    try:
        part: list[RoundResult] = ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        cause = getattr(error, "cause", None)
        if isinstance(cause, BotError):
            raise BotError(str(cause)) from None
        raise RayRunError(f"a Ray task failed: {cause or error}") from error
    except ray.exceptions.RayError as error:
        raise RayRunError(f"Ray lost a task: {error}") from error
    return part
