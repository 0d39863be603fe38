/* bots.belief in the core: another seat's kept decisions, and whether a hand explains
 * them (the seat modelled as medium). */
#ifndef UNO_BELIEF_H
#define UNO_BELIEF_H

#include "core.h"

#define MAX_DECISIONS 6 /* bots.belief.MAX_DECISIONS */
#define MAX_EXTRA 8     /* bots.belief.MAX_EXTRA */
#define DECISION_VOID 8 /* bots.belief.VOID; a play is K_PLAY */

typedef struct {
    int kind, color, top, direction;
    uint8_t sizes[MAX_PLAYERS];
    int32_t move; /* the play, without its uno bit */
    uint8_t extra[MAX_EXTRA]; /* the cards played since, this play's first */
    int extra_length;
    int hidden; /* unseen cards received since: the last of the hand now, not held then */
} uno_decision;

/* bots.belief.misses: how many of ``count`` decisions of ``seat`` its ``hand`` (now) does
 * not explain, the latest first, counted up to ``enough``. ``probe``: scratch state
 * holding the round's players and rules. */
int uno_belief_misses(uno_state *probe, const uno_decision *decisions, int count,
                      const uint8_t *hand, int size, int seat, int enough);

#endif
