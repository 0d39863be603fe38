"""Make the ``learned`` bot's weights (src/unogame/bots/learned.npz): imitation of ``hard``.

Two steps, each resumable, numpy only (no torch):

1. ``generate``: rounds with one ``hard`` seat among ``medium`` seats (2 to 10 players,
   mostly 2 and 4), one process per worker; every decision ``hard`` searches is kept raw
   (the view, the card tracker's fields, the options, ``medium``'s choice, ``hard``'s
   choice, the search's visits and rewards by option). Shards go to ``--data`` as they
   fill, so the run may be stopped.
2. ``fit``: the options' feature rows (:func:`unogame.bots.learned.option_features`), a
   per-move MLP with a softmax over each decision's options, trained by Adam on
   cross-entropy to a target that is half ``hard``'s choice and half a softmax of the
   search's mean rewards (``--tau``); the weights with the best held-out agreement with
   ``hard`` are written to ``--out``.

    python scripts/train_learned.py generate --minutes 35 --workers 2 --seed 1
    python scripts/train_learned.py generate --minutes 30 --workers 1 --seed 2
    python scripts/train_learned.py fit

The shipped weights came from exactly these commands on a shared, busy 2-core machine
(26,199 decisions from 65 minutes of rounds; the fit 40 epochs, 3.5 minutes). Rounds are
seeded, but ``generate`` stops on the clock, so a faster or idler machine records more of
them (the same ones first); another ``--seed`` plays other rounds, to add to the data.
"""

from __future__ import annotations

import argparse
import copy
import gzip
import itertools
import multiprocessing
import pickle
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from unogame.bots import MediumBot
from unogame.bots.base import play_next
from unogame.bots.ismcts import HardBot
from unogame.bots.knowledge import CardTracker
from unogame.bots.learned import FEATURES, WEIGHTS, option_features
from unogame.engine import Game, Move

PLAYERS = (2, 2, 2, 2, 3, 4, 4, 4, 5, 6, 8, 10)
"""Player counts drawn for each round (2 and 4 most)."""


Record = tuple[dict[str, Any], int, dict[str, Any], list[int], int, int, list[int], list[float]]
"""One searched decision: the view, the seat, the card tracker's fields, the option codes,
``medium``'s choice (code, -1: none), the option ``hard`` chose, and its search's visits
and summed rewards by option (kept raw, so the features can change without new data)."""


class RecordingHardBot(HardBot):
    """``hard``, keeping each searched decision as a :data:`Record`."""

    def __init__(self, seed: int, sink: list[Record]) -> None:
        super().__init__(seed)
        self.sink = sink
        self.outcome: tuple[int, list[int], list[float]] | None = None

    def _core_search(self, *args: Any) -> tuple[int, list[int], list[float]] | None:
        self.outcome = super()._core_search(*args)
        return self.outcome

    def search(self, view: dict[str, Any], template: Game, options: list[Move],
               prior: Move | None = None) -> Move:
        self.outcome = None
        chosen = super().search(view, template, options, prior)
        assert self.seat is not None
        visits, rewards = ([], []) if self.outcome is None else self.outcome[1:]
        tracker = self.tracker
        state = {"known": copy.deepcopy(tracker.known),
                 "allowance": copy.deepcopy(tracker.allowance),
                 "named": list(tracker.named), "drawn": tracker.drawn}
        self.sink.append((copy.deepcopy(view), self.seat, state,
                          [move.code for move in options],
                          -1 if prior is None else prior.code, options.index(chosen),
                          list(visits), list(rewards)))
        return chosen


def tracker_from(seat: int, players: int, state: dict[str, Any]) -> CardTracker:
    tracker = CardTracker(seat, players)
    tracker.known = state["known"]
    tracker.allowance = state["allowance"]
    tracker.named = state["named"]
    tracker.drawn = state["drawn"]
    return tracker


def _play_round(seed: int, sink: list[Record]) -> None:
    rng = random.Random(seed)
    players = rng.choice(PLAYERS)
    game = Game.new(players, seed=seed)
    hard_seat = rng.randrange(players)
    bots = [RecordingHardBot(seed * 16 + s, sink) if s == hard_seat else MediumBot(seed * 16 + s)
            for s in range(players)]
    for seat, bot in enumerate(bots):
        bot.new_round(seat, game.view(seat), game.rules)
    moves = 0
    while game.winner is None and moves < 5000:
        if play_next(game, bots) is None:
            break
        moves += 1


def _save(path: Path, sink: list[Record]) -> None:
    with gzip.open(path, "wb") as out:
        pickle.dump(sink, out)


def _generate_worker(worker: int, workers: int, data: Path, deadline: float,
                     first_seed: int) -> None:
    sink: list[Record] = []
    shard = 0
    seed = 1 + (first_seed - 1) * 10_000_000 + worker  # runs with other seeds: other rounds
    while time.time() < deadline:
        _play_round(seed, sink)
        seed += workers
        if len(sink) >= 1000:
            _save(data / f"w{worker}_s{first_seed}_{shard}.pkl.gz", sink)
            shard += 1
            sink = []
    if sink:
        _save(data / f"w{worker}_s{first_seed}_{shard}.pkl.gz", sink)


def generate(args: argparse.Namespace) -> None:
    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    deadline = time.time() + 60 * args.minutes
    procs = [multiprocessing.Process(target=_generate_worker,
                                     args=(w, args.workers, data, deadline, args.seed))
             for w in range(args.workers)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join()
    print(f"{len(_records(data))} decisions in {data}")


def _records(data: Path) -> list[Record]:
    records: list[Record] = []
    for path in sorted(data.glob("*.pkl.gz")):
        with gzip.open(path, "rb") as part:
            records += pickle.load(part)
    return records


def _load(data: Path, tau: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The feature rows of every decision, the decisions' sizes, ``hard``'s choices and the
    target of each row: 1 on the choice (``tau`` 0), else a softmax of the search's mean
    rewards at temperature ``tau``."""
    rows, sizes, chosen, targets = [], [], [], []
    for view, seat, state, codes, prior, pick, visits, rewards in _records(data):
        tracker = tracker_from(seat, len(view["hands"]), state)
        options = [Move.from_code(code) for code in codes]
        rows.append(option_features(view, seat, tracker, options,
                                    None if prior < 0 else Move.from_code(prior)))
        sizes.append(len(codes))
        chosen.append(pick)
        target = np.zeros(len(codes))
        target[pick] = 1.0
        if tau > 0 and visits and min(visits) > 0:
            means = np.array(rewards) / np.array(visits)
            soft = np.exp((means - means.max()) / tau)
            target = 0.5 * target + 0.5 * soft / soft.sum()
        targets.append(target)
    return (np.concatenate(rows), np.array(sizes, dtype=np.int64),
            np.array(chosen, dtype=np.int64), np.concatenate(targets))


class _Adam:
    def __init__(self, params: list[np.ndarray], lr: float) -> None:
        self.params = params
        self.lr = lr
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            mh = m / (1 - 0.9 ** self.t)
            vh = v / (1 - 0.999 ** self.t)
            p -= self.lr * mh / (np.sqrt(vh) + 1e-8)


def _forward(params: list[np.ndarray], x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    acts = [x]
    layers = len(params) // 2
    for i in range(layers):
        x = x @ params[2 * i] + params[2 * i + 1]
        if i < layers - 1:
            x = np.maximum(x, 0)
        acts.append(x)
    return x.reshape(-1), acts


def _batch_loss(params: list[np.ndarray], x: np.ndarray, group: np.ndarray, target: np.ndarray,
                groups: int, weight_decay: float) -> tuple[float, list[np.ndarray]]:
    """Softmax cross-entropy over each group's rows; ``target``: each row's target share."""
    scores, acts = _forward(params, x)
    top = np.full(groups, -np.inf)
    np.maximum.at(top, group, scores)
    e = np.exp(scores - top[group])
    total = np.zeros(groups)
    np.add.at(total, group, e)
    p = e / total[group]
    loss = float(-(target * np.log(p + 1e-12)).sum() / groups)
    d = (p - target) / groups
    grads: list[np.ndarray] = [np.empty(0)] * len(params)
    dx = d.reshape(-1, 1).astype(np.float32)
    layers = len(params) // 2
    for i in reversed(range(layers)):
        grads[2 * i] = acts[i].T @ dx + weight_decay * params[2 * i]
        grads[2 * i + 1] = dx.sum(axis=0)
        if i > 0:
            dx = (dx @ params[2 * i].T) * (acts[i] > 0)
    return loss, grads


def _accuracy(params: list[np.ndarray], x: np.ndarray, starts: np.ndarray, sizes: np.ndarray,
              chosen: np.ndarray) -> float:
    scores, _ = _forward(params, x)
    right = 0
    for start, size, pick in zip(starts, sizes, chosen, strict=True):
        right += int(np.argmax(scores[start:start + size]) == pick)
    return right / len(sizes)


def fit(args: argparse.Namespace) -> None:
    rows, sizes, chosen, targets = _load(Path(args.data), args.tau)
    if rows.shape[1] != FEATURES:
        raise SystemExit(f"the data has {rows.shape[1]} features, the bot {FEATURES}")
    rng = np.random.default_rng(args.seed)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    decisions = len(sizes)
    order = rng.permutation(decisions)
    held = order[: decisions // 10]
    train = order[decisions // 10:]
    mean = rows.mean(axis=0)
    std = rows.std(axis=0) + 1e-3
    x_all = ((rows - mean) / std).astype(np.float32)

    def gather(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        index = np.concatenate([np.arange(starts[i], starts[i] + sizes[i]) for i in ids])
        group = np.repeat(np.arange(len(ids)), sizes[ids])
        first = np.concatenate([[0], np.cumsum(sizes[ids])[:-1]])
        return x_all[index], group, index, first

    hx, _, _, hfirst = gather(held)
    widths = [FEATURES, *args.hidden, 1]
    params: list[np.ndarray] = []
    for a, b in itertools.pairwise(widths):
        params.append((rng.standard_normal((a, b)) * np.sqrt(2 / a)).astype(np.float32))
        params.append(np.zeros(b, dtype=np.float32))
    adam = _Adam(params, args.lr)
    agree = float(np.mean(
        [rows[starts[i] + chosen[i], FEATURES - 2] for i in held]))
    print(f"{decisions} decisions, {len(rows)} rows; hard = medium's choice in {agree:.1%}")
    best = (-1.0, [p.copy() for p in params])
    deadline = time.time() + 60 * args.minutes
    epoch = 0
    while epoch < args.epochs and time.time() < deadline:
        epoch += 1
        rng.shuffle(train)
        losses = []
        for b in range(0, len(train), args.batch):
            ids = train[b:b + args.batch]
            x, group, index, _ = gather(ids)
            loss, grads = _batch_loss(params, x, group, targets[index], len(ids),
                                      args.weight_decay)
            adam.step(grads)
            losses.append(loss)
        adam.lr *= args.decay
        acc = _accuracy(params, hx, hfirst, sizes[held], chosen[held])
        print(f"epoch {epoch}: loss {np.mean(losses):.4f}, held-out accuracy {acc:.2%}",
              flush=True)
        if acc > best[0]:
            best = (acc, [p.copy() for p in params])
    arrays = {"mean": mean.astype(np.float32), "std": std.astype(np.float32)}
    for i in range(len(best[1]) // 2):
        arrays[f"w{i}"] = best[1][2 * i].astype(np.float32)
        arrays[f"b{i}"] = best[1][2 * i + 1].astype(np.float32)
    np.savez_compressed(args.out, **arrays)
    print(f"best held-out accuracy {best[0]:.2%}; weights in {args.out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="hard's decisions as training data")
    gen.add_argument("--data", default="artifacts/learned/data")
    gen.add_argument("--minutes", type=float, default=35)
    gen.add_argument("--workers", type=int, default=2)
    gen.add_argument("--seed", type=int, default=1)
    fitting = sub.add_parser("fit", help="train the network on the data")
    fitting.add_argument("--data", default="artifacts/learned/data")
    fitting.add_argument("--out", default=str(WEIGHTS))
    fitting.add_argument("--minutes", type=float, default=15)
    fitting.add_argument("--epochs", type=int, default=40)
    fitting.add_argument("--hidden", type=int, nargs="*", default=[128, 128])
    fitting.add_argument("--batch", type=int, default=256)
    fitting.add_argument("--lr", type=float, default=2e-3)
    fitting.add_argument("--decay", type=float, default=0.95)
    fitting.add_argument("--weight-decay", type=float, default=1e-4)
    fitting.add_argument("--tau", type=float, default=0.05,
                         help="0: learn hard's choice; else half of each target from a "
                              "softmax of the search's mean rewards at this temperature")
    fitting.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    (generate if args.command == "generate" else fit)(args)


if __name__ == "__main__":
    main()
