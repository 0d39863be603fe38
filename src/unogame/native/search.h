/* The parts of bots.ismcts that run per simulated move: the search's move filter, its
 * tree policy and the scored rollout. */
#ifndef UNO_SEARCH_H
#define UNO_SEARCH_H

#include "core.h"

/* bots.ismcts.search_moves */
int uno_search_moves(const uno_state *s, int seat, int32_t *out);
/* bots.ismcts.rollout_move over moves from uno_search_moves */
int32_t uno_tree_policy(const uno_state *s, int seat, const int32_t *moves, int n);
/* Heuristic rollout of at most max_plies plies, then rewards by seat (1 for a winner, else
 * exp(-sharpness * hand size) normalized). Returns plies made or -1. */
int uno_rollout_rewards(uno_state *s, int max_plies, double sharpness, double *rewards);

/* 1 for a winner, else exp(-sharpness * hand size) normalized: a cut-off round's score. */
void uno_end_rewards(const uno_state *s, double sharpness, double *rewards);

#endif
