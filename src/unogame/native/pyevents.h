/* A core event log read out to Python, shared by both extensions (_core, _envobs). */
#ifndef UNO_PYEVENTS_H
#define UNO_PYEVENTS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

/* Events as tuples: (type, fields...), the cards of draw, discard and challenge events as
 * a tuple at the end; a RuntimeError if the log overflowed. */
PyObject *uno_log_events(const uno_log *log);

#endif
