/* What the parts of the Python face share: the State object. */
#ifndef UNO_MODULE_H
#define UNO_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

typedef struct {
    PyObject_HEAD
    uno_state state;
} StateObject;

extern PyTypeObject StateType;

/* search(...): bots.ismcts.HardBot.search in the core (module_search.c). */
PyObject *core_search(PyObject *module, PyObject *args);
/* A Python int in [low, high] into *out; else a ValueError naming ``what``, -1. */
int read_int(PyObject *value, long low, long high, long *out, const char *what);

#endif
