/* unogame.native._envobs: the environment's observation of one seat, written straight
 * from a core state (unogame.env.encoder; docs/ENV.md, "Observation").
 *
 * It reads only what the seat's view shows: its own hand, the other hands' sizes, the
 * piles (the draw pile's size), the public fields and the part of a pending decision the
 * seat may see (D7, D8). The sections that come from the seat's memory (played, known) and
 * the rule set are filled by the caller's buffers. The layout (section offsets) is handed
 * in once by bind(), so it is defined in one place (unogame.env.observation).
 *
 * A separate module from _core: it reads _core's State objects, whose layout (PyObject_HEAD
 * then a uno_state, core.h) bind() checks against the type's size. */
#include <string.h>

#include "envobs.h"

PyTypeObject *envobs_state_type = NULL;
long envobs_layout[O_COUNT];
/* Observation index of each core pending kind (P_NONE, P_CHALLENGE, P_DRAWN, P_COLOR,
 * P_STACK) in the observation's order (none, color, drawn, challenge, stack). */
static const int PENDING_INDEX[5] = {0, 3, 2, 1, 4};

static PyObject *bind(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *type, *offsets;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &type, &PyTuple_Type, &offsets)) {
        return NULL;
    }
    if (((PyTypeObject *)type)->tp_basicsize != (Py_ssize_t)sizeof(StateObject)) {
        PyErr_SetString(PyExc_TypeError, "the core's State has another layout");
        return NULL;
    }
    if (PyTuple_GET_SIZE(offsets) != O_COUNT) {
        PyErr_Format(PyExc_ValueError, "the layout must hold %d ints", O_COUNT);
        return NULL;
    }
    for (int i = 0; i < O_COUNT; i++) {
        long value = PyLong_AsLong(PyTuple_GET_ITEM(offsets, i));
        if (value < 0 || value > 100000) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "layout value out of range");
            }
            return NULL;
        }
        envobs_layout[i] = value;
    }
    if (envobs_layout[O_SIZE] < envobs_layout[O_RULES] + envobs_layout[O_RULES_LEN]
        || envobs_layout[O_RULES_LEN] > MAX_RULES_LEN
        || envobs_layout[O_SIZE] < envobs_layout[O_KNOWN] + (MAX_PLAYERS - 1) * NUM_CARDS) {
        PyErr_SetString(PyExc_ValueError, "the rules part lies outside the observation");
        return NULL;
    }
    Py_INCREF(type);
    Py_XDECREF((PyObject *)envobs_state_type);
    envobs_state_type = (PyTypeObject *)type;
    Py_RETURN_NONE;
}

int envobs_float_buffer(PyObject *object, Py_buffer *view, long length, int writable,
                        const char *what) {
    if (PyObject_GetBuffer(object, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT
                           | (writable ? PyBUF_WRITABLE : 0)) < 0) {
        return -1;
    }
    if (view->itemsize != 4 || view->format == NULL || strcmp(view->format, "f") != 0
        || view->len != length * 4) {
        PyErr_Format(PyExc_ValueError, "%s must be %ld float32", what, length);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

void envobs_write(const uno_state *s, int seat, float *obs, const float *played,
                  const float *rules) {
    const int players = s->players;
    memset(obs, 0, (size_t)envobs_layout[O_SIZE] * sizeof(float));
    for (int i = 0; i < s->hand_len[seat]; i++) {
        obs[envobs_layout[O_HAND] + s->hand[seat][i]] += 1.0f;
    }
    if (s->discard_len > 0) {
        obs[envobs_layout[O_TOP] + s->discard[s->discard_len - 1]] = 1.0f;
        for (int i = 0; i < s->discard_len; i++) {
            obs[envobs_layout[O_DISCARD] + s->discard[i]] += 1.0f;
        }
    }
    if (s->color >= 0 && s->color < 4) {
        obs[envobs_layout[O_COLOR] + s->color] = 1.0f;
    }
    obs[envobs_layout[O_DIRECTION]] = s->direction == 1 ? 1.0f : 0.0f;
    const uno_pending *pending = &s->pending;
    int kind = pending->kind < 5 ? pending->kind : 0;
    obs[envobs_layout[O_PENDING] + PENDING_INDEX[kind]] = 1.0f;
    if (kind == P_CHALLENGE || kind == P_STACK) {
        obs[envobs_layout[O_PENDING_AMOUNT]] = (float)(pending->amount / 10.0);
    }
    if (kind == P_DRAWN && seat == s->turn && pending->card >= 0) {
        obs[envobs_layout[O_PENDING_DRAWN] + pending->card] = 1.0f;
    }
    if (kind == P_CHALLENGE && pending->by >= 0) {
        obs[envobs_layout[O_PENDING_BY] + (pending->by - seat + players) % players] = 1.0f;
    }
    obs[envobs_layout[O_TO_ACT] + (s->turn - seat + players) % players] = 1.0f;
    const double target = s->rules.target_score;
    for (int offset = 0; offset < players; offset++) {
        int other = (seat + offset) % players;
        float *row = obs + envobs_layout[O_SEATS] + offset * envobs_layout[O_SEAT_WIDTH];
        row[0] = 1.0f;
        row[1] = (float)(s->hand_len[other] / 10.0);
        row[2] = (s->uno >> other & 1) ? 1.0f : 0.0f;
        row[3] = (s->catchable >> other & 1) ? 1.0f : 0.0f;
        double share = s->scores[other] / target;
        row[4] = (float)(share < 1.0 ? share : 1.0);
    }
    const float high = (float)envobs_layout[O_HIGH];
    for (int card = 0; card < NUM_CARDS; card++) {
        obs[envobs_layout[O_PLAYED] + card] = played[card] < high ? played[card] : high;
    }
    obs[envobs_layout[O_DRAW_PILE]] = (float)(s->draw_len / 112.0);
    memcpy(obs + envobs_layout[O_RULES], rules,
           (size_t)envobs_layout[O_RULES_LEN] * sizeof(float));
}

/* encode(state, seat, out, played, rules): the observation of seat into out. */
static PyObject *encode(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state_object, *out_object, *played_object, *rules_object;
    int seat;
    if (envobs_state_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "bind() first");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!iOOO", envobs_state_type, &state_object, &seat, &out_object,
                          &played_object, &rules_object)) {
        return NULL;
    }
    const uno_state *s = &((StateObject *)state_object)->state;
    const int players = s->players;
    if (seat < 0 || seat >= players) {
        PyErr_SetString(PyExc_ValueError, "no such seat");
        return NULL;
    }
    Py_buffer out_view, played_view, rules_view;
    if (envobs_float_buffer(out_object, &out_view, envobs_layout[O_SIZE], 1, "out") < 0) {
        return NULL;
    }
    if (envobs_float_buffer(played_object, &played_view, NUM_CARDS, 0, "played") < 0) {
        PyBuffer_Release(&out_view);
        return NULL;
    }
    if (envobs_float_buffer(rules_object, &rules_view, envobs_layout[O_RULES_LEN], 0,
                            "rules") < 0) {
        PyBuffer_Release(&out_view);
        PyBuffer_Release(&played_view);
        return NULL;
    }
    envobs_write(s, seat, out_view.buf, played_view.buf, rules_view.buf);
    PyBuffer_Release(&out_view);
    PyBuffer_Release(&played_view);
    PyBuffer_Release(&rules_view);
    Py_RETURN_NONE;
}

/* direction(state): the direction of play (the core's State has no getter for it). */
static PyObject *direction(PyObject *self, PyObject *state_object) {
    (void)self;
    if (envobs_state_type == NULL || !PyObject_TypeCheck(state_object, envobs_state_type)) {
        PyErr_SetString(PyExc_TypeError, "a core State (after bind()) is needed");
        return NULL;
    }
    return PyLong_FromLong(((StateObject *)state_object)->state.direction);
}

static PyMethodDef methods[] = {
    {"direction", direction, METH_O, "direction(state): 1 in seat order, -1 reversed."},
    {"bind", bind, METH_VARARGS, "bind(State, layout): the core's State type and the "
     "observation's section offsets."},
    {"encode", encode, METH_VARARGS, "encode(state, seat, out, played, rules): one seat's "
     "observation into out (float32), from its view's fields."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef envobs_module = {
    PyModuleDef_HEAD_INIT, "_envobs", "The environment's observation from a core state.", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__envobs(void) {
    PyObject *module = PyModule_Create(&envobs_module);
    if (module != NULL && envstep_register(module) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
