"""``uno sim`` rounds per second on the local pool and as Ray tasks, same tournament, one run.

    nice -n 10 python benchmarks/sim_ray.py --bots medium,medium,medium,medium --games 2000
    nice -n 10 python benchmarks/sim_ray.py --bots hard,medium,medium,medium --games 8

Needs the ``[ray]`` extra. A local Ray with ``--workers`` CPUs is started (its start-up is
timed apart), then the local pool (``--workers`` processes) and Ray play the tournament in
turn, ``--repeat`` times each, so that the machine's other work slows both alike; every
run must give the same results. Ray's figure is given without its start-up (which a long
run pays once) and with it; the last line is ``ray / local: X.XX x`` (without start-up).
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
    parser.add_argument("--repeat", type=int, default=2, help="runs of each, in turn")
    args = parser.parse_args()
    bots = tuple(args.bots.split(","))
    config = SimConfig(len(bots), bots, args.games, args.seed)
    print(f"bots {args.bots}, {args.games} rounds, seed {args.seed}, {args.workers} workers; "
          f"load average {os.getloadavg()[0]:.1f}")
    start = time.perf_counter()
    with ray_session(cpus=args.workers) as ray:
        startup_seconds = time.perf_counter() - start
        cpus = ray_cpus(ray)
        local_seconds = ray_seconds = 0.0
        for _ in range(args.repeat):
            start = time.perf_counter()
            local = run_rounds(config, args.workers)
            local_seconds += time.perf_counter() - start
            start = time.perf_counter()
            on_ray = run_rounds_on_ray(ray, config)
            ray_seconds += time.perf_counter() - start
            if on_ray != local:
                raise SystemExit("the results on Ray differ from the local pool's")
    rounds = args.games * args.repeat
    print(f"identical results; Ray: {cpus} CPUs, {chunk_size(args.games, cpus)} rounds a task; "
          f"{args.repeat} runs each, in turn")
    print(f"  local pool: {rounds / local_seconds:8.2f} rounds/s ({local_seconds:.1f} s)")
    print(f"         ray: {rounds / ray_seconds:8.2f} rounds/s ({ray_seconds:.1f} s; "
          f"start-up {startup_seconds:.1f} s more: "
          f"{rounds / (ray_seconds + startup_seconds):.2f} rounds/s with it)")
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"ray / local: {local_seconds / ray_seconds:.2f} x")


if __name__ == "__main__":
    main()
