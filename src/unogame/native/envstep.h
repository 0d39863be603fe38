/* The environment's C step (unogame.native._envobs.Stepper): its state and the parts the
 * files share. envturns.c reads the decisions (legal actions as action ids, the reaction
 * order), envmemory.c keeps the seats' memories, envexport.c reads them out to Python,
 * envstep.c is the Python type. */
#ifndef UNO_ENVSTEP_H
#define UNO_ENVSTEP_H

#include "envobs.h"
#include "pyevents.h"

#define NO_REACTION 282
#define WC_BASE 283
#define MASK_POOL 4
#define NUM_ACTIONS (WC_BASE + 4 * 5700)

enum { STEP_ROUND_OVER = -1, STEP_ILLEGAL = -2, STEP_TRUNCATED = -4 };

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
    PyObject *masks[MASK_POOL]; /* int8 arrays of NUM_ACTIONS (or NULL) to write again */
    int mask_at;              /* the one holding this decision's mask, or -1 */
    uno_log log;              /* the last step's events */
} Stepper;

static inline uno_state *state_of(Stepper *self) {
    return &((StateObject *)self->state_object)->state;
}

/* unogame.env.actions.code_to_action, by the table's formula; -1 for a move without one. */
int env_code_to_action(int32_t code, int seat, int players);
/* Whether a jump-in may be open now, from public fields only (every other seat reacts). */
int env_jump_window(const uno_state *s);
/* seat decides now if it has a legal move, a jump-in may be open, or it is its turn; 0 if
 * not, -1 on error. */
int env_set_decision(Stepper *self, int seat, int on_turn);
/* table.reaction_order without delays, into the queue. */
void env_reaction_order(Stepper *self);
/* The next seat in the queue with a move, else the player to act; -1 on error. */
int env_next_decision(Stepper *self);
/* Whether a play may swap or pass hands (UnoCore._may_swap). */
int env_may_swap(Stepper *self, int32_t code);

/* A new round: no seat knows a card of another. */
void env_forget(Stepper *self);
/* Before a move that may swap or pass hands: every seat knows its own hand. */
void env_take_hands(Stepper *self);
/* The events of the last move (self->log), each seat reading its own part. */
void env_observe_log(Stepper *self);
/* After a move: a seat knows no more cards of a hand than it holds. */
void env_trim(Stepper *self);

PyObject *env_int_list(const int32_t *values, int n);
/* (played, known, has_known, reaction queue left). */
PyObject *env_memory(const Stepper *self);

#endif
