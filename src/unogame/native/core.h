/* The compact UNO state and the rules of unogame.engine (the reference), move for move:
 * the same legal-move lists in the same order, the same chance (CPython's generator seeded
 * by "seed/shuffle count"), the same events. Fixed-size arrays, no global state. */
#ifndef UNO_CORE_H
#define UNO_CORE_H

#include <stdint.h>

#include "pyrandom.h"

#define MAX_PLAYERS 10
#define MAX_CARDS 128   /* the deck has 112; a hand-made position may hold a few more */
#define NUM_CARDS 56
#define MAX_MOVES 512
#define LOG_SIZE 4096

#define CARD_WILD 52
#define CARD_WD4 53
#define CARD_WS 54
#define CARD_WC 55
#define RANK_SKIP 10
#define RANK_REVERSE 11
#define RANK_DRAW_TWO 12

enum { K_PLAY, K_DRAW, K_PASS, K_CHALLENGE, K_ACCEPT, K_COLOR, K_UNO, K_CATCH };
enum { P_NONE, P_CHALLENGE, P_DRAWN, P_COLOR, P_STACK };
enum {
    CR_NONE, CR_OTHERS_DRAW, CR_NEXT_DRAW_SKIP, CR_SKIP, CR_PLAY_AGAIN, CR_DISCARD_COLOR,
    CR_PASS_HANDS, CR_CHOSEN_DRAW, CR_COUNT
};
enum {
    EV_PLAY, EV_SKIP, EV_DRAW, EV_SWAP, EV_PASS_HANDS, EV_CUSTOM, EV_DISCARD, EV_ROUND_OVER,
    EV_RESHUFFLE, EV_CHALLENGE, EV_ACCEPT, EV_COLOR, EV_UNO, EV_CATCH, EV_PASS, EV_DEAL
};
enum {
    R_TURN, R_STACK, R_DRAW_TWO, R_WILD_DRAW_FOUR, R_CHALLENGE, R_CUSTOM, R_UNO_PENALTY
};

typedef struct {
    int hand_size, target_score, must_play_drawn, stacking, challenge, uno_penalty;
    int two_player_reverse_skips, custom_rule, custom_count, seven_zero, jump_in;
    int draw_until_playable;
} uno_rules;

/* A set of small ints laid out as CPython's set object lays out its table, so that
 * iterating it gives CPython's order (the reference iterates sets of cards and seats). */
typedef struct {
    int8_t key[128]; /* -1 empty, -2 dummy */
    uint8_t mask, fill, used;
} small_set;

typedef struct {
    uint8_t kind, guilty;
    int8_t by, color, card;
    int16_t amount;
} uno_pending;

typedef struct {
    uno_rules rules;
    int64_t seed;
    int32_t shuffles;
    int players;
    uint8_t hand[MAX_PLAYERS][MAX_CARDS];
    uint8_t hand_len[MAX_PLAYERS];
    uint64_t held[MAX_PLAYERS]; /* bit per card in the hand: whoever writes a hand calls
                                   uno_hand_changed (core.c keeps it as it moves cards) */
    uint8_t draw[MAX_CARDS]; /* top card last */
    uint8_t draw_len;
    uint8_t discard[MAX_CARDS]; /* top card last */
    uint8_t discard_len;
    int8_t color, direction, turn, dealer, winner, game_winner;
    int32_t scores[MAX_PLAYERS];
    uno_pending pending;
    uint16_t uno; /* bit per seat */
    uint16_t catchable; /* bit per seat (the reference lists them sorted) */
} uno_state;

/* Events of one move, packed: type, length of what follows, fields. */
typedef struct {
    int32_t data[LOG_SIZE];
    int length;
    int enabled, overflow;
} uno_log;

extern const int8_t CARD_COLOR[NUM_CARDS];
extern const int8_t CARD_RANK[NUM_CARDS];
extern const int8_t CARD_POINTS[NUM_CARDS];
extern const int8_t CARD_COPIES[NUM_CARDS];

static inline int move_kind(int32_t code) { return code & 7; }
static inline int move_card(int32_t code) { return (code >> 3 & 63) - 1; }
static inline int move_color(int32_t code) { return (code >> 9 & 7) - 1; }
static inline int move_target(int32_t code) { return (code >> 12 & 15) - 1; }
static inline int move_arg(int32_t code) { return (code >> 16 & 7) - 1; }
static inline int move_uno(int32_t code) { return code >> 19 & 1; }
static inline int32_t move_encode(int kind, int card, int color, int target, int arg, int uno) {
    return kind | (card + 1) << 3 | (color + 1) << 9 | (target + 1) << 12 | (arg + 1) << 16
        | uno << 19;
}

/* Set bits, without the library call __builtin_popcount makes for plain x86-64. */
static inline int count_bits(uint64_t x) {
    x -= x >> 1 & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + (x >> 2 & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

void set_clear(small_set *set);
void set_add(small_set *set, int key);
void set_discard(small_set *set, int key);
int set_contains(const small_set *set, int key);

void uno_init(uno_state *s, int players, const uno_rules *rules, int64_t seed);
/* Game.new: dealer drawn, first round dealt (its start events into log, which may be
 * NULL). Returns 0, or -1 if it cannot be dealt. */
int uno_new(uno_state *s, int players, const uno_rules *rules, int64_t seed, uno_log *log);
/* uno_new with its first generator given: Random(f"{seed}/0"), e.g. from uno_first_rngs
 * (the seeding is a third of a random round's time; seeded in lanes it is a fraction). */
int uno_new_seeded(uno_state *s, int players, const uno_rules *rules, int64_t seed,
                   py_random *rng, uno_log *log);
/* Game.deal: a round dealt from ``deck`` (top first, count cards) by ``dealer``, no
 * shuffle made yet. Returns 0, or -1 if it cannot be dealt. */
int uno_deal(uno_state *s, int players, const uno_rules *rules, int64_t seed, int dealer,
             const uint8_t *deck, int count, uno_log *log);
/* The first generators of count (at most PY_RANDOM_LANES) games, seeds first_seed on. */
void uno_first_rngs(int64_t first_seed, int count, py_random *rngs);
/* Game.next_round after a round is over (the caller checks that it may). */
int uno_next_round(uno_state *s, uno_log *log);
int uno_legal_moves(const uno_state *s, int seat, int32_t *moves);
/* Apply a move taken from the legal moves. Returns 0, or -1 on a broken invariant. */
int uno_apply(uno_state *s, int seat, int32_t code, uno_log *log);
int uno_is_playable(const uno_state *s, int card);
/* Recomputes held[seat] from the hand (after writing it from outside core.c). */
void uno_hand_changed(uno_state *s, int seat);
/* The plays of the player to act with nothing pending, for a caller that picks among the
 * legal moves by index without listing them (the random policy): the playable cards in
 * legal_moves order, each giving 1 (plain) or 4 (colour-only) moves, doubled by their uno
 * variants when ``uno_variants``. Returns the count of cards, or -1 when a playable card
 * has seat or discard variants (list the moves then). */
int uno_simple_plays(const uno_state *s, int seat, uint8_t *cards, int *colour_only,
                     int *uno_variants);
/* cards.sort(key=lambda _: rng.random()): keys drawn in list order, a stable sort. */
void uno_shuffle(py_random *rng, uint8_t *cards, int count);

#endif
