/* bots.ismcts.HardBot.search in the core: the determinizations (deal_hidden), the shared
 * tree, its progressive widening, UCB and the rollouts, step for step as the Python loop
 * (the same generator calls, the same floating-point sums), without the GIL. */
#ifndef UNO_TREE_H
#define UNO_TREE_H

#include "belief.h"
#include "core.h"

#define CARD_CLASSES 5 /* the four colours and the wild cards (bots.knowledge.CLASSES) */

/* What the searching seat knows of the hidden cards (bots.knowledge.CardTracker). */
typedef struct {
    int seat, draw_pile;
    uint8_t pool[MAX_CARDS]; /* the unseen cards */
    int pool_length;
    int hand_size[MAX_PLAYERS];
    uint8_t known[MAX_PLAYERS][MAX_CARDS];
    int known_length[MAX_PLAYERS];
    int limit[MAX_PLAYERS][CARD_CLASSES]; /* at most this many of a class; -1: any */
    int named[MAX_PLAYERS];
    int challenge; /* the pending challenge is judged on the sampled hand */
    uno_decision decisions[MAX_PLAYERS][MAX_DECISIONS]; /* kept by seat (bots.belief) */
    int decision_count[MAX_PLAYERS];
    int tries; /* hands dealt a seat until one explains its decisions (HardBot.belief_tries) */
    uno_state *probe; /* scratch for uno_belief_misses: a copy of the base, the caller's */
} uno_sample_spec;

typedef struct {
    double exploration, sharpness, deadline; /* deadline: CLOCK_MONOTONIC seconds, 0 none */
    int plies, widening;
    int opponent_widening; /* the same for other seats' moves; -1: only the policy's move */
    long budget, iterations;
    int medium; /* medium.c's policy in the tree (first move) and the rollouts, else search.c's */
    int flat;   /* uno_flat_search instead of the tree (medium rollouts) */
    int halving; /* sequential halving of the root moves over the budget */
} uno_search_params;

/* The search from ``base`` (the public state and the seat's hand) over the root moves
 * ``options``; visits and summed rewards by option. Returns the iterations done, -1 if a
 * root move is illegal in a determinization, -2 on a broken invariant, -3 out of memory. */
long uno_search(const uno_state *base, const uno_sample_spec *spec,
                const uno_search_params *params, const int32_t *options, int count,
                py_random *rng, long *visits, double *rewards);

/* CLOCK_MONOTONIC in seconds (the searches' deadlines). */
double uno_monotonic_seconds(void);
/* A determinization of base: the hidden cards dealt from the pool (bots.determinize). */
void uno_sample_world(const uno_state *base, const uno_sample_spec *spec, py_random *rng,
                      uno_state *world);
int uno_root_legal(const uno_state *s, int seat, int32_t code);
/* Flat Monte Carlo: every determinization played once from every root move, every seat
 * then playing medium (uno_medium_playout) to the end or params->plies; the same result
 * shape as uno_search. */
long uno_flat_search(const uno_state *base, const uno_sample_spec *spec,
                     const uno_search_params *params, const int32_t *options, int count,
                     py_random *rng, long *visits, double *rewards);

#endif
