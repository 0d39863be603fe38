/* What the two parts of unogame.native._envobs share: the core's State object as _core
 * lays it out (bind() checks its size), the observation's layout, and the writer of one
 * seat's view part of an observation (envobs.c) that the stepper (envstep.c) calls. */
#ifndef UNO_ENVOBS_H
#define UNO_ENVOBS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

typedef struct {
    PyObject_HEAD
    uno_state state;
} StateObject; /* _core's State (module.c) */

enum {
    O_HAND, O_TOP, O_COLOR, O_DIRECTION, O_PENDING, O_PENDING_AMOUNT, O_PENDING_DRAWN,
    O_PENDING_BY, O_TO_ACT, O_SEATS, O_DISCARD, O_PLAYED, O_DRAW_PILE, O_RULES, O_RULES_LEN,
    O_SIZE, O_SEAT_WIDTH, O_HIGH, O_KNOWN, O_COUNT
};

#define MAX_RULES_LEN 256

extern PyTypeObject *envobs_state_type;
extern long envobs_layout[O_COUNT];

/* Every section of seat's observation but "known" (left zero), into obs (layout[O_SIZE]
 * floats): the view's fields, played (capped at layout[O_HIGH]) and the rules part. */
void envobs_write(const uno_state *s, int seat, float *obs, const float *played,
                  const float *rules);
/* A float32 buffer of length floats (writable or not); -1 with an error set. */
int envobs_float_buffer(PyObject *object, Py_buffer *view, long length, int writable,
                        const char *what);
/* Adds the Stepper type and code_to_action to the module (envstep.c). */
int envstep_register(PyObject *module);

#endif
