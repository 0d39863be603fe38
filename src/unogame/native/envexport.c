/* The C step read out to Python: lists of ints, a step's events as tuples, the memories. */
#include "envstep.h"

PyObject *env_int_list(const int32_t *values, int n) {
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


/* What the Python path needs to take over (UnoCore leaves the C step). */
PyObject *env_memory(const Stepper *self) {
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
