/* The search's Python face: every value is checked before the C search sees it. */
#include "module.h"
#include "tree.h"

/* A list of at most ``most`` ints from low to high into out (as int or uint8_t). */
static int read_ints(PyObject *list, long low, long high, int most, int *out, uint8_t *bytes,
                     int *length, const char *what) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) > most) {
        PyErr_Format(PyExc_ValueError, "%s must be a list of at most %d ints", what, most);
        return -1;
    }
    int n = (int)PyList_GET_SIZE(list);
    for (int i = 0; i < n; i++) {
        long v;
        if (read_int(PyList_GET_ITEM(list, i), low, high, &v, what) < 0) {
            return -1;
        }
        if (out != NULL) {
            out[i] = (int)v;
        } else {
            bytes[i] = (uint8_t)v;
        }
    }
    *length = n;
    return 0;
}

static int read_spec(PyObject *const *items, const uno_state *base, uno_sample_spec *spec) {
    /* items: seat, pool, hand_sizes, known, limits, named, draw_pile, challenge */
    int players = base->players, n;
    long seat, draw_pile;
    if (read_int(items[0], 0, players - 1, &seat, "seat") < 0
        || read_ints(items[1], 0, NUM_CARDS - 1, MAX_CARDS, NULL, spec->pool,
                     &spec->pool_length, "pool") < 0
        || read_ints(items[2], 0, MAX_CARDS, MAX_PLAYERS, spec->hand_size, NULL, &n,
                     "hand_sizes") < 0) {
        return -1;
    }
    if (n != players || !PyList_Check(items[3]) || PyList_GET_SIZE(items[3]) != players
        || !PyList_Check(items[4]) || PyList_GET_SIZE(items[4]) != players) {
        PyErr_SetString(PyExc_ValueError, "hand_sizes, known and limits need every seat");
        return -1;
    }
    spec->seat = (int)seat;
    long total = base->discard_len + base->hand_len[seat];
    for (int other = 0; other < players; other++) {
        int length;
        if (read_ints(PyList_GET_ITEM(items[3], other), 0, NUM_CARDS - 1, MAX_CARDS, NULL,
                      spec->known[other], &spec->known_length[other], "known") < 0
            || read_ints(PyList_GET_ITEM(items[4], other), -1, MAX_CARDS, CARD_CLASSES,
                         spec->limit[other], NULL, &length, "limits") < 0) {
            return -1;
        }
        if (length != CARD_CLASSES) {
            PyErr_SetString(PyExc_ValueError, "limits: five classes a seat");
            return -1;
        }
        if (other != seat) {
            total += spec->hand_size[other];
        }
    }
    if (read_ints(items[5], -1, 3, MAX_PLAYERS, spec->named, NULL, &n, "named") < 0
        || read_int(items[6], 0, MAX_CARDS, &draw_pile, "draw_pile") < 0) {
        return -1;
    }
    if (n != players || total + draw_pile > MAX_CARDS) {
        PyErr_SetString(PyExc_ValueError, "named needs every seat; at most 128 cards in all");
        return -1;
    }
    spec->draw_pile = (int)draw_pile;
    spec->challenge = PyObject_IsTrue(items[7]);
    if (spec->challenge < 0) {
        return -1;
    }
    if (spec->challenge && (base->pending.kind != P_CHALLENGE || base->pending.by < 0
                            || base->pending.by == seat)) {
        PyErr_SetString(PyExc_ValueError, "challenge: the base holds no challenge to judge");
        return -1;
    }
    return 0;
}

/* decisions: by seat a list of (kind, colour, top, direction, sizes, move, extra, hidden), as
 * bots.belief.Decision; at most MAX_DECISIONS a seat. */
static int read_decisions(PyObject *list, int players, uno_sample_spec *spec) {
    memset(spec->decision_count, 0, sizeof spec->decision_count);
    if (list == NULL || list == Py_None) {
        return 0;
    }
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != players) {
        PyErr_SetString(PyExc_ValueError, "decisions: a list for every seat");
        return -1;
    }
    for (int seat = 0; seat < players; seat++) {
        PyObject *kept = PyList_GET_ITEM(list, seat);
        if (!PyList_Check(kept) || PyList_GET_SIZE(kept) > MAX_DECISIONS) {
            PyErr_Format(PyExc_ValueError, "decisions: at most %d a seat", MAX_DECISIONS);
            return -1;
        }
        for (int k = 0; k < (int)PyList_GET_SIZE(kept); k++) {
            PyObject *item = PyList_GET_ITEM(kept, k);
            uno_decision *d = &spec->decisions[seat][k];
            long kind, color, top, direction, move, hidden;
            int sizes[MAX_PLAYERS], n;
            if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 8) {
                PyErr_SetString(PyExc_ValueError, "a decision is an 8-tuple");
                return -1;
            }
            if (read_int(PyTuple_GET_ITEM(item, 0), K_PLAY, DECISION_VOID, &kind, "kind") < 0
                || read_int(PyTuple_GET_ITEM(item, 1), 0, 3, &color, "colour") < 0
                || read_int(PyTuple_GET_ITEM(item, 2), 0, NUM_CARDS - 1, &top, "top") < 0
                || read_int(PyTuple_GET_ITEM(item, 3), -1, 1, &direction, "direction") < 0
                || read_ints(PyTuple_GET_ITEM(item, 4), 0, MAX_CARDS, MAX_PLAYERS, sizes, NULL,
                             &n, "sizes") < 0
                || read_int(PyTuple_GET_ITEM(item, 5), 0, (1L << 19) - 1, &move, "move") < 0
                || read_ints(PyTuple_GET_ITEM(item, 6), 0, NUM_CARDS - 1, MAX_EXTRA, NULL,
                             d->extra, &d->extra_length, "extra") < 0
                || read_int(PyTuple_GET_ITEM(item, 7), 0, MAX_CARDS, &hidden, "hidden") < 0) {
                return -1;
            }
            if (n != players || (kind != K_PLAY && kind != DECISION_VOID)
                || (kind == K_PLAY && (move_kind((int32_t)move) != K_PLAY
                                       || d->extra_length == 0))) {
                PyErr_SetString(PyExc_ValueError, "decision: bad kind, move or sizes");
                return -1;
            }
            d->kind = (int)kind;
            d->color = (int)color;
            d->top = (int)top;
            d->direction = (int)direction;
            d->move = (int32_t)move;
            d->hidden = (int)hidden;
            for (int i = 0; i < players; i++) {
                d->sizes[i] = (uint8_t)sizes[i];
            }
        }
        spec->decision_count[seat] = (int)PyList_GET_SIZE(kept);
    }
    return 0;
}

static int read_rng(PyObject *tuple, py_random *rng) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "rng_state must be random.Random.getstate()[1]");
        return -1;
    }
    for (int i = 0; i < MT_N; i++) {
        unsigned long word = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(tuple, i));
        if (word == (unsigned long)-1 && PyErr_Occurred()) {
            return -1;
        }
        if (word > 0xffffffffUL) {
            PyErr_SetString(PyExc_ValueError, "rng_state: a word out of range");
            return -1;
        }
        rng->state[i] = (uint32_t)word;
    }
    long index;
    if (read_int(PyTuple_GET_ITEM(tuple, MT_N), 0, MT_N, &index, "rng_state index") < 0) {
        return -1;
    }
    rng->index = (int)index;
    rng->ready = MT_N;
    return 0;
}

static PyObject *rng_tuple(py_random *rng) {
    py_random_complete(rng);
    PyObject *tuple = PyTuple_New(MT_N + 1);
    if (tuple == NULL) {
        return NULL;
    }
    for (int i = 0; i < MT_N; i++) {
        PyObject *word = PyLong_FromUnsignedLong(rng->state[i]);
        if (word == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, word);
    }
    PyObject *index = PyLong_FromLong(rng->index);
    if (index == NULL) {
        Py_DECREF(tuple);
        return NULL;
    }
    PyTuple_SET_ITEM(tuple, MT_N, index);
    return tuple;
}

PyObject *core_search(PyObject *module, PyObject *args) {
    PyObject *base_object, *items[8], *options_list, *rng_state, *decisions = NULL;
    uno_search_params params;
    int tries = 1;
    (void)module;
    params.flat = params.medium = params.halving = 0;
    if (!PyArg_ParseTuple(args, "O!OOOOOOOOOddiiilldO|pppOi", &StateType, &base_object,
                          &items[0],
                          &options_list, &items[1], &items[2], &items[3], &items[4],
                          &items[5], &items[6], &items[7], &params.exploration,
                          &params.sharpness, &params.plies, &params.widening,
                          &params.opponent_widening, &params.budget,
                          &params.iterations, &params.deadline, &rng_state, &params.medium,
                          &params.flat, &params.halving, &decisions, &tries)) {
        return NULL;
    }
    const uno_state *base = &((StateObject *)base_object)->state;
    uno_sample_spec *spec = PyMem_RawMalloc(sizeof *spec);
    py_random *rng = PyMem_RawMalloc(sizeof *rng);
    uno_state *probe = PyMem_RawMalloc(sizeof *probe);
    int32_t options[MAX_MOVES];
    int options_int[MAX_MOVES], count = 0;
    long visits[MAX_MOVES];
    double rewards[MAX_MOVES];
    PyObject *result = NULL;
    if (spec == NULL || rng == NULL || probe == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_spec(items, base, spec) < 0 || read_rng(rng_state, rng) < 0
        || read_decisions(decisions, base->players, spec) < 0
        || read_ints(options_list, 0, (1L << 20) - 1, MAX_MOVES, options_int, NULL, &count,
                     "options") < 0) {
        goto done;
    }
    if (count == 0 || params.plies < 0 || params.widening < 0 || params.opponent_widening < -1
        || params.iterations < 0
        || base->winner >= 0) {
        PyErr_SetString(PyExc_ValueError, "nothing to search");
        goto done;
    }
    for (int i = 0; i < count; i++) {
        options[i] = options_int[i];
    }
    if (tries < 1 || tries > 1000) {
        PyErr_SetString(PyExc_ValueError, "tries: from 1 to 1000");
        goto done;
    }
    spec->tries = tries;
    spec->probe = probe;
    *probe = *base;
    long done_count;
    Py_BEGIN_ALLOW_THREADS
    done_count = (params.flat ? uno_flat_search : uno_search)(base, spec, &params, options,
                                                                count, rng, visits, rewards);
    Py_END_ALLOW_THREADS
    if (done_count < 0) {
        PyErr_SetString(done_count == -1 ? PyExc_ValueError
                        : done_count == -3 ? PyExc_MemoryError : PyExc_RuntimeError,
                        done_count == -1 ? "a root move is not legal in a determinization"
                        : done_count == -3 ? "out of memory" : "the core met a broken invariant");
        goto done;
    }
    PyObject *visit_list = PyList_New(count), *reward_list = PyList_New(count);
    PyObject *state_tuple = rng_tuple(rng);
    if (visit_list != NULL && reward_list != NULL && state_tuple != NULL) {
        for (int i = 0; i < count; i++) {
            PyList_SET_ITEM(visit_list, i, PyLong_FromLong(visits[i]));
            PyList_SET_ITEM(reward_list, i, PyFloat_FromDouble(rewards[i]));
        }
        result = Py_BuildValue("(lOOO)", done_count, visit_list, reward_list, state_tuple);
    }
    Py_XDECREF(visit_list);
    Py_XDECREF(reward_list);
    Py_XDECREF(state_tuple);
done:
    PyMem_RawFree(spec);
    PyMem_RawFree(rng);
    PyMem_RawFree(probe);
    return result;
}
