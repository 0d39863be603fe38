/* The C step's seat memories (unogame.env.memory.SeenCards, move for move): the cards
 * played this round and, by observer and seat, the cards the observer knows that seat
 * holds, as lists in the order SeenCards keeps them. Each observer learns only what its
 * own part of an event shows: a challenge shows the challenger the hand, a swap or a pass
 * of hands tells a seat where its own (known) hand went. */
#include <string.h>

#include "envstep.h"

static int take_first(uint8_t *cards, uint8_t *length, int card) {
    for (int i = 0; i < *length; i++) {
        if (cards[i] == card) {
            memmove(cards + i, cards + i + 1, (size_t)(*length - i - 1));
            (*length)--;
            return 1;
        }
    }
    return 0;
}

void env_forget(Stepper *self) {
    memset(self->known_len, 0, sizeof self->known_len);
    self->has_known = 0;
}

/* seat played or discarded card: it is no longer in that hand. */
static void leaves(Stepper *self, int seat, int card) {
    if (self->own_active && self->own_valid[seat]) {
        take_first(self->own[seat], &self->own_len[seat], card);
    }
    if (self->has_known) {
        for (int observer = 0; observer < self->players; observer++) {
            if (observer != seat) {
                take_first(self->known[observer][seat], &self->known_len[observer][seat],
                           card);
            }
        }
    }
}

/* known[observer][seat] = observer's own hand as it knows it (empty if not taken). */
static void set_own(Stepper *self, int observer, int seat) {
    int valid = self->own_active && self->own_valid[observer];
    uint8_t length = valid ? self->own_len[observer] : 0;
    memcpy(self->known[observer][seat], self->own[observer], length);
    self->known_len[observer][seat] = length;
}

static void swap_lists(Stepper *self, int observer, int first, int second) {
    uint8_t buffer[MAX_CARDS];
    uint8_t length = self->known_len[observer][first];
    memcpy(buffer, self->known[observer][first], length);
    memcpy(self->known[observer][first], self->known[observer][second],
           self->known_len[observer][second]);
    self->known_len[observer][first] = self->known_len[observer][second];
    memcpy(self->known[observer][second], buffer, length);
    self->known_len[observer][second] = length;
}

static void swap_hands(Stepper *self, int first, int second) {
    for (int observer = 0; observer < self->players; observer++) {
        swap_lists(self, observer, first, second);
        if (observer == first || observer == second) {
            set_own(self, observer, observer == first ? second : first);
            self->known_len[observer][observer] = 0;
            self->own_valid[observer] = 0;
        }
    }
    self->has_known = 1;
}

static void pass_hands(Stepper *self, int direction) {
    const int players = self->players;
    uint8_t cards[MAX_PLAYERS][MAX_CARDS], lengths[MAX_PLAYERS];
    for (int observer = 0; observer < players; observer++) {
        set_own(self, observer, observer);
        memcpy(cards, self->known[observer], sizeof cards);
        memcpy(lengths, self->known_len[observer], sizeof lengths);
        for (int seat = 0; seat < players; seat++) {
            int to = ((seat + direction) % players + players) % players;
            memcpy(self->known[observer][to], cards[seat], lengths[seat]);
            self->known_len[observer][to] = lengths[seat];
        }
        self->known_len[observer][observer] = 0;
        self->own_valid[observer] = 0;
    }
    self->has_known = 1;
}

/* SeenCards.observe_raw. */
void env_observe_log(Stepper *self) {
    const uno_log *log = &self->log;
    int at = 0;
    while (at < log->length) {
        int type = log->data[at], count = log->data[at + 1];
        const int32_t *f = log->data + at + 2;
        if (type == EV_PLAY) {
            int card = move_card(f[1]);
            self->played[card] += 1.0f;
            leaves(self, f[0], card);
        } else if (type == EV_DISCARD) {
            for (int i = 1; i < count; i++) {
                self->played[f[i]] += 1.0f;
                leaves(self, f[0], f[i]);
            }
        } else if (type == EV_DRAW) {
            int seat = f[0];
            if (self->own_active && self->own_valid[seat]) {
                for (int i = 3; i < count && self->own_len[seat] < MAX_CARDS; i++) {
                    self->own[seat][self->own_len[seat]++] = (uint8_t)f[i];
                }
            }
        } else if (type == EV_CHALLENGE) {
            int seat = f[0], by = f[1];
            for (int i = 3; i < count; i++) {
                self->known[seat][by][i - 3] = (uint8_t)f[i];
            }
            self->known_len[seat][by] = (uint8_t)(count - 3);
            self->has_known = 1;
        } else if (type == EV_SWAP) {
            swap_hands(self, f[0], f[1]);
        } else if (type == EV_PASS_HANDS) {
            pass_hands(self, f[0]);
        } else if (type == EV_ROUND_OVER || type == EV_DEAL) {
            env_forget(self);
        }
        at += 2 + count;
    }
    self->own_active = 0;
}

/* SeenCards.trim. */
void env_trim(Stepper *self) {
    if (!self->has_known) {
        return;
    }
    const uno_state *s = state_of(self);
    for (int observer = 0; observer < self->players; observer++) {
        for (int seat = 0; seat < self->players; seat++) {
            if (self->known_len[observer][seat] > s->hand_len[seat]) {
                self->known_len[observer][seat] = s->hand_len[seat];
            }
        }
        self->known_len[observer][observer] = 0;
    }
}

/* Whether a play may swap or pass hands (UnoCore._may_swap). */

void env_take_hands(Stepper *self) {
    const uno_state *s = state_of(self);
    for (int i = 0; i < self->players; i++) {
        memcpy(self->own[i], s->hand[i], s->hand_len[i]);
        self->own_len[i] = s->hand_len[i];
        self->own_valid[i] = 1;
    }
    self->own_active = 1;
}
