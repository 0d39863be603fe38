/* Playout policies inside the core: a playout never returns to Python until it ends. */
#ifndef UNO_POLICY_H
#define UNO_POLICY_H

#include "core.h"

/* engine.playout.random_step, exactly (same generator calls, same moves). */
int uno_random_step(uno_state *s, py_random *rng);
/* engine.playout.play_random_round: moves made, or -1 past max_moves. */
long uno_random_round(uno_state *s, py_random *rng, long max_moves);
/* The hand size of the seat after ``seat`` in the direction of play. */
int uno_next_size(const uno_state *s, int seat);
/* bots.rollout.pressure_bonus: medium's end-game habits in the rollout policy. */
double uno_pressure_bonus(int card, int next_size, int players);
/* bots.ismcts.fast_rollout_move: the cheap greedy policy close to medium's turn choice. */
int32_t uno_heuristic_move(const uno_state *s, int seat);
/* The IS-MCTS rollout: the heuristic for at most max_plies plies; returns plies made. */
int uno_heuristic_playout(uno_state *s, int max_plies);

#endif
