/* unogame.native._envobs.Stepper: the environment's step in C (unogame.env.core, docs/ENV.md
 * "Speed"), from an action id to the next decision, for a game the core plays.
 *
 * It does what UnoCore's Python path does, in the same order: check the action against the
 * decision's legal actions, push the move into the core State (in place, as State.push),
 * update every seat's memory from the move's events (the cards played, and per observer the
 * cards it knows another seat holds: SeenCards.observe_raw, each observer reading only what
 * its own part of the events shows), work out the reaction order after a turn move, and
 * read the next decision's legal moves as action ids. Observations and masks are written
 * only when asked. The end of a round (rewards, a match's next deal) is left to Python.
 * tests/test_env_differential.py plays it against the Python path step by step. */
#include <string.h>

#include "envobs.h"

#define NO_REACTION 282
#define WC_BASE 283
#define MASK_POOL 4
#define NUM_ACTIONS (WC_BASE + 4 * 5700)

enum { STEP_ROUND_OVER = -1, STEP_ILLEGAL = -2, STEP_TRUNCATED = -4 };

typedef struct {
    PyObject *array;          /* an int8 array of NUM_ACTIONS, or NULL */
    int32_t ones[MAX_MOVES + 1];
    int count;                /* how many entries of ones are set in array */
} mask_slot;

typedef struct {
    PyObject_HEAD
    PyObject *state_object;   /* the _core State the game is, pushed in place */
    PyObject *new_mask;       /* a callable: a fresh zeroed int8 array of NUM_ACTIONS */
    int players, custom_swaps;
    int seat, on_turn;
    long steps, max_steps;
    float rules_part[MAX_RULES_LEN];
    float played[NUM_CARDS];
    uint8_t known[MAX_PLAYERS][MAX_PLAYERS][MAX_CARDS]; /* [observer][seat], list order */
    uint8_t known_len[MAX_PLAYERS][MAX_PLAYERS];
    int has_known;
    uint8_t own[MAX_PLAYERS][MAX_CARDS]; /* during a move that may swap: hands as known */
    uint8_t own_len[MAX_PLAYERS], own_valid[MAX_PLAYERS];
    int own_active;
    int queue[MAX_PLAYERS];
    int queue_len, queue_at;
    int count;                /* the decision's legal actions, ascending */
    int32_t actions[MAX_MOVES + 1], codes[MAX_MOVES + 1]; /* code -1: no reaction */
    int32_t legal[MAX_MOVES]; /* the decision's move codes in the core's order */
    mask_slot masks[MASK_POOL];
    int mask_at;              /* the slot of this decision's mask, or -1 */
    uno_log log;              /* the last step's events */
} Stepper;

static PyTypeObject StepperType;

static uno_state *state_of(Stepper *self) {
    return &((StateObject *)self->state_object)->state;
}

/* ------------------------------------------------------------------ actions */

/* unogame.env.actions.code_to_action, by the table's formula; -1 for a move without one. */
static int code_to_action(int32_t code, int seat, int players) {
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

/* seat decides now if it has a legal move (or it is its turn); 0 if not, -1 on error. */
static int set_decision(Stepper *self, int seat, int on_turn) {
    int32_t moves[MAX_MOVES];
    const int players = self->players;
    int n = uno_legal_moves(state_of(self), seat, moves);
    if (n == 0 && !on_turn) {
        return 0;
    }
    memcpy(self->legal, moves, (size_t)n * sizeof moves[0]);
    for (int i = 0; i < n; i++) { /* insertion sort by action: the lists are short */
        int action = code_to_action(moves[i], seat, players);
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
 * direction of play, the seats with a legal move now. */
static void reaction_order(Stepper *self) {
    const uno_state *s = state_of(self);
    const int players = self->players;
    int32_t moves[MAX_MOVES];
    self->queue_len = self->queue_at = 0;
    for (int step = 1; step < players; step++) {
        int seat = ((s->turn + step * s->direction) % players + players) % players;
        if (uno_legal_moves(s, seat, moves) > 0) {
            self->queue[self->queue_len++] = seat;
        }
    }
}

static int next_decision(Stepper *self) {
    while (self->queue_at < self->queue_len) {
        int found = set_decision(self, self->queue[self->queue_at++], 0);
        if (found != 0) {
            return found;
        }
    }
    return set_decision(self, state_of(self)->turn, 1);
}

/* ------------------------------------------------------------------ memory */

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

static void forget(Stepper *self) {
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

/* The events of one move, each seat reading its own part (SeenCards.observe_raw). */
static void observe_log(Stepper *self) {
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
            forget(self);
        }
        at += 2 + count;
    }
    self->own_active = 0;
}

/* After a move: a seat knows no more cards of a hand than it holds (SeenCards.trim). */
static void trim(Stepper *self) {
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
static int may_swap(const Stepper *self, int32_t code) {
    int card = move_card(code);
    if (card >= CARD_WS) {
        return card == CARD_WS || self->custom_swaps;
    }
    return state_of((Stepper *)self)->rules.seven_zero
        && (CARD_RANK[card] == 0 || CARD_RANK[card] == 7);
}

/* ------------------------------------------------------------------ methods */

static PyObject *Stepper_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *keywords[] = {"state", "rules", "custom_swaps", "max_steps", "new_mask",
                               NULL};
    PyObject *state_object, *rules_object, *new_mask;
    int custom_swaps;
    long max_steps;
    if (envobs_state_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "bind() first");
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!OplO", keywords, envobs_state_type,
                                     &state_object, &rules_object, &custom_swaps,
                                     &max_steps, &new_mask)) {
        return NULL;
    }
    if (!PyCallable_Check(new_mask)) {
        PyErr_SetString(PyExc_TypeError, "new_mask must be callable");
        return NULL;
    }
    Py_buffer rules_view;
    if (envobs_float_buffer(rules_object, &rules_view, envobs_layout[O_RULES_LEN], 0,
                            "rules") < 0) {
        return NULL;
    }
    Stepper *self = (Stepper *)type->tp_alloc(type, 0);
    if (self == NULL) {
        PyBuffer_Release(&rules_view);
        return NULL;
    }
    memcpy(self->rules_part, rules_view.buf, (size_t)rules_view.len);
    PyBuffer_Release(&rules_view);
    Py_INCREF(state_object);
    self->state_object = state_object;
    Py_INCREF(new_mask);
    self->new_mask = new_mask;
    self->players = ((StateObject *)state_object)->state.players;
    self->custom_swaps = custom_swaps;
    self->max_steps = max_steps;
    self->seat = -1;
    self->mask_at = -1;
    return (PyObject *)self;
}

static void Stepper_dealloc(Stepper *self) {
    Py_XDECREF(self->state_object);
    Py_XDECREF(self->new_mask);
    for (int i = 0; i < MASK_POOL; i++) {
        Py_XDECREF(self->masks[i].array);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* new_round(): a round was dealt: memories afresh, the first decision; its seat. */
static PyObject *Stepper_new_round(Stepper *self, PyObject *unused) {
    (void)unused;
    const uno_state *s = state_of(self);
    memset(self->played, 0, sizeof self->played);
    for (int i = 0; i < s->discard_len; i++) {
        self->played[s->discard[i]] += 1.0f;
    }
    forget(self);
    self->log.length = 0;
    reaction_order(self);
    if (next_decision(self) < 0) {
        return NULL;
    }
    return PyLong_FromLong(self->seat);
}

/* step(action): the next deciding seat, or STEP_ROUND_OVER (the round just ended: Python
 * pays or deals), STEP_ILLEGAL (nothing changed), STEP_TRUNCATED (max_steps reached). */
static PyObject *Stepper_step(Stepper *self, PyObject *arg) {
    PyObject *number = PyNumber_Long(arg);
    if (number == NULL) {
        return NULL;
    }
    int overflow;
    long action = PyLong_AsLongAndOverflow(number, &overflow);
    Py_DECREF(number);
    if (action == -1 && PyErr_Occurred()) {
        return NULL;
    }
    int found = -1;
    for (int i = 0; i < self->count && !overflow; i++) {
        if (self->actions[i] == action) {
            found = i;
            break;
        }
    }
    if (found < 0 || self->seat < 0) {
        return PyLong_FromLong(STEP_ILLEGAL);
    }
    int32_t code = self->codes[found];
    int seat = self->seat;
    self->steps++;
    self->log.length = 0;
    self->log.overflow = 0;
    self->log.enabled = 1;
    self->mask_at = -1;
    if (code >= 0) {
        uno_state *s = state_of(self);
        if (move_kind(code) == K_PLAY && may_swap(self, code)) {
            for (int i = 0; i < self->players; i++) {
                memcpy(self->own[i], s->hand[i], s->hand_len[i]);
                self->own_len[i] = s->hand_len[i];
                self->own_valid[i] = 1;
            }
            self->own_active = 1;
        }
        if (uno_apply(s, seat, code, &self->log) < 0) {
            self->seat = -1;
            PyErr_SetString(PyExc_RuntimeError, "the core met a broken invariant");
            return NULL;
        }
        if (self->log.overflow) {
            self->seat = -1;
            PyErr_SetString(PyExc_RuntimeError, "event log overflow");
            return NULL;
        }
        observe_log(self);
        if (s->winner >= 0) {
            self->seat = -1;
            return PyLong_FromLong(STEP_ROUND_OVER);
        }
        trim(self);
        if (self->on_turn || move_kind(code) <= K_COLOR) { /* a new moment to react to */
            reaction_order(self);
        }
    }
    if (self->steps >= self->max_steps) {
        self->seat = -1;
        return PyLong_FromLong(STEP_TRUNCATED);
    }
    if (next_decision(self) < 0) {
        self->seat = -1;
        return NULL;
    }
    return PyLong_FromLong(self->seat);
}

/* observe(seat, out): seat's whole observation into out (float32). */
static PyObject *Stepper_observe(Stepper *self, PyObject *args) {
    int seat;
    PyObject *out_object;
    if (!PyArg_ParseTuple(args, "iO", &seat, &out_object)) {
        return NULL;
    }
    const int players = self->players;
    if (seat < 0 || seat >= players) {
        PyErr_SetString(PyExc_ValueError, "no such seat");
        return NULL;
    }
    Py_buffer out_view;
    if (envobs_float_buffer(out_object, &out_view, envobs_layout[O_SIZE], 1, "out") < 0) {
        return NULL;
    }
    float *obs = out_view.buf;
    envobs_write(state_of(self), seat, obs, self->played, self->rules_part);
    if (self->has_known) {
        for (int offset = 1; offset < players; offset++) {
            int other = (seat + offset) % players;
            float *section = obs + envobs_layout[O_KNOWN] + (offset - 1) * NUM_CARDS;
            for (int i = 0; i < self->known_len[seat][other]; i++) {
                section[self->known[seat][other][i]] += 1.0f;
            }
        }
    }
    PyBuffer_Release(&out_view);
    Py_RETURN_NONE;
}

/* mask(): the decision's legal actions as a 0/1 int8 array, the same one until the next
 * step. An array from an earlier decision is written again only if nothing but this
 * stepper holds it (its reference count is 1), so no mask handed out ever changes. */
static PyObject *Stepper_mask(Stepper *self, PyObject *unused) {
    (void)unused;
    if (self->mask_at >= 0) {
        PyObject *array = self->masks[self->mask_at].array;
        Py_INCREF(array);
        return array;
    }
    int at = -1;
    for (int i = 0; i < MASK_POOL && at < 0; i++) {
        if (self->masks[i].array == NULL || Py_REFCNT(self->masks[i].array) == 1) {
            at = i;
        }
    }
    mask_slot *slot;
    if (at < 0) { /* every array is held elsewhere: let one go, make a new one */
        at = 0;
        Py_CLEAR(self->masks[0].array);
    }
    slot = &self->masks[at];
    if (slot->array == NULL) {
        slot->array = PyObject_CallNoArgs(self->new_mask);
        if (slot->array == NULL) {
            return NULL;
        }
        slot->count = 0;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(slot->array, &view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        Py_CLEAR(slot->array);
        return NULL;
    }
    if (view.len != NUM_ACTIONS || view.itemsize != 1) {
        PyBuffer_Release(&view);
        Py_CLEAR(slot->array);
        PyErr_SetString(PyExc_ValueError, "new_mask must give an int8 array of every action");
        return NULL;
    }
    int8_t *ones = view.buf;
    for (int i = 0; i < slot->count; i++) {
        ones[slot->ones[i]] = 0;
    }
    int count = self->seat < 0 ? 0 : self->count;
    for (int i = 0; i < count; i++) {
        ones[self->actions[i]] = 1;
        slot->ones[i] = self->actions[i];
    }
    slot->count = count;
    PyBuffer_Release(&view);
    self->mask_at = at;
    Py_INCREF(slot->array);
    return slot->array;
}

static PyObject *int_list(const int32_t *values, int n) {
    PyObject *list = PyList_New(n);
    if (list == NULL) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyObject *value = PyLong_FromLong(values[i]);
        if (value == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, value);
    }
    return list;
}

/* actions(): the decision's legal actions, ascending (off turn, no reaction last). */
static PyObject *Stepper_actions(Stepper *self, PyObject *unused) {
    (void)unused;
    return int_list(self->actions, self->seat < 0 ? 0 : self->count);
}

/* codes(): the decision's legal move codes, in the core's order (the engine's). */
static PyObject *Stepper_codes(Stepper *self, PyObject *unused) {
    (void)unused;
    int n = self->seat < 0 ? 0 : self->count - (self->on_turn ? 0 : 1);
    return int_list(self->legal, n);
}

static PyObject *bytes_tuple(const int32_t *values, int n) {
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyObject *value = PyLong_FromLong(values[i]);
        if (value == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, value);
    }
    return tuple;
}

/* raw_events(): the last step's events as State.push gives them (module.c's log_events:
 * _core keeps that one static, and this module cannot call into _core). */
static PyObject *Stepper_raw_events(Stepper *self, PyObject *unused) {
    (void)unused;
    const uno_log *log = &self->log;
    PyObject *events = PyList_New(0);
    if (events == NULL) {
        return NULL;
    }
    int at = 0;
    while (at < log->length) {
        int type = log->data[at], count = log->data[at + 1];
        const int32_t *fields = log->data + at + 2;
        int plain = type == EV_DRAW ? 3 : type == EV_DISCARD ? 1 : type == EV_CHALLENGE ? 3
            : count;
        int extra = plain < count || type == EV_DRAW || type == EV_DISCARD
            || type == EV_CHALLENGE;
        PyObject *event = PyTuple_New(1 + plain + extra);
        int failed = event == NULL;
        if (!failed) {
            PyTuple_SET_ITEM(event, 0, PyLong_FromLong(type));
            for (int i = 0; i < plain; i++) {
                PyTuple_SET_ITEM(event, 1 + i, PyLong_FromLong(fields[i]));
            }
            if (extra) {
                PyObject *cards = bytes_tuple(fields + plain, count - plain);
                failed = cards == NULL;
                if (!failed) {
                    PyTuple_SET_ITEM(event, 1 + plain, cards);
                }
            }
        }
        if (failed || PyList_Append(events, event) < 0) {
            Py_XDECREF(event);
            Py_DECREF(events);
            return NULL;
        }
        Py_DECREF(event);
        at += 2 + count;
    }
    return events;
}

/* memory(): (played counts, known[observer][seat] lists, has_known, reaction queue left):
 * what the Python path needs to take over (UnoCore leaves the fast path). */
static PyObject *Stepper_memory(Stepper *self, PyObject *unused) {
    (void)unused;
    const int players = self->players;
    PyObject *played = PyList_New(NUM_CARDS), *known = PyList_New(players);
    PyObject *queue = PyList_New(self->queue_len - self->queue_at);
    if (played == NULL || known == NULL || queue == NULL) {
        goto fail;
    }
    for (int card = 0; card < NUM_CARDS; card++) {
        PyList_SET_ITEM(played, card, PyLong_FromLong((long)self->played[card]));
    }
    for (int observer = 0; observer < players; observer++) {
        PyObject *seats = PyList_New(players);
        if (seats == NULL) {
            goto fail;
        }
        PyList_SET_ITEM(known, observer, seats);
        for (int seat = 0; seat < players; seat++) {
            int length = self->known_len[observer][seat];
            PyObject *cards = PyList_New(length);
            if (cards == NULL) {
                goto fail;
            }
            for (int i = 0; i < length; i++) {
                PyList_SET_ITEM(cards, i, PyLong_FromLong(self->known[observer][seat][i]));
            }
            PyList_SET_ITEM(seats, seat, cards);
        }
    }
    for (int i = self->queue_at; i < self->queue_len; i++) {
        PyList_SET_ITEM(queue, i - self->queue_at, PyLong_FromLong(self->queue[i]));
    }
    return Py_BuildValue("(NNON)", played, known, self->has_known ? Py_True : Py_False,
                         queue);
fail:
    Py_XDECREF(played);
    Py_XDECREF(known);
    Py_XDECREF(queue);
    return NULL;
}

/* copy(state): an independent copy playing state (a copy of this one's State). */
static PyObject *Stepper_copy(Stepper *self, PyObject *state_object) {
    if (!PyObject_TypeCheck(state_object, envobs_state_type)) {
        PyErr_SetString(PyExc_TypeError, "a core State is needed");
        return NULL;
    }
    Stepper *other = (Stepper *)StepperType.tp_alloc(&StepperType, 0);
    if (other == NULL) {
        return NULL;
    }
    size_t head = offsetof(Stepper, players);
    memcpy((char *)other + head, (char *)self + head, sizeof(Stepper) - head);
    for (int i = 0; i < MASK_POOL; i++) {
        other->masks[i].array = NULL;
        other->masks[i].count = 0;
    }
    other->mask_at = -1;
    Py_INCREF(state_object);
    other->state_object = state_object;
    Py_INCREF(self->new_mask);
    other->new_mask = self->new_mask;
    return (PyObject *)other;
}

static PyObject *Stepper_get_on_turn(Stepper *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(self->on_turn);
}

static PyObject *Stepper_get_steps(Stepper *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->steps);
}

static int Stepper_set_steps(Stepper *self, PyObject *value, void *closure) {
    (void)closure;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "steps cannot be deleted");
        return -1;
    }
    long steps = PyLong_AsLong(value);
    if (steps == -1 && PyErr_Occurred()) {
        return -1;
    }
    self->steps = steps;
    return 0;
}

static PyMethodDef Stepper_methods[] = {
    {"new_round", (PyCFunction)Stepper_new_round, METH_NOARGS,
     "A round was dealt: fresh memories and the first decision; its seat."},
    {"step", (PyCFunction)Stepper_step, METH_O,
     "step(action): the next deciding seat, or -1 round over, -2 illegal, -4 truncated."},
    {"observe", (PyCFunction)Stepper_observe, METH_VARARGS,
     "observe(seat, out): seat's observation into out (float32)."},
    {"mask", (PyCFunction)Stepper_mask, METH_NOARGS, "The decision's action mask."},
    {"actions", (PyCFunction)Stepper_actions, METH_NOARGS, "The decision's actions."},
    {"codes", (PyCFunction)Stepper_codes, METH_NOARGS, "The decision's move codes."},
    {"raw_events", (PyCFunction)Stepper_raw_events, METH_NOARGS,
     "The last step's events, as State.push returns them."},
    {"memory", (PyCFunction)Stepper_memory, METH_NOARGS,
     "(played, known, has_known, reaction queue left)."},
    {"copy", (PyCFunction)Stepper_copy, METH_O, "copy(state): a copy playing state."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Stepper_getset[] = {
    {"on_turn", (getter)Stepper_get_on_turn, NULL, "Whether the decision is a turn.", NULL},
    {"steps", (getter)Stepper_get_steps, (setter)Stepper_set_steps, "Steps taken.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject StepperType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "unogame.native._envobs.Stepper",
    .tp_basicsize = sizeof(Stepper),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Stepper(state, rules, custom_swaps, max_steps, new_mask): UnoCore's step "
              "in C for a core State.",
    .tp_new = Stepper_new,
    .tp_dealloc = (destructor)Stepper_dealloc,
    .tp_methods = Stepper_methods,
    .tp_getset = Stepper_getset,
};

/* code_to_action(code, seat, players): the C table's action of a move code (-1: none). */
static PyObject *py_code_to_action(PyObject *self, PyObject *args) {
    (void)self;
    long code;
    int seat, players;
    if (!PyArg_ParseTuple(args, "lii", &code, &seat, &players)) {
        return NULL;
    }
    if (players < 2 || players > MAX_PLAYERS || seat < 0 || seat >= players) {
        PyErr_SetString(PyExc_ValueError, "no such seat");
        return NULL;
    }
    return PyLong_FromLong(code_to_action((int32_t)code, seat, players));
}

static PyMethodDef step_functions[] = {
    {"code_to_action", py_code_to_action, METH_VARARGS,
     "code_to_action(code, seat, players): the Stepper's action of a move (-1: none)."},
    {NULL, NULL, 0, NULL},
};

int envstep_register(PyObject *module) {
    if (PyType_Ready(&StepperType) < 0) {
        return -1;
    }
    Py_INCREF(&StepperType);
    if (PyModule_AddObject(module, "Stepper", (PyObject *)&StepperType) < 0) {
        Py_DECREF(&StepperType);
        return -1;
    }
    if (PyModule_AddFunctions(module, step_functions) < 0) {
        return -1;
    }
    return PyModule_AddIntConstant(module, "NUM_ACTIONS", NUM_ACTIONS);
}
