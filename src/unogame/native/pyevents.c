/* A core event log read out to Python (pyevents.h). */
#include "pyevents.h"

static PyObject *cards_tuple(const int32_t *cards, int n) {
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyTuple_SET_ITEM(tuple, i, PyLong_FromLong(cards[i]));
    }
    return tuple;
}

PyObject *uno_log_events(const uno_log *log) {
    if (log->overflow) {
        PyErr_SetString(PyExc_RuntimeError, "event log overflow");
        return NULL;
    }
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
        if (event == NULL) {
            Py_DECREF(events);
            return NULL;
        }
        PyTuple_SET_ITEM(event, 0, PyLong_FromLong(type));
        for (int i = 0; i < plain; i++) {
            PyTuple_SET_ITEM(event, 1 + i, PyLong_FromLong(fields[i]));
        }
        if (extra) {
            PyObject *cards = cards_tuple(fields + plain, count - plain);
            if (cards == NULL) {
                Py_DECREF(event);
                Py_DECREF(events);
                return NULL;
            }
            PyTuple_SET_ITEM(event, 1 + plain, cards);
        }
        if (PyList_Append(events, event) < 0) {
            Py_DECREF(event);
            Py_DECREF(events);
            return NULL;
        }
        Py_DECREF(event);
        at += 2 + count;
    }
    return events;
}
