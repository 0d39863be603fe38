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

#include "envstep.h"

static PyTypeObject StepperType;

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
        Py_XDECREF(self->masks[i]);
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
    env_forget(self);
    self->log.length = 0;
    env_reaction_order(self);
    if (env_next_decision(self) < 0) {
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
        if (move_kind(code) == K_PLAY && env_may_swap(self, code)) {
            env_take_hands(self);
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
        env_observe_log(self);
        if (s->winner >= 0) {
            self->seat = -1;
            return PyLong_FromLong(STEP_ROUND_OVER);
        }
        env_trim(self);
        if (self->on_turn || move_kind(code) <= K_COLOR) { /* a new moment to react to */
            env_reaction_order(self);
        }
    }
    if (self->steps >= self->max_steps) {
        self->seat = -1;
        return PyLong_FromLong(STEP_TRUNCATED);
    }
    if (env_next_decision(self) < 0) {
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
        PyObject *array = self->masks[self->mask_at];
        Py_INCREF(array);
        return array;
    }
    int at = -1;
    for (int i = 0; i < MASK_POOL && at < 0; i++) {
        if (self->masks[i] == NULL || Py_REFCNT(self->masks[i]) == 1) {
            at = i;
        }
    }
    if (at < 0) { /* every array is held elsewhere: let one go, make a new one */
        at = 0;
        Py_CLEAR(self->masks[0]);
    }
    if (self->masks[at] == NULL) {
        self->masks[at] = PyObject_CallNoArgs(self->new_mask);
        if (self->masks[at] == NULL) {
            return NULL;
        }
    }
    PyObject *array = self->masks[at];
    Py_buffer view;
    if (PyObject_GetBuffer(array, &view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        Py_CLEAR(self->masks[at]);
        return NULL;
    }
    if (view.len != NUM_ACTIONS || view.itemsize != 1) {
        PyBuffer_Release(&view);
        Py_CLEAR(self->masks[at]);
        PyErr_SetString(PyExc_ValueError, "new_mask must give an int8 array of every action");
        return NULL;
    }
    int8_t *ones = view.buf;
    memset(ones, 0, NUM_ACTIONS); /* all of it: whatever was done to it while handed out */
    int count = self->seat < 0 ? 0 : self->count;
    for (int i = 0; i < count; i++) {
        ones[self->actions[i]] = 1;
    }
    PyBuffer_Release(&view);
    self->mask_at = at;
    Py_INCREF(array);
    return array;
}

/* actions(): the decision's legal actions, ascending (off turn, no reaction last). */
static PyObject *Stepper_actions(Stepper *self, PyObject *unused) {
    (void)unused;
    return env_int_list(self->actions, self->seat < 0 ? 0 : self->count);
}

/* codes(): the decision's legal move codes, in the core's order (the engine's). */
static PyObject *Stepper_codes(Stepper *self, PyObject *unused) {
    (void)unused;
    int n = self->seat < 0 ? 0 : self->count - (self->on_turn ? 0 : 1);
    return env_int_list(self->legal, n);
}

static PyObject *Stepper_raw_events(Stepper *self, PyObject *unused) {
    (void)unused;
    return uno_log_events(&self->log);
}

static PyObject *Stepper_memory(Stepper *self, PyObject *unused) {
    (void)unused;
    return env_memory(self);
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
        other->masks[i] = NULL;
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

/* env_code_to_action(code, seat, players): the C table's action of a move code (-1: none). */
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
    return PyLong_FromLong(env_code_to_action((int32_t)code, seat, players));
}

static PyMethodDef step_functions[] = {
    {"code_to_action", py_code_to_action, METH_VARARGS,
     "env_code_to_action(code, seat, players): the Stepper's action of a move (-1: none)."},
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
