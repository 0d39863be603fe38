/* bots.belief.explains in the core, decision for decision the same answer. */
#include "belief.h"

#include <string.h>

#include "medium.h"

static int playable(int card, int color, int top) {
    return card >= CARD_WILD || CARD_COLOR[card] == color || CARD_RANK[card] == CARD_RANK[top];
}

/* bots.belief.explains: the hand then is the hand now and the cards played since; a play
 * is explained when medium's best_play, the play listed first, chooses it. */
static int explains(uno_state *probe, const uno_decision *d, const uint8_t *hand, int size,
                    int seat) {
    if (d->hidden > size) {
        return 1;
    }
    uint8_t *then = probe->hand[seat];
    int held = size - d->hidden, length = held + d->extra_length;
    if (length > MAX_CARDS) {
        return 0;
    }
    memcpy(then, hand, (size_t)held);
    memcpy(then + held, d->extra, (size_t)d->extra_length);
    if (d->kind == DECISION_VOID) {
        for (int i = 0; i < length; i++) {
            if (playable(then[i], d->color, d->top)) {
                return 0;
            }
        }
        return 1;
    }
    int32_t moves[MAX_MOVES];
    int n = 0;
    moves[n++] = d->move;
    uint64_t seen = 0;
    int players = probe->players;
    for (int i = 0; i < length; i++) {
        int card = then[i];
        if ((seen >> card & 1) || !playable(card, d->color, d->top)) {
            continue;
        }
        seen |= 1ULL << card;
        if (card < CARD_WILD) {
            int32_t code = move_encode(K_PLAY, card, -1, -1, -1, 0);
            if (code != d->move) {
                moves[n++] = code;
            }
            continue;
        }
        for (int c = 0; c < 4; c++) { /* a Wild Swap names a seat too, other wilds none */
            for (int target = 0; target < players; target++) {
                if (card == CARD_WS ? target == seat : target > 0) {
                    continue;
                }
                int32_t code = move_encode(K_PLAY, card, c, card == CARD_WS ? target : -1, -1, 0);
                if (code != d->move && n < MAX_MOVES) {
                    moves[n++] = code;
                }
            }
        }
    }
    for (int other = 0; other < players; other++) {
        probe->hand_len[other] = d->sizes[other];
    }
    probe->hand_len[seat] = (uint8_t)length;
    probe->color = (int8_t)d->color;
    probe->direction = (int8_t)d->direction;
    return uno_medium_best_play(probe, seat, moves, n) == 0;
}

int uno_belief_misses(uno_state *probe, const uno_decision *decisions, int count,
                      const uint8_t *hand, int size, int seat, int enough) {
    int missed = 0;
    for (int k = count - 1; k >= 0 && missed < enough; k--) {
        missed += !explains(probe, &decisions[k], hand, size, seat);
    }
    return missed;
}
