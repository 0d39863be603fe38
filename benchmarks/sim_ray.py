"""``uno sim`` rounds per second on the local pool and as Ray tasks, same tournament, one run.

    nice -n 10 python benchmarks/sim_ray.py --bots medium,medium,medium,medium --games 2000
    nice -n 10 python benchmarks/sim_ray.py --bots hard,medium,medium,medium --games 8

Needs the ``[ray]`` extra. The local pool (``--workers`` processes) plays the tournament,
then a local Ray with as many CPUs plays it again; the two must give the same results. Ray's
figure is given without its start-up (which a long run pays once) and with it; the last
line is ``ray / local: X.XX x`` (without start-up). The machine's load average is printed:
other work on it slows both alike only if it stays the same over the run.
"""

from __future__ import annotations

import argparse
import os
import time

from unogame.sim.ray_runner import chunk_size, ray_cpus, ray_session, run_rounds_on_ray
from unogame.sim.runner import SimConfig, run_rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bots", default="medium,medium,medium,medium")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="local processes, and the local Ray's CPUs")
    args = parser.parse_args()
    bots = tuple(args.bots.split(","))
    config = SimConfig(len(bots), bots, args.games, args.seed)
    print(f"bots {args.bots}, {args.games} rounds, seed {args.seed}, {args.workers} workers; "
          f"load average {os.getloadavg()[0]:.1f}")
    start = time.perf_counter()
    local = run_rounds(config, args.workers)
    local_seconds = time.perf_counter() - start
    start = time.perf_counter()
    with ray_session(cpus=args.workers) as ray:
        started = time.perf_counter()
        cpus = ray_cpus(ray)
        on_ray = run_rounds_on_ray(ray, config)
        ray_seconds = time.perf_counter() - started
    startup_seconds = started - start
    if on_ray != local:
        raise SystemExit("the results on Ray differ from the local pool's")
    print(f"identical results; Ray: {cpus} CPUs, {chunk_size(args.games, cpus)} rounds a task")
    print(f"  local pool: {args.games / local_seconds:8.2f} rounds/s ({local_seconds:.1f} s)")
    print(f"         ray: {args.games / ray_seconds:8.2f} rounds/s ({ray_seconds:.1f} s; "
          f"start-up {startup_seconds:.1f} s more: "
          f"{args.games / (ray_seconds + startup_seconds):.2f} rounds/s with it)")
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"ray / local: {local_seconds / ray_seconds:.2f} x")


if __name__ == "__main__":
    main()
