/* unogame.native._core: the compiled core's Python face. Every value coming from Python
 * is checked here; the C below trusts only what passed these checks. */
#include "module.h"
#include "pyevents.h"
#include "policy.h"
#include "medium.h"
#include "search.h"

/* ------------------------------------------------------------------ reading arguments */

static int read_rules(PyObject *tuple, uno_rules *rules) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != 12) {
        PyErr_SetString(PyExc_ValueError, "rules must be a tuple of 12 ints");
        return -1;
    }
    long v[12];
    for (int i = 0; i < 12; i++) {
        v[i] = PyLong_AsLong(PyTuple_GET_ITEM(tuple, i));
        if (v[i] == -1 && PyErr_Occurred()) {
            return -1;
        }
    }
    if (v[0] < 1 || v[0] > 20 || v[1] < 1 || v[1] > 1000000000 || v[5] < 0 || v[5] > 20
        || v[7] < 0 || v[7] >= CR_COUNT || v[8] < 1 || v[8] > 20) {
        PyErr_SetString(PyExc_ValueError, "rule value out of range");
        return -1;
    }
    rules->hand_size = (int)v[0];
    rules->target_score = (int)v[1];
    rules->must_play_drawn = v[2] != 0;
    rules->stacking = v[3] != 0;
    rules->challenge = v[4] != 0;
    rules->uno_penalty = (int)v[5];
    rules->two_player_reverse_skips = v[6] != 0;
    rules->custom_rule = (int)v[7];
    rules->custom_count = (int)v[8];
    rules->seven_zero = v[9] != 0;
    rules->jump_in = v[10] != 0;
    rules->draw_until_playable = v[11] != 0;
    return 0;
}

int read_int(PyObject *value, long low, long high, long *out, const char *what) {
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "%s out of range: %ld", what, v);
        return -1;
    }
    *out = v;
    return 0;
}

/* A list of cards into ``cards``; adds to *total and refuses more than MAX_CARDS in all. */
static int read_cards(PyObject *list, uint8_t *cards, uint8_t *length, int *total) {
    if (!PyList_Check(list)) {
        PyErr_SetString(PyExc_TypeError, "cards must be a list of ints");
        return -1;
    }
    Py_ssize_t n = PyList_GET_SIZE(list);
    if (n + *total > MAX_CARDS) {
        PyErr_SetString(PyExc_ValueError, "too many cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long card;
        if (read_int(PyList_GET_ITEM(list, i), 0, NUM_CARDS - 1, &card, "card") < 0) {
            return -1;
        }
        cards[i] = (uint8_t)card;
    }
    *length = (uint8_t)n;
    *total += (int)n;
    return 0;
}

static int read_seats(PyObject *list, int players, int *seats, int *count) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) > MAX_PLAYERS) {
        PyErr_SetString(PyExc_TypeError, "seats must be a list of at most 10 ints");
        return -1;
    }
    *count = (int)PyList_GET_SIZE(list);
    for (int i = 0; i < *count; i++) {
        long seat;
        if (read_int(PyList_GET_ITEM(list, i), 0, players - 1, &seat, "seat") < 0) {
            return -1;
        }
        seats[i] = (int)seat;
    }
    return 0;
}

/* ------------------------------------------------------------------ writing results */

static PyObject *bytes_list(const uint8_t *cards, int n) {
    PyObject *list = PyList_New(n);
    if (list == NULL) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyList_SET_ITEM(list, i, PyLong_FromLong(cards[i]));
    }
    return list;
}

static StateObject *new_state(void) {
    return (StateObject *)StateType.tp_alloc(&StateType, 0);
}

/* An empty event log for a new state's deal; on failure the state is released. */
static uno_log *new_log(StateObject *self) {
    uno_log *log = PyMem_Malloc(sizeof *log);
    if (log == NULL) {
        Py_DECREF(self);
        PyErr_NoMemory();
        return NULL;
    }
    log->length = 0;
    log->enabled = 1;
    log->overflow = 0;
    return log;
}

/* (state, events) after a deal that returned ``made``; the log is freed either way. */
static PyObject *dealt(StateObject *self, uno_log *log, int made) {
    if (made < 0) {
        PyMem_Free(log);
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError, "this deal cannot be made");
        return NULL;
    }
    PyObject *events = uno_log_events(log);
    PyMem_Free(log);
    if (events == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return Py_BuildValue("(NN)", (PyObject *)self, events);
}

/* ------------------------------------------------------------------ State methods */

static PyObject *State_new_game(PyObject *cls, PyObject *args) {
    int players;
    PyObject *rules_tuple;
    long long seed;
    (void)cls;
    if (!PyArg_ParseTuple(args, "iOL", &players, &rules_tuple, &seed)) {
        return NULL;
    }
    uno_rules rules;
    if (players < 2 || players > MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "players must be from 2 to 10");
        return NULL;
    }
    if (read_rules(rules_tuple, &rules) < 0) {
        return NULL;
    }
    StateObject *self = new_state();
    if (self == NULL) {
        return NULL;
    }
    uno_log *log = new_log(self);
    if (log == NULL) {
        return NULL;
    }
    return dealt(self, log, uno_new(&self->state, players, &rules, seed, log));
}

static PyObject *State_deal(PyObject *cls, PyObject *args) {
    int players, dealer;
    PyObject *rules_tuple, *deck_list;
    long long seed;
    (void)cls;
    if (!PyArg_ParseTuple(args, "iOLiO", &players, &rules_tuple, &seed, &dealer, &deck_list)) {
        return NULL;
    }
    uno_rules rules;
    if (players < 2 || players > MAX_PLAYERS || dealer < 0 || dealer >= players) {
        PyErr_SetString(PyExc_ValueError, "players must be from 2 to 10, dealer one of them");
        return NULL;
    }
    uint8_t deck[MAX_CARDS], count;
    int total = 0;
    if (read_rules(rules_tuple, &rules) < 0 || read_cards(deck_list, deck, &count, &total) < 0) {
        return NULL;
    }
    StateObject *self = new_state();
    if (self == NULL) {
        return NULL;
    }
    uno_log *log = new_log(self);
    if (log == NULL) {
        return NULL;
    }
    return dealt(self, log, uno_deal(&self->state, players, &rules, seed, dealer, deck, count,
                                     log));
}

static PyObject *State_load(PyObject *cls, PyObject *args) {
    int players;
    long long seed;
    long shuffles, color, direction, turn, dealer, winner, game_winner;
    PyObject *rules_tuple, *hands, *draw, *discard, *scores, *pending, *uno, *catchable;
    PyObject *o_color, *o_direction, *o_turn, *o_dealer, *o_winner, *o_game_winner;
    (void)cls;
    if (!PyArg_ParseTuple(args, "iOLlOOOOOOOOOOOOO", &players, &rules_tuple, &seed, &shuffles,
                          &hands, &draw, &discard, &o_color, &o_direction, &o_turn, &o_dealer,
                          &scores, &pending, &uno, &catchable, &o_winner, &o_game_winner)) {
        return NULL;
    }
    uno_rules rules;
    if (players < 2 || players > MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "players must be from 2 to 10");
        return NULL;
    }
    if (read_rules(rules_tuple, &rules) < 0 || shuffles < 0
        || read_int(o_color, -1, 3, &color, "color") < 0
        || read_int(o_direction, -1, 1, &direction, "direction") < 0
        || read_int(o_turn, 0, players - 1, &turn, "turn") < 0
        || read_int(o_dealer, 0, players - 1, &dealer, "dealer") < 0
        || read_int(o_winner, -1, players - 1, &winner, "winner") < 0
        || read_int(o_game_winner, -1, players - 1, &game_winner, "game_winner") < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "shuffles must be >= 0");
        }
        return NULL;
    }
    if (direction == 0) {
        PyErr_SetString(PyExc_ValueError, "direction must be 1 or -1");
        return NULL;
    }
    StateObject *self = new_state();
    if (self == NULL) {
        return NULL;
    }
    uno_state *s = &self->state;
    uno_init(s, players, &rules, seed);
    s->shuffles = (int32_t)shuffles;
    int total = 0;
    if (!PyList_Check(hands) || PyList_GET_SIZE(hands) != players) {
        PyErr_SetString(PyExc_ValueError, "hands must be a list with one list per seat");
        goto fail;
    }
    for (int seat = 0; seat < players; seat++) {
        if (read_cards(PyList_GET_ITEM(hands, seat), s->hand[seat], &s->hand_len[seat],
                       &total) < 0) {
            goto fail;
        }
        uno_hand_changed(s, seat);
    }
    if (read_cards(draw, s->draw, &s->draw_len, &total) < 0
        || read_cards(discard, s->discard, &s->discard_len, &total) < 0) {
        goto fail;
    }
    s->color = (int8_t)color;
    s->direction = (int8_t)direction;
    s->turn = (int8_t)turn;
    s->dealer = (int8_t)dealer;
    s->winner = (int8_t)winner;
    s->game_winner = (int8_t)game_winner;
    if (!PyList_Check(scores) || PyList_GET_SIZE(scores) != players) {
        PyErr_SetString(PyExc_ValueError, "scores must be a list with one int per seat");
        goto fail;
    }
    for (int seat = 0; seat < players; seat++) {
        long score;
        if (read_int(PyList_GET_ITEM(scores, seat), 0, 1000000000, &score, "score") < 0) {
            goto fail;
        }
        s->scores[seat] = (int32_t)score;
    }
    if (!PyTuple_Check(pending) || PyTuple_GET_SIZE(pending) != 6) {
        PyErr_SetString(PyExc_ValueError, "pending must be (kind, by, color, guilty, card, amount)");
        goto fail;
    }
    {
        long kind, by, pcolor, guilty, card, amount;
        if (read_int(PyTuple_GET_ITEM(pending, 0), P_NONE, P_STACK, &kind, "pending kind") < 0
            || read_int(PyTuple_GET_ITEM(pending, 1), -1, players - 1, &by, "pending by") < 0
            || read_int(PyTuple_GET_ITEM(pending, 2), -1, 3, &pcolor, "pending color") < 0
            || read_int(PyTuple_GET_ITEM(pending, 3), 0, 1, &guilty, "pending guilty") < 0
            || read_int(PyTuple_GET_ITEM(pending, 4), -1, NUM_CARDS - 1, &card, "card") < 0
            || read_int(PyTuple_GET_ITEM(pending, 5), 0, 10000, &amount, "amount") < 0) {
            goto fail;
        }
        if ((kind == P_STACK && s->discard_len == 0)
            || (kind == P_CHALLENGE && by < 0)
            || (kind == P_DRAWN && card < 0)) {
            PyErr_SetString(PyExc_ValueError, "pending decision without what it needs");
            goto fail;
        }
        s->pending.kind = (uint8_t)kind;
        s->pending.by = (int8_t)by;
        s->pending.color = (int8_t)pcolor;
        s->pending.guilty = (uint8_t)guilty;
        s->pending.card = (int8_t)card;
        s->pending.amount = (int16_t)amount;
    }
    {
        int seats[MAX_PLAYERS], count;
        if (read_seats(uno, players, seats, &count) < 0) {
            goto fail;
        }
        for (int i = 0; i < count; i++) {
            s->uno |= (uint16_t)(1u << seats[i]);
        }
        if (read_seats(catchable, players, seats, &count) < 0) {
            goto fail;
        }
        for (int i = 0; i < count; i++) {
            s->catchable |= (uint16_t)(1u << seats[i]);
        }
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static PyObject *State_export(StateObject *self, PyObject *unused) {
    const uno_state *s = &self->state;
    (void)unused;
    PyObject *hands = PyList_New(s->players);
    PyObject *scores = PyList_New(s->players);
    PyObject *uno = PyList_New(0), *catchable = PyList_New(0);
    if (hands == NULL || scores == NULL || uno == NULL || catchable == NULL) {
        goto fail;
    }
    for (int seat = 0; seat < s->players; seat++) {
        PyObject *hand = bytes_list(s->hand[seat], s->hand_len[seat]);
        if (hand == NULL) {
            goto fail;
        }
        PyList_SET_ITEM(hands, seat, hand);
        PyList_SET_ITEM(scores, seat, PyLong_FromLong(s->scores[seat]));
        PyObject *number = PyLong_FromLong(seat);
        if (number == NULL) {
            goto fail;
        }
        if ((s->uno >> seat & 1) && PyList_Append(uno, number) < 0) {
            Py_DECREF(number);
            goto fail;
        }
        if ((s->catchable >> seat & 1) && PyList_Append(catchable, number) < 0) {
            Py_DECREF(number);
            goto fail;
        }
        Py_DECREF(number);
    }
    PyObject *draw = bytes_list(s->draw, s->draw_len);
    PyObject *discard = bytes_list(s->discard, s->discard_len);
    return Py_BuildValue(
        "{s:i,s:i,s:N,s:N,s:N,s:i,s:i,s:i,s:i,s:N,s:(iiiiii),s:N,s:N,s:i,s:i}",
        "players", s->players, "shuffles", (int)s->shuffles, "hands", hands, "draw", draw,
        "discard", discard, "color", s->color, "direction", s->direction, "turn", s->turn,
        "dealer", s->dealer, "scores", scores, "pending", s->pending.kind, s->pending.by,
        s->pending.color, s->pending.guilty, s->pending.card, s->pending.amount,
        "uno", uno, "catchable", catchable, "winner", s->winner,
        "game_winner", s->game_winner);
fail:
    Py_XDECREF(hands);
    Py_XDECREF(scores);
    Py_XDECREF(uno);
    Py_XDECREF(catchable);
    return NULL;
}

static PyObject *codes_list(const int32_t *moves, int n) {
    PyObject *list = PyList_New(n);
    if (list == NULL) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyList_SET_ITEM(list, i, PyLong_FromLong(moves[i]));
    }
    return list;
}

static PyObject *State_legal_moves(StateObject *self, PyObject *arg) {
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) {
        return NULL;
    }
    int32_t moves[MAX_MOVES];
    int n = uno_legal_moves(&self->state, (int)seat, moves);
    return codes_list(moves, n);
}

static PyObject *State_push(StateObject *self, PyObject *args) {
    int seat, events = 1;
    long code;
    if (!PyArg_ParseTuple(args, "il|p", &seat, &code, &events)) {
        return NULL;
    }
    int32_t moves[MAX_MOVES];
    int n = uno_legal_moves(&self->state, seat, moves), legal = 0;
    for (int i = 0; i < n && !legal; i++) {
        legal = moves[i] == code;
    }
    if (!legal) {
        PyErr_Format(PyExc_ValueError, "move %ld is not legal for seat %d now", code, seat);
        return NULL;
    }
    uno_log *log = NULL;
    if (events) {
        log = PyMem_Malloc(sizeof *log);
        if (log == NULL) {
            return PyErr_NoMemory();
        }
        log->length = 0;
        log->enabled = 1;
        log->overflow = 0;
    }
    if (uno_apply(&self->state, seat, (int32_t)code, log) < 0) {
        PyMem_Free(log);
        PyErr_SetString(PyExc_RuntimeError, "the core met a broken invariant");
        return NULL;
    }
    if (!events) {
        Py_RETURN_NONE;
    }
    PyObject *result = uno_log_events(log);
    PyMem_Free(log);
    return result;
}

static PyObject *State_next_round(StateObject *self, PyObject *unused) {
    (void)unused;
    if (self->state.winner < 0 || self->state.game_winner >= 0) {
        PyErr_SetString(PyExc_ValueError, "no next round now");
        return NULL;
    }
    uno_log *log = PyMem_Malloc(sizeof *log);
    if (log == NULL) {
        return PyErr_NoMemory();
    }
    log->length = 0;
    log->enabled = 1;
    log->overflow = 0;
    if (uno_next_round(&self->state, log) < 0) {
        PyMem_Free(log);
        PyErr_SetString(PyExc_ValueError, "this deal cannot be made");
        return NULL;
    }
    PyObject *result = uno_log_events(log);
    PyMem_Free(log);
    return result;
}

static PyObject *State_copy(StateObject *self, PyObject *unused) {
    (void)unused;
    StateObject *other = new_state();
    if (other != NULL) {
        other->state = self->state;
    }
    return (PyObject *)other;
}

static PyObject *State_random_round(StateObject *self, PyObject *args) {
    unsigned long long seed;
    long max_moves = 100000;
    if (!PyArg_ParseTuple(args, "K|l", &seed, &max_moves)) {
        return NULL;
    }
    py_random rng;
    py_random_seed_u64(&rng, seed);
    long made = uno_random_round(&self->state, &rng, max_moves);
    if (made < 0) {
        PyErr_Format(PyExc_RuntimeError, "the round did not end within %ld moves", max_moves);
        return NULL;
    }
    return PyLong_FromLong(made);
}

static PyObject *State_heuristic_move(StateObject *self, PyObject *arg) {
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (seat != self->state.turn || self->state.winner >= 0) {
        PyErr_SetString(PyExc_ValueError, "only the player to act, in a round not over");
        return NULL;
    }
    return PyLong_FromLong(uno_heuristic_move(&self->state, (int)seat));
}

static PyObject *State_medium_move(StateObject *self, PyObject *arg) {
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (seat != self->state.turn || self->state.winner >= 0) {
        PyErr_SetString(PyExc_ValueError, "only the player to act, in a round not over");
        return NULL;
    }
    int32_t moves[MAX_MOVES];
    int n = uno_legal_moves(&self->state, (int)seat, moves);
    return PyLong_FromLong(uno_medium_move(&self->state, (int)seat, moves, n));
}

static PyObject *State_search_step(StateObject *self, PyObject *args) {
    long seat;
    int medium = 0;
    if (!PyArg_ParseTuple(args, "l|p", &seat, &medium)) {
        return NULL;
    }
    if (seat < 0 || seat >= self->state.players) {
        PyErr_SetString(PyExc_ValueError, "no such seat");
        return NULL;
    }
    if (medium && self->state.winner >= 0) {
        PyErr_SetString(PyExc_ValueError, "the round is over");
        return NULL;
    }
    int32_t moves[MAX_MOVES], policy;
    int n = uno_search_step(&self->state, (int)seat, medium, moves, &policy);
    return Py_BuildValue("(Nl)", codes_list(moves, n), (long)policy);
}

/* (plies made, rewards by seat) of a rollout: the greedy heuristic's or medium's. */
static PyObject *rollout_result(StateObject *self, PyObject *args, int medium) {
    int plies;
    double sharpness;
    if (!PyArg_ParseTuple(args, "id", &plies, &sharpness)) {
        return NULL;
    }
    double rewards[MAX_PLAYERS];
    int made = uno_rollout_rewards(&self->state, medium, plies, sharpness, rewards);
    if (made < 0) {
        PyErr_SetString(PyExc_RuntimeError, "the core met a broken invariant");
        return NULL;
    }
    PyObject *values = PyList_New(self->state.players);
    if (values == NULL) {
        return NULL;
    }
    for (int seat = 0; seat < self->state.players; seat++) {
        PyList_SET_ITEM(values, seat, PyFloat_FromDouble(rewards[seat]));
    }
    return Py_BuildValue("(iN)", made, values);
}

static PyObject *State_rollout(StateObject *self, PyObject *args) {
    return rollout_result(self, args, 0);
}

static PyObject *State_medium_rollout(StateObject *self, PyObject *args) {
    return rollout_result(self, args, 1);
}

static PyObject *State_hand_sizes(StateObject *self, PyObject *unused) {
    (void)unused;
    return bytes_list(self->state.hand_len, self->state.players);
}

static PyObject *State_get_turn(StateObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->state.turn);
}

static PyObject *State_get_winner(StateObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->state.winner);
}

static PyObject *State_get_direction(StateObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->state.direction);
}

static PyObject *State_get_game_winner(StateObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->state.game_winner);
}

static PyObject *State_get_players(StateObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->state.players);
}

static PyMethodDef State_methods[] = {
    {"new", State_new_game, METH_VARARGS | METH_CLASS,
     "new(players, rules, seed): Game.new in the core; (state, start events)."},
    {"deal", State_deal, METH_VARARGS | METH_CLASS,
     "(players, rules, seed, dealer, deck top first): Game.deal's round and start events."},
    {"load", State_load, METH_VARARGS | METH_CLASS,
     "load(players, rules, seed, shuffles, hands, draw, discard, color, direction, turn, "
     "dealer, scores, pending, uno, catchable, winner, game_winner): a checked state."},
    {"export", (PyCFunction)State_export, METH_NOARGS, "Every field, as a dict."},
    {"legal_moves", (PyCFunction)State_legal_moves, METH_O, "Move codes of a seat."},
    {"push", (PyCFunction)State_push, METH_VARARGS,
     "push(seat, code, events=True): apply a legal move; its events as tuples."},
    {"next_round", (PyCFunction)State_next_round, METH_NOARGS, "Deal the next round."},
    {"copy", (PyCFunction)State_copy, METH_NOARGS, "An independent copy."},
    {"random_round", (PyCFunction)State_random_round, METH_VARARGS,
     "random_round(seed, max_moves=100000): engine.playout.play_random_round exactly."},
    {"heuristic_move", (PyCFunction)State_heuristic_move, METH_O,
     "The rollout policy's move for the player to act."},
    {"medium_move", (PyCFunction)State_medium_move, METH_O,
     "bots.medium_policy.medium_move: the flat search's rollout move of the player to act."},
    {"search_step", (PyCFunction)State_search_step, METH_VARARGS,
     "search_step(seat, medium=False): (search moves, tree-policy move) of a seat."},
    {"rollout", (PyCFunction)State_rollout, METH_VARARGS,
     "rollout(plies, sharpness): (plies made, rewards by seat)."},
    {"medium_rollout", (PyCFunction)State_medium_rollout, METH_VARARGS,
     "medium_rollout(plies, sharpness): the same, every seat playing medium_move."},
    {"hand_sizes", (PyCFunction)State_hand_sizes, METH_NOARGS, "Cards held by seat."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef State_getset[] = {
    {"turn", (getter)State_get_turn, NULL, "The seat to act.", NULL},
    {"winner", (getter)State_get_winner, NULL, "The round's winner or -1.", NULL},
    {"players", (getter)State_get_players, NULL, "Number of seats.", NULL},
    {"direction", (getter)State_get_direction, NULL, "1 or -1 (R3.3).", NULL},
    {"game_winner", (getter)State_get_game_winner, NULL, "The match's winner or -1.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "unogame.native._core.State",
    .tp_basicsize = sizeof(StateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A compact UNO state (see unogame.native).",
    .tp_methods = State_methods,
    .tp_getset = State_getset,
};

/* ------------------------------------------------------------------ batches */

static PyObject *random_rounds(PyObject *module, PyObject *args) {
    int players;
    PyObject *rules_tuple;
    unsigned long long first_seed;
    long count, max_moves = 100000;
    int stream = 0;
    (void)module;
    if (!PyArg_ParseTuple(args, "iOKl|lp", &players, &rules_tuple, &first_seed, &count,
                          &max_moves, &stream)) {
        return NULL;
    }
    uno_rules rules;
    if (players < 2 || players > MAX_PLAYERS || count < 0) {
        PyErr_SetString(PyExc_ValueError, "players must be from 2 to 10, count >= 0");
        return NULL;
    }
    if (read_rules(rules_tuple, &rules) < 0) {
        return NULL;
    }
    if (first_seed > (unsigned long long)INT64_MAX - (unsigned long long)count) {
        PyErr_SetString(PyExc_OverflowError, "seeds out of range");
        return NULL;
    }
    long wins[MAX_PLAYERS] = {0};
    long long moves = 0;
    int failed = 0;
    uno_state *state = PyMem_RawMalloc(sizeof *state);
    if (state == NULL) {
        return PyErr_NoMemory();
    }
    /* the policy's generator, then the deals' first generators, seeded a batch at a time */
    py_random *rng = PyMem_RawMalloc(sizeof *rng * (1 + PY_RANDOM_LANES));
    if (rng == NULL) {
        PyMem_RawFree(state);
        return PyErr_NoMemory();
    }
    py_random *deal_rngs = rng + 1;
    Py_BEGIN_ALLOW_THREADS
    py_random_seed_u64(rng, first_seed);
    for (long i = 0; i < count && !failed; i++) {
        unsigned long long seed = first_seed + (unsigned long long)i;
        int lane = (int)(i % PY_RANDOM_LANES);
        if (lane == 0) {
            long left = count - i;
            uno_first_rngs((int64_t)seed, left < PY_RANDOM_LANES ? (int)left : PY_RANDOM_LANES,
                           deal_rngs);
        }
        if (uno_new_seeded(state, players, &rules, (int64_t)seed, deal_rngs + lane, NULL) < 0) {
            failed = 1;
            break;
        }
        if (!stream && i) {
            py_random_seed_u64(rng, seed);
        }
        long made = uno_random_round(state, rng, max_moves);
        if (made < 0) {
            failed = 2;
            break;
        }
        moves += made;
        wins[state->winner]++;
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(state);
    PyMem_RawFree(rng);
    if (failed) {
        PyErr_SetString(failed == 1 ? PyExc_ValueError : PyExc_RuntimeError,
                        failed == 1 ? "this deal cannot be made" : "a round did not end");
        return NULL;
    }
    PyObject *by_seat = PyList_New(players);
    if (by_seat == NULL) {
        return NULL;
    }
    for (int seat = 0; seat < players; seat++) {
        PyList_SET_ITEM(by_seat, seat, PyLong_FromLong(wins[seat]));
    }
    return Py_BuildValue("(LN)", moves, by_seat);
}

/* For the tests: the iteration order of a CPython set after adds (0), discards (1) and
 * clears (2) of ints 0..55. */
static PyObject *set_order(PyObject *module, PyObject *ops) {
    (void)module;
    if (!PyList_Check(ops)) {
        PyErr_SetString(PyExc_TypeError, "a list of (op, key)");
        return NULL;
    }
    small_set set;
    set_clear(&set);
    int distinct = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(ops); i++) {
        int op, key;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(ops, i), "ii", &op, &key)) {
            return NULL;
        }
        if (key < 0 || key >= NUM_CARDS || op < 0 || op > 2) {
            PyErr_SetString(PyExc_ValueError, "op 0..2, key 0..55");
            return NULL;
        }
        if (op == 0) {
            distinct += !set_contains(&set, key);
            if (distinct > 56) {
                break;
            }
            set_add(&set, key);
        } else if (op == 1) {
            distinct -= set_contains(&set, key);
            set_discard(&set, key);
        } else {
            set_clear(&set);
            distinct = 0;
        }
    }
    PyObject *out = PyList_New(0);
    for (int i = 0; out != NULL && i <= set.mask; i++) {
        if (set.key[i] >= 0) {
            PyObject *number = PyLong_FromLong(set.key[i]);
            PyList_Append(out, number);
            Py_DECREF(number);
        }
    }
    return out;
}

static PyMethodDef module_methods[] = {
    {"random_rounds", random_rounds, METH_VARARGS,
     "random_rounds(players, rules, first_seed, count, max_moves=100000, stream=False): "
     "Game.new(seed) and play_random_round(Random(seed)) for each seed, without the GIL; "
     "with stream, one Random(first_seed) makes the random choices of every round (as "
     "RLCard's loop does); (moves, wins by seat)."},
    {"search", core_search, METH_VARARGS,
     "search(base, seat, options, pool, hand_sizes, known, limits, named, draw_pile, "
     "challenge, exploration, sharpness, plies, widening, opponent_widening, budget, "
     "iterations, deadline, "
     "rng_state): bots.ismcts.HardBot.search without the GIL; rng_state is "
     "random.Random.getstate()[1]; (iterations, visits, rewards, new rng_state)."},
    {"set_order", set_order, METH_O, "Iteration order of a CPython set (for the tests)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "The compiled UNO core (see unogame.native).", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&StateType) < 0) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL) {
        return NULL;
    }
    Py_INCREF(&StateType);
    if (PyModule_AddObject(module, "State", (PyObject *)&StateType) < 0) {
        Py_DECREF(&StateType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
