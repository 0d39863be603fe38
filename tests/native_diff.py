"""The differential driver: the engine (the reference) and the compiled core play the same
random games side by side; every difference is an assertion error naming the move.

Random games: 2-10 players, a random mix of house rules and Wild Customizable rules (the
presets, and in about one game in five a random composed rule, which the core does not
play: such a game must fall back to the engine, and the driver checks that it does),
starting from ``Game.new`` or from a random NOTATION position; moves chosen at random among
every seat's legal moves (mostly the player to act's, plays preferred to draws so rounds
end), rounds dealt on until the match is over.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from unogame.engine import CUSTOM_RULES, Game, PositionError, Rules
from unogame.engine.cards import CARD_CODE, WILD_DRAW_FOUR, full_deck
from unogame.engine.custom import ALLOWED_WHO, COUNT_RANGE, WHAT, CustomRule, CustomRuleError, Step
from unogame.engine.moves import DRAW, PASS
from unogame.native import new_game, supports
from unogame.native.game import NativeGame


def composed_rule(rng: random.Random, players: int, two_player_reverse_skips: bool,
                  most: int = 3) -> CustomRule:
    """A random rule a family could write: up to four steps, each kept if the rule stays
    valid; ``most``: the largest count a step takes."""
    steps: list[Step] = []
    for _ in range(rng.randint(0, 4)):
        what = rng.choice(WHAT)
        low, high = COUNT_RANGE.get(what, (1, 1))
        step = Step(rng.choice(ALLOWED_WHO[what]), what, rng.randint(low, min(high, most)))
        try:
            CustomRule((*steps, step), "x").check()
            CustomRule((*steps, step), "x").check_players(players, two_player_reverse_skips)
        except CustomRuleError:
            continue
        steps.append(step)
    return CustomRule(tuple(steps), "Random", "" if steps else "everyone claps")


def random_rules(rng: random.Random, players: int) -> Rules:
    most = min(20, (111 // players))
    return Rules(
        hand_size=rng.choice([7, 7, 7, rng.randint(1, most)]),
        target_score=rng.choice([500, 150, 60]),
        must_play_drawn=rng.random() < 0.3,
        stacking=rng.random() < 0.4,
        challenge=rng.random() < 0.7,
        uno_penalty=rng.choice([2, 2, 0, 1, 4]),
        two_player_reverse_skips=rng.random() < 0.8,
        custom_rule=rng.choice(list(CUSTOM_RULES)),
        custom_count=rng.choice([2, 2, 1, 3, 5]),
        seven_zero=rng.random() < 0.3,
        jump_in=rng.random() < 0.3,
        draw_until_playable=rng.random() < 0.25,
    )


def random_rules_or_composed(rng: random.Random, players: int) -> Rules:
    """:func:`random_rules`, with a random composed rule in about one game in five."""
    rules = random_rules(rng, players)
    if rng.random() < 0.2:
        rule = composed_rule(rng, players, rules.two_player_reverse_skips)
        rules = Rules.from_dict({**rules.to_dict(), "custom_rule": rule.to_dict()})
    return rules


def check_fallback(players: int, rules: Rules, seed: int) -> None:
    """A rule set the core cannot play: ``new_game`` gives the engine's game, the core refuses."""
    assert not supports(rules), f"seed {seed}: the core claims a composed rule"
    game = new_game(players, rules, seed)
    assert type(game) is Game, f"seed {seed}: a composed rule did not fall back"
    assert game.position() == Game.new(players, rules, seed).position()
    try:
        NativeGame.new(players, rules, seed)
    except ValueError:
        return
    raise AssertionError(f"seed {seed}: NativeGame.new played a composed rule")


def random_position(rng: random.Random, players: int, rules: Rules) -> dict[str, Any]:
    """A random position of NOTATION (may be refused by the engine: then try again)."""
    deck = full_deck()
    rng.shuffle(deck)
    deck = deck[: rng.randint(players + 2, len(deck))]
    hands = []
    for _ in range(players):
        size = rng.choice([1, 1, 2, 2, 3, rng.randint(1, 12)])
        hands.append([CARD_CODE[deck.pop()] for _ in range(min(size, len(deck) - 1))])
    discard_size = rng.choice([1, 1, 2, rng.randint(0, max(0, len(deck)))])
    discard = [CARD_CODE[deck.pop()] for _ in range(min(discard_size, len(deck)))]
    draw = [CARD_CODE[card] for card in deck]
    turn = rng.randrange(players)
    top = discard[0] if discard else None
    color = rng.choice("RYGB")
    if top is not None and top[0] in "RYGB" and not top.startswith("W"):
        color = top[0]
    position: dict[str, Any] = {
        "players": players, "hands": hands, "draw_pile": draw, "discard_pile": discard,
        "color": color, "direction": rng.choice([1, -1]), "turn": turn,
        "scores": [rng.choice([score for score in (0, 0, 30, 120)  # below the target (D25)
                               if score < rules.target_score]) for _ in range(players)],
    }
    roll = rng.random()
    if roll < 0.1 and top is not None and (top == "W+4" or top.endswith("+2")):
        position["pending"] = {"kind": "stack", "amount": rng.choice([2, 4, 6])}
    elif roll < 0.2 and top == "W+4":
        by = (turn - position["direction"]) % players
        if by != turn:
            position["pending"] = {"kind": "challenge", "by": by, "color": rng.choice("RYGB")}
    elif roll < 0.3 and top is not None and top.startswith("W"):
        position["pending"] = {"kind": "color"}
        position["color"] = None
    elif roll < 0.4 and hands[turn]:
        position["pending"] = {"kind": "drawn", "card": rng.choice(hands[turn])}
    singles = [seat for seat, hand in enumerate(hands) if len(hand) == 1]
    rng.shuffle(singles)
    position["uno"] = [seat for seat in singles if rng.random() < 0.4]
    position["catchable"] = [seat for seat in singles if seat not in position["uno"]
                             and rng.random() < 0.6]
    return position


def choose(rng: random.Random, game: Game, legal: dict[int, list[Any]]) -> tuple[int, Any]:
    """A random seat and move: mostly the player to act, plays before draws."""
    turn = game.turn
    others = [seat for seat, moves in legal.items() if moves and seat != turn]
    off_turn = bool(others) and (not legal[turn] or rng.random() < 0.15)
    seat = rng.choice(others) if off_turn else turn
    moves = legal[seat]
    plays = [move for move in moves if move.kind == 0]
    if plays and rng.random() < 0.8:
        return seat, rng.choice(plays)
    return seat, rng.choice(moves)


def check_same(reference: Game, native: NativeGame, where: str) -> dict[int, list[Any]]:
    """Positions and every seat's legal moves agree; returns the legal moves by seat."""
    assert native.position() == reference.position(), f"{where}: positions differ"
    legal = {}
    for seat in range(reference.players):
        moves = reference.legal_moves(seat)
        assert native.legal_moves(seat) == moves, f"{where}: legal moves of seat {seat} differ"
        legal[seat] = moves
    seat = reference.turn
    assert native.view(seat) == reference.view(seat), f"{where}: views differ"
    return legal


def play_game(seed: int, max_moves: int) -> int | None:
    """One random game (rounds until the match is over or ``max_moves``); moves made, or
    ``None`` for a composed rule (checked to fall back to the engine)."""
    rng = random.Random(seed)
    players = rng.randint(2, 10)
    rules = random_rules_or_composed(rng, players)
    if isinstance(rules.custom_rule, CustomRule):
        check_fallback(players, rules, seed)
        return None
    reference: Game
    if rng.random() < 0.5:
        reference = Game.new(players, rules, seed)
        native = NativeGame.new(players, rules, seed)
        assert native.start_events() == reference.start_events(), f"seed {seed}: start"
    else:
        while True:
            position = random_position(rng, players, rules)
            try:
                reference = Game.from_position(position, rules, seed)
            except PositionError:
                continue
            native = NativeGame.from_position(position, rules, seed)
            break
    made = 0
    while made < max_moves:
        where = f"game seed {seed}, move {made}"
        legal = check_same(reference, native, where)
        if reference.winner is not None:
            if reference.game_winner is not None:
                break
            assert native.next_round() == reference.next_round(), f"{where}: deal events"
            continue
        seat, move = choose(rng, reference, legal)
        events = reference.push(seat, move)
        assert native.push(seat, move) == events, f"{where}: events of {seat} {move} differ"
        made += 1
    return made


# ---------------------------------------------------------------- drawn Wild Draw Fours

def drawn_wild_draw_four_rules(rng: random.Random, players: int) -> Rules:
    """:func:`random_rules` with ``must_play_drawn``, ``draw_until_playable`` or both on."""
    which = rng.choice(["must_play_drawn", "draw_until_playable", "both"])
    return replace(random_rules(rng, players),
                   must_play_drawn=which != "draw_until_playable",
                   draw_until_playable=which != "must_play_drawn")


def stacked_with_wild_draw_fours(rng: random.Random, position: dict[str, Any]) -> None:
    """Put every Wild Draw Four the position does not hold into the top of its draw pile
    (the deck has four), so that a draw soon meets one."""
    held = sum(cards.count("W+4") for cards in (*position["hands"], position["discard_pile"]))
    pile = [code for code in position["draw_pile"] if code != "W+4"]
    for _ in range(4 - held):
        pile.insert(rng.randint(0, min(4, len(pile))), "W+4")
    position["draw_pile"] = pile


def holds_color(game: Game, seat: int) -> bool:
    color = game.color
    return color is not None and any(code[0] == color for code in game.hands[seat]
                                     if not code.startswith("W"))


def play_drawn_wild_draw_four_game(seed: int, max_moves: int, counts: dict[str, int]) -> int:
    """One random game under ``must_play_drawn`` / ``draw_until_playable`` from a random
    position whose draw pile is stacked with Wild Draw Fours, drawing and passing often;
    ``counts`` adds up the forbidden Wild Draw Fours (colour to match held, R5.4) drawn,
    passed and drawn on past."""
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    rules = drawn_wild_draw_four_rules(rng, players)
    while True:
        position = random_position(rng, players, rules)
        stacked_with_wild_draw_fours(rng, position)
        try:
            reference = Game.from_position(position, rules, seed)
        except PositionError:
            continue
        native = NativeGame.from_position(position, rules, seed)
        break
    made = 0
    while made < max_moves:
        where = f"drawn W+4 game seed {seed}, move {made}"
        legal = check_same(reference, native, where)
        if reference.winner is not None:
            if reference.game_winner is not None:
                break
            assert native.next_round() == reference.next_round(), f"{where}: deal events"
            continue
        turn = reference.turn
        quiet = [m for m in legal[turn] if m.kind in (DRAW, PASS)]
        if quiet and rng.random() < 0.6:
            seat, move = turn, rng.choice(quiet)
        else:
            seat, move = choose(rng, reference, legal)
        pending = reference.pending
        forbidden = seat == turn and holds_color(reference, seat)
        events = reference.push(seat, move)
        assert native.push(seat, move) == events, f"{where}: events of {seat} {move} differ"
        made += 1
        if not forbidden:
            continue
        if move.kind == DRAW and pending is None:
            drawn = next(event.private[seat]["cards"] for event in events
                         if event.type == "draw")
            counts["drawn"] += drawn.count("W+4")
            counts["drawn_on_past"] += drawn[:-1].count("W+4")
        elif (move.kind == PASS and pending is not None and pending.card == WILD_DRAW_FOUR
              and rules.must_play_drawn):
            counts["passed"] += 1
    return made


def run_drawn_wild_draw_fours(total_moves: int, first_seed: int = 0,
                              per_game: int = 150) -> tuple[int, int, dict[str, int]]:
    """:func:`play_drawn_wild_draw_four_game` until ``total_moves`` moves were compared;
    (games, moves, counts)."""
    counts = {"drawn": 0, "passed": 0, "drawn_on_past": 0}
    moves = games = 0
    while moves < total_moves:
        moves += play_drawn_wild_draw_four_game(first_seed + games,
                                                min(per_game, total_moves - moves), counts)
        games += 1
    return games, moves, counts


def run(total_moves: int, first_seed: int = 0,
        per_game: int = 400) -> tuple[int, int, int]:
    """Random games until ``total_moves`` moves were compared; (games compared, moves,
    games with a composed rule checked to fall back)."""
    moves = games = fallbacks = 0
    while moves < total_moves:
        made = play_game(first_seed + games + fallbacks, min(per_game, total_moves - moves))
        if made is None:
            fallbacks += 1
        else:
            moves += made
            games += 1
    return games, moves, fallbacks
