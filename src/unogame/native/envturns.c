/* The C step's decisions: a decision's legal moves as action ids (docs/ENV.md, "Actions")
 * and the order of off-turn reactions (docs/ENV.md, "Turns and reactions"). */
#include "envstep.h"

int env_code_to_action(int32_t code, int seat, int players) {
    int kind = move_kind(code), card = move_card(code), color = move_color(code);
    int target = move_target(code), arg = move_arg(code), uno = move_uno(code);
    int gift = (code >> 20 & 63) - 1;
    int offset = target >= 0 ? ((target - seat) % players + players) % players : -1;
    if (offset == 0 || (kind != K_PLAY && (card >= 0 || uno || arg >= 0 || gift >= 0))) {
        return -1;
    }
    switch (kind) {
    case K_PLAY:
        if (card < 0 || (card != CARD_WC && (arg >= 0 || gift >= 0))) {
            return -1;
        }
        if (card < CARD_WILD) {
            if (color >= 0) {
                return -1;
            }
            if (offset < 0) {
                return card + 52 * uno;
            }
            return CARD_RANK[card] == 7 ? 104 + card / 13 * 18 + (offset - 1) * 2 + uno : -1;
        }
        if (color < 0) {
            return -1;
        }
        if (card == CARD_WILD || card == CARD_WD4) {
            return offset < 0 ? 176 + (card - CARD_WILD) * 8 + color * 2 + uno : -1;
        }
        if (card == CARD_WS) {
            return offset > 0 ? 192 + color * 18 + (offset - 1) * 2 + uno : -1;
        }
        return WC_BASE + color * 5700 + (arg + 1) * 1140 + (offset < 0 ? 0 : offset) * 114
            + (gift + 1) * 2 + uno;
    case K_DRAW: case K_PASS: case K_CHALLENGE: case K_ACCEPT:
        return color < 0 && offset < 0 ? 263 + kind : -1;
    case K_COLOR:
        return color >= 0 && offset < 0 ? 268 + color : -1;
    case K_UNO:
        return color < 0 && offset < 0 ? 272 : -1;
    default: /* K_CATCH */
        return color < 0 && offset > 0 ? 272 + offset : -1;
    }
}

/* Whether a jump-in may be open now, read from public fields only (the rule, nothing
 * pending, a coloured card on top): then every other seat gets its reaction step, so the
 * order of decisions never shows who holds the top card's twin (issue 23). */
int env_jump_window(const uno_state *s) {
    return s->rules.jump_in && s->winner < 0 && s->pending.kind == P_NONE
        && s->discard_len > 0 && s->discard[s->discard_len - 1] < CARD_WILD;
}

int env_set_decision(Stepper *self, int seat, int on_turn) {
    int32_t moves[MAX_MOVES];
    const int players = self->players;
    int n = uno_legal_moves(state_of(self), seat, moves);
    if (n == 0 && !on_turn && !env_jump_window(state_of(self))) {
        return 0;
    }
    memcpy(self->legal, moves, (size_t)n * sizeof moves[0]);
    for (int i = 0; i < n; i++) { /* insertion sort by action: the lists are short */
        int action = env_code_to_action(moves[i], seat, players);
        if (action < 0) {
            PyErr_Format(PyExc_RuntimeError, "move %d has no action", (int)moves[i]);
            return -1;
        }
        int at = i;
        while (at > 0 && self->actions[at - 1] > action) {
            self->actions[at] = self->actions[at - 1];
            self->codes[at] = self->codes[at - 1];
            at--;
        }
        self->actions[at] = action;
        self->codes[at] = moves[i];
    }
    if (!on_turn) {
        self->actions[n] = NO_REACTION;
        self->codes[n] = -1;
        n++;
    }
    self->count = n;
    self->seat = seat;
    self->on_turn = on_turn;
    self->mask_at = -1;
    return 1;
}

/* table.reaction_order without delays: from the seat after the player to act, in the
 * direction of play, the seats with a legal move now; every other seat while a jump-in
 * may be open (env_jump_window). */
void env_reaction_order(Stepper *self) {
    const uno_state *s = state_of(self);
    const int players = self->players;
    const int window = env_jump_window(s);
    int32_t moves[MAX_MOVES];
    self->queue_len = self->queue_at = 0;
    for (int step = 1; step < players; step++) {
        int seat = ((s->turn + step * s->direction) % players + players) % players;
        if (window || uno_legal_moves(s, seat, moves) > 0) {
            self->queue[self->queue_len++] = seat;
        }
    }
}

int env_next_decision(Stepper *self) {
    while (self->queue_at < self->queue_len) {
        int found = env_set_decision(self, self->queue[self->queue_at++], 0);
        if (found != 0) {
            return found;
        }
    }
    return env_set_decision(self, state_of(self)->turn, 1);
}

int env_may_swap(Stepper *self, int32_t code) {
    int card = move_card(code);
    if (card >= CARD_WS) {
        return card == CARD_WS || self->custom_swaps;
    }
    return state_of(self)->rules.seven_zero
        && (CARD_RANK[card] == 0 || CARD_RANK[card] == 7);
}
