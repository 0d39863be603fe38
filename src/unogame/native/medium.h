/* The medium bot's turn choice as a rollout policy over a full state. */
#ifndef UNO_MEDIUM_H
#define UNO_MEDIUM_H

#include "core.h"

/* bots.medium_policy.medium_move: the move of ``seat`` (on its turn) among its legal
 * moves, as bots.heuristic.MediumBot chooses it (ties to the first move); n > 0. */
int32_t uno_medium_move(const uno_state *s, int seat, const int32_t *moves, int n);
/* bots.medium_policy.best_play: the index in moves of the play a careful player makes
 * (ties to the first), or -1 when drawing is better; reads of s only the players, rules,
 * colour, direction, hand sizes and the seat's hand. */
int uno_medium_best_play(const uno_state *s, int seat, const int32_t *moves, int n);
/* Every seat plays uno_medium_move for at most max_plies plies; returns plies or -1. */
int uno_medium_playout(uno_state *s, int max_plies);

#endif
