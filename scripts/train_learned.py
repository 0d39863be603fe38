"""Make the ``learned`` bot's weights (src/unogame/bots/learned.npz): imitation of ``hard``,
then reinforcement-learning fine-tuning against ``medium``.

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

3. ``rl``: REINFORCE from ``--start`` (default: the shipped weights) in rounds of one
   ``learned`` seat, sampling from a softmax of its scores at ``--temperature``, among
   ``medium`` seats (2 and 4 players); reward 1 for a round won, a running baseline per
   player count, an entropy bonus and an L2 pull to the starting weights, Adam. Every
   ``--eval-every`` updates the greedy bot plays 2,000 held-out rounds each with 2 and 4
   players (seeds apart from 2026); the best is written to ``--out``.

    python scripts/train_learned.py rl --minutes 7 --batch 64 --eval-every 12 \
        --lr 3e-4 --temperature 0.7 --seed 2 --out artifacts/learned/rl_b.npz
    python scripts/train_learned.py rl --minutes 14 --batch 64 --eval-every 12 \
        --eval-rounds 2000 --start artifacts/learned/rl_b.npz --lr 3e-4 \
        --temperature 0.7 --seed 3 --out artifacts/learned/rl_c.npz

    python scripts/train_learned.py rl --minutes 62 --batch 64 --eval-every 12 \
        --eval-rounds 2000 --start artifacts/learned/rl_c.npz --lr 3e-4 \
        --temperature 0.7 --seed 4 --keep artifacts/learned/keep --out artifacts/learned/rl_d.npz
    python scripts/train_learned.py pick --rounds 10000 artifacts/learned/keep/update_420.npz ...

4. ``pick``: weights files (an ``rl --keep`` run's updates) played greedily on 10,000 more
   rounds each with 2 and 4 players (seeds 9,000,000 and 9,500,000), to choose among them.

The shipped weights are update 420 of the third run (stopped after 1,416 updates, 37 minutes
of its own; its best updates by the 2,000-round checks played again with ``pick``, the one
with the best sum and a 4-player rate not below the weights before): against ``medium`` with
seed 2026 over 10,000 rounds, 61.3% [60.4%, 62.3%] with 2 players and 29.7% [28.8%, 30.6%]
with 4 (log ``artifacts/learned/rl_3.log``). Before it, the second run's best (each run
beside another on the busy 2-core machine; logs ``artifacts/learned/rl_1.log``,
``rl_2.log``; chosen by the held-out rounds): against ``medium`` with seed 2026 over 10,000
rounds, 59.96% [59.0%, 60.9%] with 2 players and 30.5% [29.6%, 31.4%] with 4 (imitation
alone: 58.4% [57.5%, 59.4%] and 29.3% [28.5%, 30.2%]; after the first run 59.1% and 29.9%).
A fourth run from the shipped weights on 4-player rounds only (``rl --players 4 --batch 128
--lr 2e-4 --temperature 0.7 --eval-every 8 --seed 5``, 208 updates; log
``artifacts/learned/rl_4.log``) found nothing better: its 4-player checks stayed at
28.5-30.0% (29.95% at its start) while the 2-player rate fell to 57-59.7%.
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

from unogame.bots import Bot, MediumBot
from unogame.bots.base import play_next
from unogame.bots.ismcts import HardBot
from unogame.bots.knowledge import CardTracker
from unogame.bots.learned import (
    FEATURES,
    WEIGHTS,
    LearnedBot,
    ScoringNetwork,
    option_features,
)
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
    _play_among_medium(game, players, seed, hard_seat, RecordingHardBot(seed * 16 + hard_seat,
                                                                        sink))


def _play_among_medium(game: Game, players: int, seed: int, seat: int, bot: Bot) -> None:
    """``game`` played to its end (or 5,000 moves): ``bot`` at ``seat``, ``medium`` elsewhere."""
    bots = [bot if s == seat else MediumBot(seed * 16 + s) for s in range(players)]
    for s, each in enumerate(bots):
        each.new_round(s, game.view(s), game.rules)
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


def _group_softmax(scores: np.ndarray, group: np.ndarray, groups: int) -> np.ndarray:
    """Each row's softmax share among the rows of its group (``group``: each row's index)."""
    top = np.full(groups, -np.inf)
    np.maximum.at(top, group, scores)
    e = np.exp(scores - top[group])
    total = np.zeros(groups)
    np.add.at(total, group, e)
    return e / total[group]  # type: ignore[no-any-return]


def _batch_loss(params: list[np.ndarray], x: np.ndarray, group: np.ndarray, target: np.ndarray,
                groups: int, weight_decay: float) -> tuple[float, list[np.ndarray]]:
    """Softmax cross-entropy over each group's rows; ``target``: each row's target share."""
    scores, acts = _forward(params, x)
    p = _group_softmax(scores, group, groups)
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


class SamplingLearnedBot(LearnedBot):
    """``learned`` that samples its option from a softmax of the scores at ``temperature``
    (0: greedy) and keeps each decision's feature rows and chosen index."""

    def __init__(self, seed: int, network: ScoringNetwork, temperature: float,
                 sink: list[tuple[np.ndarray, int]]) -> None:
        super().__init__(seed, network=network)
        self.temperature = temperature
        self.sink = sink
        self.sampler = np.random.default_rng(seed)

    def search(self, view: dict[str, Any], template: Game, options: list[Move],
               prior: Move | None = None) -> Move:
        assert self.seat is not None
        rows = option_features(view, self.seat, self.tracker, options, prior)
        scores = self.network.scores(rows)
        if self.temperature <= 0:
            return options[int(np.argmax(scores))]
        z = (scores - scores.max()) / self.temperature
        p = np.exp(z)
        p /= p.sum()
        pick = int(self.sampler.choice(len(options), p=p))
        self.sink.append((rows, pick))
        return options[pick]


def _rl_round(seed: int, players: int, network: ScoringNetwork, temperature: float
              ) -> tuple[list[tuple[np.ndarray, int]], float]:
    """One round of a (sampling) learned seat among ``medium`` seats: its decisions, 1 if it
    won else 0."""
    rng = random.Random(seed)
    game = Game.new(players, seed=seed)
    seat = rng.randrange(players)
    sink: list[tuple[np.ndarray, int]] = []
    _play_among_medium(game, players, seed, seat,
                       SamplingLearnedBot(seed * 16 + seat, network, temperature, sink))
    return sink, float(game.winner == seat)


def _network(params: list[np.ndarray], mean: np.ndarray, std: np.ndarray) -> ScoringNetwork:
    arrays = {"mean": mean, "std": std}
    for i in range(len(params) // 2):
        arrays[f"w{i}"] = params[2 * i]
        arrays[f"b{i}"] = params[2 * i + 1]
    return ScoringNetwork(arrays)


def _evaluate(network: ScoringNetwork, players: int, rounds: int, first_seed: int) -> float:
    return sum(_rl_round(first_seed + r, players, network, 0.0)[1]
               for r in range(rounds)) / rounds


def _pg_grads(params: list[np.ndarray], x: np.ndarray, group: np.ndarray, chosen: np.ndarray,
              advantage: np.ndarray, groups: int, temperature: float, entropy: float,
              anchor: list[np.ndarray], kl: float) -> list[np.ndarray]:
    """Gradients (to descend) of -(advantage * log p(chosen)) - entropy * H, softmax at
    ``temperature`` over each group's rows (x normalised), plus an L2 pull to ``anchor``."""
    scores, acts = _forward(params, x)
    p = _group_softmax(scores / temperature, group, groups)
    onehot = np.zeros_like(p)
    onehot[chosen] = 1.0
    logp = np.log(p + 1e-12)
    ent_term = np.zeros(groups)
    np.add.at(ent_term, group, p * logp)  # -H per group
    # d(-H)/ds_i = p_i (log p_i + H)
    d_negent = p * (logp - ent_term[group])
    d = (-(onehot - p) * advantage[group] + entropy * d_negent) / (temperature * groups)
    grads: list[np.ndarray] = [np.empty(0)] * len(params)
    dx = d.reshape(-1, 1).astype(np.float32)
    layers = len(params) // 2
    for i in reversed(range(layers)):
        grads[2 * i] = acts[i].T @ dx + kl * (params[2 * i] - anchor[2 * i])
        grads[2 * i + 1] = dx.sum(axis=0) + kl * (params[2 * i + 1] - anchor[2 * i + 1])
        if i > 0:
            dx = (dx @ params[2 * i].T) * (acts[i] > 0)
    return grads


def rl(args: argparse.Namespace) -> None:
    """REINFORCE fine-tuning of the weights in ``--start`` against ``medium`` seats."""
    with np.load(args.start) as data:
        arrays = {name: data[name].astype(np.float32) for name in data.files}
    mean, std = arrays["mean"], arrays["std"]
    params = [arrays[f"{k}{i}"].copy() for i in range(len([n for n in arrays if n[0] == "w"]))
              for k in ("w", "b")]
    anchor = [p.copy() for p in params]
    adam = _Adam(params, args.lr)
    baseline = {players: 0.5 if players == 2 else 0.25 for players in args.players}
    rng = random.Random(args.seed)
    out = Path(args.out)

    def held_out() -> tuple[float, float]:
        net = _network(params, mean, std)
        return (_evaluate(net, 2, args.eval_rounds, args.eval_seed),
                _evaluate(net, 4, args.eval_rounds, args.eval_seed + 1_000_000))

    best_2p, best_4p = held_out()
    start_2p, start_4p = best_2p, best_4p
    print(f"start: held-out 2p {best_2p:.2%}, 4p {best_4p:.2%}", flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **arrays)
    deadline = time.time() + 60 * args.minutes
    seed = 100_000_000 * args.seed
    update = 0
    while time.time() < deadline:
        update += 1
        net = _network(params, mean, std)
        xs, groups_of, picks, advs = [], [], [], []
        wins = []
        offset = 0
        n = 0
        for _ in range(args.batch):
            seed += 1
            players = rng.choice(args.players)
            sink, reward = _rl_round(seed, players, net, args.temperature)
            wins.append(reward)
            adv = reward - baseline[players]
            baseline[players] += args.baseline_rate * (reward - baseline[players])
            for rows, pick in sink:
                xs.append((rows - mean) / std)
                groups_of.append(np.full(len(rows), n))
                picks.append(offset + pick)
                advs.append(adv)
                offset += len(rows)
                n += 1
        if n:
            grads = _pg_grads(params, np.concatenate(xs).astype(np.float32),
                              np.concatenate(groups_of), np.array(picks), np.array(advs),
                              n, args.temperature, args.entropy, anchor, args.kl)
            adam.step(grads)
        print(f"update {update}: {n} decisions, win rate {np.mean(wins):.2%}", flush=True)
        if update % args.eval_every == 0:
            rate_2p, rate_4p = held_out()
            better = rate_2p + rate_4p > best_2p + best_4p and rate_4p >= start_4p - 0.01
            print(f"  held-out 2p {rate_2p:.2%}, 4p {rate_4p:.2%}"
                  f"{' (best, saved)' if better else ''}", flush=True)
            saved = {"mean": mean, "std": std}
            for i in range(len(params) // 2):
                saved[f"w{i}"] = params[2 * i].astype(np.float32)
                saved[f"b{i}"] = params[2 * i + 1].astype(np.float32)
            if args.keep:  # every evaluated step, to be chosen among on more rounds
                Path(args.keep).mkdir(parents=True, exist_ok=True)
                np.savez_compressed(Path(args.keep) / f"update_{update}.npz", **saved)
            if better:
                best_2p, best_4p = rate_2p, rate_4p
                np.savez_compressed(out, **saved)
    print(f"best held-out 2p {best_2p:.2%}, 4p {best_4p:.2%} (start {start_2p:.2%}, "
          f"{start_4p:.2%}); weights in {out}")


def pick(args: argparse.Namespace) -> None:
    """Each weights file's greedy win rate against ``medium`` on ``--rounds`` rounds with 2
    and with 4 players (seeds apart from 2026 and from ``rl``'s checks), to choose among the
    updates an ``rl --keep`` run kept."""
    for path in args.weights:
        network = ScoringNetwork.load(path)
        rate_2p = _evaluate(network, 2, args.rounds, args.seed)
        rate_4p = _evaluate(network, 4, args.rounds, args.seed + 500_000)
        print(f"{path}: 2p {rate_2p:.2%}, 4p {rate_4p:.2%}", flush=True)


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
    tuning = sub.add_parser("rl", help="REINFORCE fine-tuning against medium seats")
    tuning.add_argument("--start", default=str(WEIGHTS))
    tuning.add_argument("--out", default="artifacts/learned/rl.npz")
    tuning.add_argument("--minutes", type=float, default=30)
    tuning.add_argument("--players", type=int, nargs="*", default=[2, 4])
    tuning.add_argument("--batch", type=int, default=64, help="rounds per update")
    tuning.add_argument("--temperature", type=float, default=1.0)
    tuning.add_argument("--lr", type=float, default=1e-4)
    tuning.add_argument("--entropy", type=float, default=0.01)
    tuning.add_argument("--kl", type=float, default=1e-3,
                        help="L2 pull of the weights to the starting ones")
    tuning.add_argument("--baseline-rate", type=float, default=0.01)
    tuning.add_argument("--eval-every", type=int, default=10)
    tuning.add_argument("--eval-rounds", type=int, default=2000)
    tuning.add_argument("--eval-seed", type=int, default=7_000_000)
    tuning.add_argument("--seed", type=int, default=1)
    tuning.add_argument("--keep", help="a folder: the weights of every evaluated update")
    choosing = sub.add_parser("pick", help="weights files played on more rounds")
    choosing.add_argument("weights", nargs="+")
    choosing.add_argument("--rounds", type=int, default=10_000)
    choosing.add_argument("--seed", type=int, default=9_000_000)
    args = parser.parse_args()
    {"generate": generate, "fit": fit, "rl": rl, "pick": pick}[args.command](args)


if __name__ == "__main__":
    main()
