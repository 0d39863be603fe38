/* The parts of bots.ismcts that run per simulated move: the search's move filter, its
 * tree policy and the scored rollout. */
#ifndef UNO_SEARCH_H
#define UNO_SEARCH_H

#include "core.h"

/* bots.ismcts.search_moves */
int uno_search_moves(const uno_state *s, int seat, int32_t *out);
/* bots.ismcts.rollout_move over moves from uno_search_moves */
int32_t uno_tree_policy(const uno_state *s, int seat, const int32_t *moves, int n);
/* The search's moves of a seat into out (returns their count) and the move the tree tries
 * first: with ``medium``, medium.c's when it is among them (bots.medium_policy.
 * medium_tree_move), else uno_tree_policy's. One legal-move list for both. */
int uno_search_step(const uno_state *s, int seat, int medium, int32_t *out, int32_t *policy);
/* A rollout of at most max_plies plies by medium.c's policy (``medium``) or the greedy
 * heuristic, then rewards by seat (1 for a winner, else
 * exp(-sharpness * hand size) normalized). Returns plies made or -1. */
int uno_rollout_rewards(uno_state *s, int medium, int max_plies, double sharpness,
                        double *rewards);

#endif
