/* The rules of unogame.engine.game, step for step (see that module for the reasons). */
#include "core.h"

#include <string.h>

#define WILD_RANK(c) ((c) - 39)

const int8_t CARD_COLOR[NUM_CARDS] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    4, 4, 4, 4,
};
const int8_t CARD_RANK[NUM_CARDS] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    13, 14, 15, 16,
};
const int8_t CARD_POINTS[NUM_CARDS] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 20, 20, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 20, 20,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 20, 20, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 20, 20,
    50, 50, 40, 40,
};
const int8_t CARD_COPIES[NUM_CARDS] = {
    1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    4, 4, 1, 3,
};

/* ------------------------------------------------------------------ events */

static void log_event(uno_log *log, int type, int count, const int *fields) {
    if (log == NULL || !log->enabled) {
        return;
    }
    if (log->length + 2 + count > LOG_SIZE) {
        log->overflow = 1;
        return;
    }
    log->data[log->length++] = (int32_t)type;
    log->data[log->length++] = (int32_t)count;
    for (int i = 0; i < count; i++) {
        log->data[log->length++] = (int32_t)fields[i];
    }
}

static void log_cards(uno_log *log, int type, int count, const int *fields, int ncards,
                      const uint8_t *cards) {
    int buffer[MAX_CARDS + 8];
    if (log == NULL || !log->enabled) {
        return;
    }
    for (int i = 0; i < count; i++) {
        buffer[i] = fields[i];
    }
    for (int i = 0; i < ncards; i++) {
        buffer[count + i] = cards[i];
    }
    log_event(log, type, count + ncards, buffer);
}

/* ------------------------------------------------------------------ small helpers */

static inline int mod(int value, int players) {
    int r = value % players;
    return r < 0 ? r + players : r;
}

/* mod(seat + step, players) for a seat in range and a step of -1 or 1, without a division */
static inline int next_seat(int seat, int step, int players) {
    int r = seat + step;
    r += players & -(r < 0);
    r -= players & -(r >= players);
    return r;
}

/* The decimal digits of value, as printf's %lld; returns the length. */
static int decimal(char *text, int64_t value) {
    char digits[24];
    int length = 0, n = 0;
    uint64_t magnitude = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
    if (value < 0) {
        text[length++] = '-';
    }
    do {
        digits[n++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    while (n) {
        text[length++] = digits[--n];
    }
    return length;
}

/* f"{seed}/{count}" into text (at least 48 bytes); returns its length. */
static int seed_text(char *text, int64_t seed, int32_t count) {
    int length = decimal(text, seed);
    text[length++] = '/';
    return length + decimal(text + length, count);
}

static void next_rng(uno_state *s, py_random *rng) {
    char text[48];
    int length = seed_text(text, s->seed, s->shuffles);
    py_random_seed_text(rng, text, (size_t)length);
    s->shuffles++;
}

/* Sort by random keys, as list.sort(key=...) does: stable, keys drawn in list order.
 * A key times 2**53 is an exact integer; packed with the card's index it makes distinct
 * 60-bit words, put in 256 buckets by their top bits, then each bucket of two or more
 * sorted by insertion (about twenty buckets of a full deck's). */
void uno_shuffle(py_random *rng, uint8_t *cards, int count) {
    uint64_t words[MAX_CARDS], sorted[MAX_CARDS];
    uint32_t raw[2 * MAX_CARDS];
    uint8_t fill[256]; /* bucket sizes, then where each bucket's next word goes */
    memset(fill, 0, sizeof fill);
    py_random_u32s(rng, raw, 2 * count);
    for (int i = 0; i < count; i++) { /* random() * 2**53, exactly: 27 + 26 bits */
        uint64_t high = raw[2 * i] >> 5;
        uint64_t key = high << 26 | raw[2 * i + 1] >> 6;
        words[i] = key << 7 | (uint64_t)i;
        fill[key >> 45]++;
    }
    uint64_t crowded[32]; /* per 8 buckets: bit 8b + 7 for bucket b holding two or more */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t carry = 0; /* the starts, 8 buckets a word: in-word prefix sums by a multiply */
    for (int w = 0; w < 32; w++) {  /* (no byte passes 128, so none carries into the next) */
        uint64_t sizes;
        memcpy(&sizes, fill + 8 * w, sizeof sizes);
        uint64_t two = sizes & 0xfefefefefefefefeULL;
        crowded[w] = (((two & 0x7f7f7f7f7f7f7f7fULL) + 0x7f7f7f7f7f7f7f7fULL) | two)
            & 0x8080808080808080ULL;
        uint64_t through = sizes * 0x0101010101010101ULL;
        uint64_t starts = through - sizes + carry * 0x0101010101010101ULL;
        memcpy(fill + 8 * w, &starts, sizeof starts);
        carry += through >> 56;
    }
#else
    int start = 0;
    memset(crowded, 0, sizeof crowded);
    for (int b = 0; b < 256; b++) {
        int size = fill[b];
        crowded[b >> 3] |= (uint64_t)(size >= 2) << (8 * (b & 7) + 7);
        fill[b] = (uint8_t)start;
        start += size;
    }
#endif
    for (int i = 0; i < count; i++) {
        sorted[fill[words[i] >> 52]++] = words[i];
    }
    for (int w = 0; w < 32; w++) {
        for (uint64_t bits = crowded[w]; bits; bits &= bits - 1) {
            int b = 8 * w + (__builtin_ctzll(bits) >> 3);
            int first = b ? fill[b - 1] : 0, end = fill[b]; /* fill[b]: bucket b's end */
            if (end - first == 2) { /* most: a compare and swap without a branch */
                uint64_t low = sorted[first], high = sorted[first + 1];
                sorted[first] = low < high ? low : high;
                sorted[first + 1] = low < high ? high : low;
                continue;
            }
            for (int i = first + 1; i < end; i++) {
                uint64_t word = sorted[i];
                int j = i - 1;
                while (j >= first && sorted[j] > word) {
                    sorted[j + 1] = sorted[j];
                    j--;
                }
                sorted[j + 1] = word;
            }
        }
    }
    uint8_t original[MAX_CARDS];
    memcpy(original, cards, (size_t)count);
    for (int i = 0; i < count; i++) {
        cards[i] = original[sorted[i] & 127];
    }
}

/* The deck in card order (full_deck), as CARD_COPIES lists it. */
static const uint8_t FULL_DECK[112] = {
    0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    14, 14, 15, 15, 16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21, 22, 22, 23, 23, 24, 24, 25, 25, 26, 27,
    27, 28, 28, 29, 29, 30, 30, 31, 31, 32, 32, 33, 33, 34, 34, 35, 35, 36, 36, 37, 37, 38, 38, 39, 40, 40,
    41, 41, 42, 42, 43, 43, 44, 44, 45, 45, 46, 46, 47, 47, 48, 48, 49, 49, 50, 50, 51, 51, 52, 52, 52, 52,
    53, 53, 53, 53, 54, 55, 55, 55,
};

static int full_deck(uint8_t *deck) {
    memcpy(deck, FULL_DECK, sizeof FULL_DECK);
    return (int)sizeof FULL_DECK;
}

static inline int in_hand(const uno_state *s, int seat, int card) {
    return (int)(s->held[seat] >> card & 1);
}

static uint64_t hand_mask(const uint8_t *hand, int length) {
    uint64_t mask = 0;
    for (int i = 0; i < length; i++) {
        mask |= 1ULL << (hand[i] & 63);
    }
    return mask;
}

void uno_hand_changed(uno_state *s, int seat) {
    s->held[seat] = hand_mask(s->hand[seat], s->hand_len[seat]);
}

/* Appends cards to a hand. */
static void add_cards(uno_state *s, int seat, const uint8_t *cards, int count) {
    memcpy(s->hand[seat] + s->hand_len[seat], cards, (size_t)count);
    s->hand_len[seat] = (uint8_t)(s->hand_len[seat] + count);
    s->held[seat] |= hand_mask(cards, count);
}

int uno_is_playable(const uno_state *s, int card) {
    if (card >= CARD_WILD) {
        return 1;
    }
    if (CARD_COLOR[card] == s->color) {
        return 1;
    }
    return s->discard_len > 0 && CARD_RANK[card] == CARD_RANK[s->discard[s->discard_len - 1]];
}

/* state.drawn_card_allowed: a drawn card is playable for must_play_drawn and
 * draw_until_playable unless it is a Wild Draw Four while the hand holds the colour to
 * match (R5.4 forbids that play; a bluff is the player's choice, never forced). */
static int drawn_card_allowed(const uno_state *s, int seat, int card) {
    if (card == CARD_WD4) {
        const uint8_t *hand = s->hand[seat];
        for (int i = 0; i < s->hand_len[seat]; i++) {
            if (CARD_COLOR[hand[i]] == s->color) {
                return 0;
            }
        }
        return 1;
    }
    return uno_is_playable(s, card);
}

/* ------------------------------------------------------------------ creation */

void uno_init(uno_state *s, int players, const uno_rules *rules, int64_t seed) {
    memset(s, 0, sizeof *s);
    s->rules = *rules;
    s->seed = seed;
    s->players = players;
    s->color = -1;
    s->direction = 1;
    s->dealer = (int8_t)(players - 1);
    s->winner = -1;
    s->game_winner = -1;
}

static int take_card(uno_state *s, uno_log *log);

static void give(uno_state *s, int seat, int count, uno_log *log, int reason) {
    uint8_t drawn[MAX_CARDS];
    int n = 0;
    for (int i = 0; i < count; i++) {
        int card = take_card(s, log);
        if (card < 0) {
            break;
        }
        drawn[n++] = (uint8_t)card;
    }
    if (n) {
        add_cards(s, seat, drawn, n);
        s->uno &= (uint16_t)~(1u << seat);
        s->catchable &= (uint16_t)~(1u << seat);
    }
    int fields[3] = {seat, n, reason};
    log_cards(log, EV_DRAW, 3, fields, n, drawn);
}

static void skip_to_next(uno_state *s, int skipped, uno_log *log);

/* Deal ``deck`` (top first) from the dealer's left and turn the first card; logs the
 * round's start events (deal, then the first card's effects). */
static int deal(uno_state *s, const uint8_t *deck, int count, uno_log *log) {
    int start = log != NULL ? log->length : 0;
    int players = s->players, dealer = s->dealer, index = 0;
    memset(s->hand_len, 0, sizeof s->hand_len);
    for (int round = 0, seat = dealer; round < s->rules.hand_size; round++) {
        for (int step = 1; step <= players; step++) { /* from the dealer's left */
            seat = next_seat(seat, 1, players);
            s->hand[seat][round] = deck[index++];
        }
    }
    for (int seat = 0; seat < players; seat++) {
        s->hand_len[seat] = (uint8_t)s->rules.hand_size;
        uno_hand_changed(s, seat);
    }
    int left_over = count - index;
    for (int i = 0; i < left_over; i++) {
        s->draw[i] = deck[count - 1 - i];
    }
    s->draw_len = (uint8_t)left_over;
    s->discard_len = 0;
    s->uno = 0;
    s->catchable = 0;
    s->winner = -1;
    s->pending.kind = P_NONE;
    s->direction = 1;
    int first = s->draw[--s->draw_len];
    while (first == CARD_WD4) {
        int only = 1;
        for (int i = 0; i < s->draw_len; i++) {
            only &= s->draw[i] == CARD_WD4;
        }
        if (only) {
            return -1;
        }
        s->draw[s->draw_len++] = (uint8_t)first;
        py_random rng;
        next_rng(s, &rng);
        uno_shuffle(&rng, s->draw, s->draw_len);
        first = s->draw[--s->draw_len];
    }
    s->discard[s->discard_len++] = (uint8_t)first;
    int left = (dealer + 1) % players;
    s->turn = (int8_t)left;
    s->color = (int8_t)(first < CARD_WILD ? CARD_COLOR[first] : -1);
    if (first >= CARD_WILD) {
        memset(&s->pending, 0, sizeof s->pending);
        s->pending.kind = P_COLOR;
        s->pending.by = s->pending.color = s->pending.card = -1;
    } else if (CARD_RANK[first] == RANK_DRAW_TWO) {
        give(s, left, 2, log, R_DRAW_TWO);
        skip_to_next(s, left, log);
    } else if (CARD_RANK[first] == RANK_REVERSE) {
        s->direction = -1;
        s->turn = (int8_t)dealer;
    } else if (CARD_RANK[first] == RANK_SKIP) {
        skip_to_next(s, left, log);
    }
    if (log != NULL && log->enabled) { /* the deal event goes before the effects */
        if (log->length + 6 > LOG_SIZE) {
            log->overflow = 1;
            return 0;
        }
        memmove(log->data + start + 6, log->data + start,
                sizeof(int32_t) * (size_t)(log->length - start));
        int32_t deal_event[6] = {EV_DEAL, 4, dealer, first, s->turn, s->direction};
        memcpy(log->data + start, deal_event, sizeof deal_event);
        log->length += 6;
    }
    return 0;
}

static int choose_dealer(int players, py_random *rng) {
    uint8_t deck[MAX_CARDS];
    int size = full_deck(deck);
    int candidates[MAX_PLAYERS], ncand = players;
    for (int i = 0; i < players; i++) {
        candidates[i] = i;
    }
    for (;;) {
        if (size < ncand) {
            size = full_deck(deck);
        }
        int drawn[MAX_PLAYERS], best = -1;
        for (int i = 0; i < ncand; i++) {
            int index = (int)(py_random_random(rng) * size);
            drawn[i] = deck[index];
            memmove(deck + index, deck + index + 1, (size_t)(size - index - 1));
            size--;
            if (CARD_POINTS[drawn[i]] > best) {
                best = CARD_POINTS[drawn[i]];
            }
        }
        int kept = 0;
        for (int i = 0; i < ncand; i++) {
            if (CARD_POINTS[drawn[i]] == best) {
                candidates[kept++] = candidates[i];
            }
        }
        ncand = kept;
        if (ncand == 1) {
            return candidates[0];
        }
    }
}

int uno_new_seeded(uno_state *s, int players, const uno_rules *rules, int64_t seed,
                   py_random *rng, uno_log *log) {
    uno_init(s, players, rules, seed);
    if (players * rules->hand_size + 1 > 112) {
        return -1;
    }
    s->shuffles = 1; /* rng is the first generator, "seed/0" */
    s->dealer = (int8_t)choose_dealer(players, rng);
    uint8_t deck[MAX_CARDS];
    int count = full_deck(deck);
    uno_shuffle(rng, deck, count);
    return deal(s, deck, count, log);
}

int uno_new(uno_state *s, int players, const uno_rules *rules, int64_t seed, uno_log *log) {
    py_random rng;
    uno_first_rngs(seed, 1, &rng);
    return uno_new_seeded(s, players, rules, seed, &rng, log);
}

int uno_deal(uno_state *s, int players, const uno_rules *rules, int64_t seed, int dealer,
             const uint8_t *deck, int count, uno_log *log) {
    uno_init(s, players, rules, seed);
    if (dealer < 0 || dealer >= players || count > MAX_CARDS
        || count < players * rules->hand_size + 1) {
        return -1;
    }
    s->dealer = (int8_t)dealer;
    return deal(s, deck, count, log);
}

void uno_first_rngs(int64_t first_seed, int count, py_random *rngs) {
    char texts[PY_RANDOM_LANES][48];
    const char *starts[PY_RANDOM_LANES];
    size_t lengths[PY_RANDOM_LANES];
    for (int lane = 0; lane < count; lane++) {
        int length = seed_text(texts[lane], first_seed + lane, 0);
        starts[lane] = texts[lane];
        lengths[lane] = (size_t)length;
    }
    py_random_seed_texts(rngs, starts, lengths, count);
}

int uno_next_round(uno_state *s, uno_log *log) {
    s->dealer = (int8_t)((s->dealer + 1) % s->players);
    uint8_t deck[MAX_CARDS];
    int count = full_deck(deck);
    py_random rng;
    next_rng(s, &rng);
    uno_shuffle(&rng, deck, count);
    return deal(s, deck, count, log);
}

/* ------------------------------------------------------------------ legal moves */

enum { SHAPE_PLAIN, SHAPE_COLOR_ONLY, SHAPE_SPECIAL };

static int play_shape(const uno_rules *rules, int card) {
    if (card < CARD_WILD) {
        int rank = CARD_RANK[card];
        return rules->seven_zero && (rank == 0 || rank == 7) ? SHAPE_SPECIAL : SHAPE_PLAIN;
    }
    if (card == CARD_WILD || card == CARD_WD4) {
        return SHAPE_COLOR_ONLY;
    }
    if (card == CARD_WC && rules->custom_rule != CR_CHOSEN_DRAW
        && rules->custom_rule != CR_DISCARD_COLOR && rules->custom_rule != CR_PASS_HANDS) {
        return SHAPE_COLOR_ONLY;
    }
    return SHAPE_SPECIAL;
}

static inline void add_move(int32_t *moves, int *n, int32_t code, int after) {
    moves[(*n)++] = code;
    if (after == 1) {
        moves[(*n)++] = code | 1 << 19;
    }
}

static void play_variants(const uno_state *s, int seat, int card, int32_t *moves, int *n) {
    int size = s->hand_len[seat], players = s->players;
    const uno_rules *rules = &s->rules;
    int shape = play_shape(rules, card);
    if (shape == SHAPE_PLAIN) {
        moves[(*n)++] = move_encode(K_PLAY, card, -1, -1, -1, 0);
        if (size == 2) {
            moves[(*n)++] = move_encode(K_PLAY, card, -1, -1, -1, 1);
        }
        return;
    }
    if (shape == SHAPE_COLOR_ONLY) { /* the four colours, then their uno variants */
        for (int c = 0; c < 4; c++) {
            moves[(*n)++] = move_encode(K_PLAY, card, c, -1, -1, 0);
        }
        if (size == 2) {
            for (int c = 0; c < 4; c++) {
                moves[(*n)++] = move_encode(K_PLAY, card, c, -1, -1, 1);
            }
        }
        return;
    }
    if (card < CARD_WILD) {
        int rank = CARD_RANK[card], after;
        if (rules->seven_zero && rank == 7) {
            for (int target = 0; target < players; target++) {
                if (target != seat) {
                    after = size == 1 ? 0 : s->hand_len[target];
                    add_move(moves, n, move_encode(K_PLAY, card, -1, target, -1, 0), after);
                }
            }
            return;
        }
        if (rules->seven_zero && rank == 0 && size > 1) {
            after = s->hand_len[next_seat(seat, -s->direction, players)];
        } else {
            after = size - 1;
        }
        add_move(moves, n, move_encode(K_PLAY, card, -1, -1, -1, 0), after);
        return;
    }
    int after = size - 1;
    if (card == CARD_WS || (card == CARD_WC && rules->custom_rule == CR_CHOSEN_DRAW)) {
        for (int color = 0; color < 4; color++) {
            for (int target = 0; target < players; target++) {
                if (target != seat) {
                    if (card == CARD_WS && size > 1) {
                        after = s->hand_len[target];
                    }
                    add_move(moves, n, move_encode(K_PLAY, card, color, target, -1, 0), after);
                }
            }
        }
        return;
    }
    if (card == CARD_WC && rules->custom_rule == CR_DISCARD_COLOR) {
        for (int color = 0; color < 4; color++) {
            for (int discarded = 0; discarded < 4; discarded++) {
                if (size > 1) {
                    int same = 0;
                    for (int i = 0; i < size; i++) {
                        same += CARD_COLOR[s->hand[seat][i]] == discarded;
                    }
                    after = size - 1 - same;
                }
                add_move(moves, n, move_encode(K_PLAY, card, color, -1, discarded, 0), after);
            }
        }
        return;
    }
    if (card == CARD_WC && rules->custom_rule == CR_PASS_HANDS && size > 1) {
        after = s->hand_len[next_seat(seat, -s->direction, players)];
    }
    for (int color = 0; color < 4; color++) {
        add_move(moves, n, move_encode(K_PLAY, card, color, -1, -1, 0), after);
    }
}

/* insert_clean of CPython's setobject.c into a table of 8 or 32 slots (no tombstones);
 * ``used`` has a bit per occupied slot. */
static inline void table_insert(int8_t *table, uint32_t *used, unsigned mask, int key) {
    unsigned i = (unsigned)key & mask, perturb = (unsigned)key;
    for (;;) {
        if (!(*used >> i & 1)) {
            table[i] = (int8_t)key;
            *used |= 1u << i;
            return;
        }
        if (i + 9 <= mask) {
            uint32_t free_after = ~*used >> (i + 1) & 0x1ffu;
            if (free_after) {
                unsigned j = i + 1 + (unsigned)__builtin_ctz(free_after);
                table[j] = (int8_t)key;
                *used |= 1u << j;
                return;
            }
        }
        perturb >>= 5;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

/* table_insert for the table of 32: the home slot or the first free of the 9 after it in
 * one step (the perturbed probes only when all ten are taken). */
static inline void table32_insert(int8_t *table, uint32_t *used, int key) {
    unsigned i = (unsigned)key & 31;
    uint32_t window = ~*used >> i & (i + 9 <= 31 ? 0x3ffu : 1u);
    if (window) {
        unsigned j = i + (unsigned)__builtin_ctz(window);
        table[j] = (int8_t)key;
        *used |= 1u << j;
        return;
    }
    table_insert(table, used, 31, key);
}

/* The cards of hits in set(hand) order when two of the hand's distinct cards share a slot
 * (fewer than 19 of them): the tables built as hand_set builds them. */
static int collided_order(const uno_state *s, int seat, uint64_t hits, uint8_t *out) {
    const uint8_t *hand = s->hand[seat];
    uint64_t seen = 0, all = s->held[seat];
    uint8_t distinct[NUM_CARDS];
    int n = 0, size = s->hand_len[seat];
    for (int i = 0; i < size && seen != all; i++) { /* first copies, in hand order */
        uint64_t bit = 1ULL << hand[i];
        distinct[n] = hand[i];
        n += !(seen & bit);
        seen |= bit;
    }
    int8_t small[8], table[32];
    uint32_t small_used = 0, used = 0;
    int first = n < 5 ? n : 5, k = 0;
    for (int i = 0; i < first; i++) {
        table_insert(small, &small_used, 7, distinct[i]);
    }
    if (n < 5) {
        for (; small_used; small_used &= small_used - 1) {
            int card = small[__builtin_ctz(small_used)];
            out[k] = (uint8_t)card;
            k += (int)(hits >> card & 1);
        }
        return k;
    }
    for (; small_used; small_used &= small_used - 1) {
        table32_insert(table, &used, small[__builtin_ctz(small_used)]);
    }
    for (int i = 5; i < n; i++) {
        table32_insert(table, &used, distinct[i]);
    }
    for (; used; used &= used - 1) {
        int card = table[__builtin_ctz(used)];
        out[k] = (uint8_t)card;
        k += (int)(hits >> card & 1);
    }
    return k;
}

/* The distinct cards of a hand in the order CPython iterates set(hand): a set built by
 * adding the cards in hand order starts with 8 slots, has 32 from the 5th distinct card
 * (the first five re-inserted in slot order) and 128 from the 19th, where every card sits
 * at its own index (sorted). core_set.c is the general version (tested against CPython). */
static int hand_set(const uno_state *s, int seat, uint8_t *out) {
    uint64_t seen = 0;
    const uint8_t *hand = s->hand[seat];
    int size = s->hand_len[seat], n = 0;
    uint8_t distinct[NUM_CARDS];
    for (int i = 0; i < size; i++) {
        uint64_t bit = 1ULL << hand[i];
        distinct[n] = hand[i];
        n += !(seen & bit);
        seen |= bit;
    }
    if (n >= 19) {
        n = 0;
        while (seen) {
            out[n++] = (uint8_t)__builtin_ctzll(seen);
            seen &= seen - 1;
        }
        return n;
    }
    if (n >= 5) { /* no two cards share a home slot: every card sits at card & 31 */
        uint32_t low = (uint32_t)seen, high = (uint32_t)(seen >> 32);
        if (!(low & high)) {
            uint32_t slots = low | high;
            int k = 0;
            while (slots) {
                int slot = __builtin_ctz(slots);
                out[k++] = (uint8_t)(low >> slot & 1 ? slot : slot + 32);
                slots &= slots - 1;
            }
            return k;
        }
    } else {
        uint32_t homes = 0; /* the same in the table of 8 slots */
        for (int i = 0; i < n; i++) {
            homes |= 1u << (distinct[i] & 7);
        }
        if (count_bits(homes) == n) {
            int8_t by_home[8];
            for (int i = 0; i < n; i++) {
                by_home[distinct[i] & 7] = (int8_t)distinct[i];
            }
            int k = 0;
            while (homes) {
                out[k++] = (uint8_t)by_home[__builtin_ctz(homes)];
                homes &= homes - 1;
            }
            return k;
        }
    }
    int8_t small[8], table[32];
    uint32_t small_used = 0, used = 0;
    int first = n < 5 ? n : 5;
    for (int i = 0; i < first; i++) {
        table_insert(small, &small_used, 7, distinct[i]);
    }
    if (n < 5) {
        int k = 0;
        while (small_used) {
            out[k++] = (uint8_t)small[__builtin_ctz(small_used)];
            small_used &= small_used - 1;
        }
        return k;
    }
    while (small_used) {
        table32_insert(table, &used, small[__builtin_ctz(small_used)]);
        small_used &= small_used - 1;
    }
    for (int i = 5; i < n; i++) {
        table32_insert(table, &used, distinct[i]);
    }
    int k = 0;
    while (used) {
        out[k++] = (uint8_t)table[__builtin_ctz(used)];
        used &= used - 1;
    }
    return k;
}

/* The cards that may be played now (R4.1), as a bit mask. */
static uint64_t playable_mask(const uno_state *s) {
    int color = s->color;
    int top_rank = s->discard_len ? CARD_RANK[s->discard[s->discard_len - 1]] : -1;
    uint64_t playable = 0xfULL << CARD_WILD;
    if (color >= 0 && color < 4) {
        playable |= 0x1fffULL << (13 * color);
    }
    if (top_rank >= 0 && top_rank < 13) {
        playable |= 0x0000008004002001ULL << top_rank; /* the rank in the four colours */
    }
    return playable;
}

/* The cards of ``hits`` (a subset of the seat's hand) in set(hand) order: straight from
 * the hand's bit mask when there is one or the table is sorted or has no collision (most
 * hands), else through hand_set. */
static int in_set_order(const uno_state *s, int seat, uint64_t hits, uint8_t *out) {
    int k = 0;
    if (!(hits & (hits - 1))) { /* none or one: no order to find */
        out[0] = (uint8_t)__builtin_ctzll(hits | 1ULL << 63);
        return hits != 0;
    }
    uint64_t seen = s->held[seat], rest = seen;
    for (int i = 0; i < 4; i++) {
        rest &= rest - 1;
    }
    if (!rest) { /* at most 4 cards: the table of 8 slots, each card at card & 7 unless two
                    share it (then they are 8, 16, ... 48 apart) */
        uint64_t shared = seen & (seen >> 8 | seen >> 16 | seen >> 24 | seen >> 32
                                  | seen >> 40 | seen >> 48);
        if (!shared) {
            uint8_t by_home[8];
            uint32_t slots = 0;
            for (uint64_t bits = hits; bits; bits &= bits - 1) {
                int card = __builtin_ctzll(bits);
                by_home[card & 7] = (uint8_t)card;
                slots |= 1u << (card & 7);
            }
            for (; slots; slots &= slots - 1) {
                out[k++] = by_home[__builtin_ctz(slots)];
            }
            return k;
        }
    } else if (count_bits(seen) >= 19) {
        for (uint64_t bits = hits; bits; bits &= bits - 1) {
            out[k++] = (uint8_t)__builtin_ctzll(bits);
        }
        return k;
    } else {
        uint32_t low = (uint32_t)seen, high = (uint32_t)(seen >> 32);
        if (!(low & high)) { /* the table of 32: each card at card & 31 */
            uint32_t slots = (uint32_t)hits | (uint32_t)(hits >> 32);
            for (; slots; slots &= slots - 1) {
                int slot = __builtin_ctz(slots);
                out[k++] = (uint8_t)(low >> slot & 1 ? slot : slot + 32);
            }
            return k;
        }
    }
    return collided_order(s, seat, hits, out);
}

/* The cards of a hand that may be played now, in set(hand) order. */
static int playable_cards(const uno_state *s, int seat, uint8_t *out) {
    return in_set_order(s, seat, s->held[seat] & playable_mask(s), out);
}

int uno_simple_plays(const uno_state *s, int seat, uint8_t *cards, int *colour_only,
                     int *uno_variants) {
    const uno_rules *rules = &s->rules;
    uint64_t hits = s->held[seat] & playable_mask(s);
    uint64_t special = 1ULL << CARD_WS, wild = 3ULL << CARD_WILD; /* play_shape's */
    if (rules->seven_zero) {
        special |= 0x0000408204102081ULL; /* the 0s and 7s */
    }
    if (rules->custom_rule == CR_CHOSEN_DRAW || rules->custom_rule == CR_DISCARD_COLOR
        || rules->custom_rule == CR_PASS_HANDS) {
        special |= 1ULL << CARD_WC;
    } else {
        wild |= 1ULL << CARD_WC;
    }
    if (hits & special) {
        return -1;
    }
    static const int8_t BITS4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    *colour_only = BITS4[(hits & wild) >> CARD_WILD];
    *uno_variants = s->hand_len[seat] == 2;
    return in_set_order(s, seat, hits, cards);
}

static void turn_moves(const uno_state *s, int seat, int32_t *moves, int *n) {
    const uno_pending *pending = &s->pending;
    uint8_t cards[NUM_CARDS];
    if (pending->kind == P_NONE) {
        int two = s->hand_len[seat] == 2;
        int distinct = playable_cards(s, seat, cards);
        for (int i = 0; i < distinct; i++) {
            int card = cards[i];
            int shape = play_shape(&s->rules, card);
            if (shape == SHAPE_PLAIN) {
                moves[(*n)++] = move_encode(K_PLAY, card, -1, -1, -1, 0);
                if (two) {
                    moves[(*n)++] = move_encode(K_PLAY, card, -1, -1, -1, 1);
                }
            } else if (shape == SHAPE_COLOR_ONLY) {
                for (int c = 0; c < 4; c++) {
                    moves[(*n)++] = move_encode(K_PLAY, card, c, -1, -1, 0);
                }
                if (two) {
                    for (int c = 0; c < 4; c++) {
                        moves[(*n)++] = move_encode(K_PLAY, card, c, -1, -1, 1);
                    }
                }
            } else {
                play_variants(s, seat, card, moves, n);
            }
        }
        moves[(*n)++] = K_DRAW;
    } else if (pending->kind == P_DRAWN) {
        play_variants(s, seat, pending->card, moves, n);
        if (!s->rules.must_play_drawn || !drawn_card_allowed(s, seat, pending->card)) {
            moves[(*n)++] = K_PASS;
        }
    } else if (pending->kind == P_CHALLENGE) {
        moves[(*n)++] = K_CHALLENGE;
        moves[(*n)++] = K_ACCEPT;
        if (s->rules.stacking && in_hand(s, seat, CARD_WD4)) {
            play_variants(s, seat, CARD_WD4, moves, n);
        }
    } else if (pending->kind == P_COLOR) {
        for (int c = 0; c < 4; c++) {
            moves[(*n)++] = move_encode(K_COLOR, -1, c, -1, -1, 0);
        }
    } else { /* a stack */
        int top = s->discard[s->discard_len - 1];
        int distinct = hand_set(s, seat, cards);
        for (int i = 0; i < distinct; i++) {
            int card = cards[i];
            if (card == top || (top < CARD_WILD && CARD_RANK[card] == RANK_DRAW_TWO)) {
                play_variants(s, seat, card, moves, n);
            }
        }
        moves[(*n)++] = K_DRAW;
    }
}

int uno_legal_moves(const uno_state *s, int seat, int32_t *moves) {
    int n = 0;
    if (s->winner >= 0 || seat < 0 || seat >= s->players) {
        return 0;
    }
    if (seat == s->turn) {
        turn_moves(s, seat, moves, &n);
    } else if (s->pending.kind == P_NONE && s->rules.jump_in && s->discard_len) {
        int top = s->discard[s->discard_len - 1];
        if (top < CARD_WILD && in_hand(s, seat, top)) {
            play_variants(s, seat, top, moves, &n);
        }
    }
    int size = s->hand_len[seat];
    int kind = s->pending.kind;
    if (size <= 2 && !(s->uno >> seat & 1)
        && (size == 1
            || (seat == s->turn && kind != P_CHALLENGE && kind != P_STACK))) {
        moves[n++] = K_UNO;
    }
    /* in seat order, as the reference lists them */
    for (unsigned targets = s->catchable & ~(1u << seat); targets; targets &= targets - 1) {
        moves[n++] = move_encode(K_CATCH, -1, -1, __builtin_ctz(targets), -1, 0);
    }
    return n;
}

/* ------------------------------------------------------------------ applying moves */

static int take_card(uno_state *s, uno_log *log) {
    if (s->draw_len == 0) {
        if (s->discard_len <= 1) {
            return -1;
        }
        uint8_t top = s->discard[s->discard_len - 1];
        int count = s->discard_len - 1;
        memcpy(s->draw, s->discard, (size_t)count);
        s->draw_len = (uint8_t)count;
        s->discard[0] = top;
        s->discard_len = 1;
        py_random rng;
        next_rng(s, &rng);
        uno_shuffle(&rng, s->draw, count);
        log_event(log, EV_RESHUFFLE, 1, &count);
    }
    return s->draw[--s->draw_len];
}

static void skip_to_next(uno_state *s, int skipped, uno_log *log) {
    log_event(log, EV_SKIP, 1, &skipped);
    s->turn = (int8_t)next_seat(skipped, s->direction, s->players);
}

static void swap_hands(uno_state *s, int seat, int target, uno_log *log) {
    uint8_t buffer[MAX_CARDS];
    uint8_t length = s->hand_len[seat];
    memcpy(buffer, s->hand[seat], length);
    memcpy(s->hand[seat], s->hand[target], s->hand_len[target]);
    s->hand_len[seat] = s->hand_len[target];
    memcpy(s->hand[target], buffer, length);
    s->hand_len[target] = length;
    uint64_t held = s->held[seat];
    s->held[seat] = s->held[target];
    s->held[target] = held;
    s->uno &= (uint16_t)~(1u << seat | 1u << target);
    int fields[2] = {seat, target};
    log_event(log, EV_SWAP, 2, fields);
}

static void pass_hands(uno_state *s, uno_log *log) {
    int players = s->players;
    uint8_t hands[MAX_PLAYERS][MAX_CARDS];
    uint8_t lengths[MAX_PLAYERS];
    for (int seat = 0; seat < players; seat++) {
        int to = next_seat(seat, s->direction, players);
        memcpy(hands[to], s->hand[seat], s->hand_len[seat]);
        lengths[to] = s->hand_len[seat];
    }
    for (int seat = 0; seat < players; seat++) {
        memcpy(s->hand[seat], hands[seat], lengths[seat]);
        s->hand_len[seat] = lengths[seat];
        uno_hand_changed(s, seat);
    }
    s->uno = 0;
    int direction = s->direction;
    log_event(log, EV_PASS_HANDS, 1, &direction);
}

static void end_round(uno_state *s, int seat, int card, int stacked, uno_log *log) {
    s->winner = (int8_t)seat;
    s->pending.kind = P_NONE;
    s->catchable = 0;
    int victim = next_seat(seat, s->direction, s->players);
    if (card < CARD_WILD && CARD_RANK[card] == RANK_DRAW_TWO) {
        give(s, victim, stacked + 2, log, R_DRAW_TWO);
    } else if (card == CARD_WD4) {
        give(s, victim, stacked + 4, log, R_WILD_DRAW_FOUR);
    }
    int total = 0;
    for (int other = 0; other < s->players; other++) {
        for (int i = 0; i < s->hand_len[other]; i++) {
            total += CARD_POINTS[s->hand[other][i]];
        }
    }
    s->scores[seat] += total;
    if (s->scores[seat] >= s->rules.target_score) {
        s->game_winner = (int8_t)seat;
    }
    log_event(log, EV_ROUND_OVER, 0, NULL);
}

static void set_pending(uno_state *s, int kind, int by, int color, int guilty, int amount) {
    s->pending.kind = (uint8_t)kind;
    s->pending.by = (int8_t)by;
    s->pending.color = (int8_t)color;
    s->pending.guilty = (uint8_t)guilty;
    s->pending.card = -1;
    s->pending.amount = (int16_t)amount;
}

/* The Wild Customizable's rule; returns how many seats ``changed`` holds, -1: round over. */
static int custom(uno_state *s, int seat, int32_t code, uno_log *log, int *changed) {
    int rule = s->rules.custom_rule, count = s->rules.custom_count;
    int players = s->players, direction = s->direction;
    int following = next_seat(seat, direction, players);
    if (rule != CR_NONE) {
        int fields[2] = {seat, rule};
        log_event(log, EV_CUSTOM, 2, fields);
    }
    changed[0] = seat;
    switch (rule) {
    case CR_OTHERS_DRAW:
        for (int step = 1; step < players; step++) {
            give(s, mod(seat + step * direction, players), count, log, R_CUSTOM);
        }
        s->turn = (int8_t)following;
        break;
    case CR_NEXT_DRAW_SKIP:
        give(s, following, count, log, R_CUSTOM);
        skip_to_next(s, following, log);
        break;
    case CR_SKIP:
        for (int step = 1; step <= count; step++) {
            int skipped = mod(seat + step * direction, players);
            log_event(log, EV_SKIP, 1, &skipped);
        }
        s->turn = (int8_t)mod(seat + (count + 1) * direction, players);
        break;
    case CR_PLAY_AGAIN:
        s->turn = (int8_t)seat;
        break;
    case CR_DISCARD_COLOR: {
        int arg = move_arg(code);
        uint8_t discarded[MAX_CARDS];
        int n = 0, kept = 0;
        for (int i = 0; i < s->hand_len[seat]; i++) {
            uint8_t card = s->hand[seat][i];
            if (CARD_COLOR[card] == arg) {
                discarded[n++] = card;
            } else {
                s->hand[seat][kept++] = card;
            }
        }
        if (n) {
            s->hand_len[seat] = (uint8_t)kept;
            uno_hand_changed(s, seat);
            uint8_t top = s->discard[--s->discard_len];
            memcpy(s->discard + s->discard_len, discarded, (size_t)n);
            s->discard_len = (uint8_t)(s->discard_len + n);
            s->discard[s->discard_len++] = top;
        }
        log_cards(log, EV_DISCARD, 1, &seat, n, discarded);
        if (s->hand_len[seat] == 0) {
            end_round(s, seat, CARD_WC, 0, log);
            return 0;
        }
        s->turn = (int8_t)following;
        break;
    }
    case CR_PASS_HANDS:
        pass_hands(s, log);
        s->turn = (int8_t)following;
        for (int other = 0; other < players; other++) {
            changed[other] = other;
        }
        return players;
    case CR_CHOSEN_DRAW:
        give(s, move_target(code), count, log, R_CUSTOM);
        s->turn = (int8_t)following;
        break;
    default:
        s->turn = (int8_t)following;
        break;
    }
    return 1;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The bytes of x that are 0, as their top bits (exact: no borrow between bytes). */
static inline uint64_t zero_bytes(uint64_t x) {
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
    return ~(((x & low7) + low7) | x | low7);
}

static inline uint64_t bytes_below(int count) { /* the low ``count`` bytes, 0 <= count <= 8 */
    return count >= 8 ? ~0ULL : (1ULL << (8 * count)) - 1;
}
#endif

/* Takes the first copy of card out of a hand (the cards after it move up); returns how
 * many copies it held. Hands of up to 16 cards as two 64-bit words, without a branch per
 * card (the bytes past the hand's end are scratch). */
static int remove_card(uint8_t *hand, int size, int card) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (size <= 16) {
        const uint64_t ones = 0x0101010101010101ULL;
        uint64_t low, high, pattern = (uint64_t)card * ones;
        memcpy(&low, hand, sizeof low);
        memcpy(&high, hand + 8, sizeof high);
        uint64_t in_low = zero_bytes(low ^ pattern) & bytes_below(size);
        uint64_t in_high = zero_bytes(high ^ pattern) & bytes_below(size - 8 > 0 ? size - 8 : 0);
        int copies = (int)((((in_low >> 7) + (in_high >> 7)) * ones) >> 56);
        if (in_low) {
            uint64_t keep = bytes_below(__builtin_ctzll(in_low) >> 3);
            low = (low & keep) | (low >> 8 & ~keep) | high << 56;
            high >>= 8;
        } else if (in_high) {
            uint64_t keep = bytes_below(__builtin_ctzll(in_high) >> 3);
            high = (high & keep) | (high >> 8 & ~keep);
        }
        memcpy(hand, &low, sizeof low);
        memcpy(hand + 8, &high, sizeof high);
        return copies;
    }
#endif
    int found = 0, copies = hand[size - 1] == card;
    for (int i = 0; i < size - 1; i++) {
        copies += hand[i] == card;
        found |= hand[i] == card;
        hand[i] = found ? hand[i + 1] : hand[i];
    }
    return copies;
}

static int play(uno_state *s, int seat, int32_t code, uno_log *log) {
    int card = move_card(code);
    int players = s->players, direction = s->direction;
    const uno_rules *rules = &s->rules;
    int stacked = s->pending.kind != P_NONE && s->pending.kind != P_DRAWN
        ? s->pending.amount : 0;
    int jump_in = seat != s->turn;
    if (jump_in && s->hand_len[s->turn] > 1) { /* NOTATION uno: a jump-in ends that turn */
        s->uno &= (uint16_t)~(1u << s->turn);
    }
    s->turn = (int8_t)seat;
    uint8_t *hand = s->hand[seat];
    int size = s->hand_len[seat];
    if (size == 0 || s->discard_len >= MAX_CARDS) {
        return -1;
    }
    int copies = remove_card(hand, size, card);
    if (!copies) {
        return -1;
    }
    if (copies == 1) {
        s->held[seat] &= ~(1ULL << card);
    }
    s->hand_len[seat] = (uint8_t)(--size);
    int old_color = s->color;
    s->discard[s->discard_len++] = (uint8_t)card;
    s->color = (int8_t)(card < CARD_WILD ? CARD_COLOR[card] : move_color(code));
    s->pending.kind = P_NONE;
    {
        int fields[4] = {seat, code, s->color, jump_in};
        log_event(log, EV_PLAY, 4, fields);
    }
    if (size == 0) {
        end_round(s, seat, card, stacked, log);
        return 0;
    }
    int changed[MAX_PLAYERS] = {seat};
    int nchanged = 1;
    if (card < CARD_WILD) {
        int rank = CARD_RANK[card];
        if (rank < 10) {
            if (rules->seven_zero && rank == 7) {
                swap_hands(s, seat, move_target(code), log);
                changed[1] = move_target(code);
                nchanged = 2;
            } else if (rules->seven_zero && rank == 0) {
                pass_hands(s, log);
                for (int other = 0; other < players; other++) {
                    changed[other] = other;
                }
                nchanged = players;
            }
            s->turn = (int8_t)next_seat(seat, direction, players);
        } else if (rank == RANK_SKIP) {
            skip_to_next(s, next_seat(seat, direction, players), log);
        } else if (rank == RANK_REVERSE) {
            s->direction = (int8_t)-direction;
            if (players == 2 && rules->two_player_reverse_skips) {
                s->turn = (int8_t)seat;
            } else {
                s->turn = (int8_t)next_seat(seat, -direction, players);
            }
        } else {
            int victim = next_seat(seat, direction, players);
            if (rules->stacking) {
                set_pending(s, P_STACK, -1, -1, 0, stacked + 2);
                s->turn = (int8_t)victim;
            } else {
                give(s, victim, 2, log, R_DRAW_TWO);
                skip_to_next(s, victim, log);
            }
        }
    } else if (card == CARD_WD4) {
        int victim = next_seat(seat, direction, players), guilty = 0;
        for (int i = 0; i < size; i++) {
            guilty |= CARD_COLOR[hand[i]] == old_color;
        }
        if (rules->challenge) {
            set_pending(s, P_CHALLENGE, seat, old_color, guilty, stacked + 4);
            s->turn = (int8_t)victim;
        } else if (rules->stacking) {
            set_pending(s, P_STACK, -1, -1, 0, stacked + 4);
            s->turn = (int8_t)victim;
        } else {
            give(s, victim, 4, log, R_WILD_DRAW_FOUR);
            skip_to_next(s, victim, log);
        }
    } else if (card == CARD_WS) {
        swap_hands(s, seat, move_target(code), log);
        changed[1] = move_target(code);
        nchanged = 2;
        s->turn = (int8_t)next_seat(seat, direction, players);
    } else if (card == CARD_WC) {
        nchanged = custom(s, seat, code, log, changed);
    } else {
        s->turn = (int8_t)next_seat(seat, direction, players);
    }
    if (move_uno(code)) {
        s->uno |= (uint16_t)(1u << seat);
    }
    for (int i = 0; i < nchanged; i++) {
        int other = changed[i];
        if (s->hand_len[other] == 1 && !(s->uno >> other & 1)) {
            s->catchable |= (uint16_t)(1u << other);
        }
    }
    return 0;
}

static void draw_move(uno_state *s, int seat, uno_log *log) {
    if (s->pending.kind != P_NONE) { /* a stack: take it all and lose the turn */
        int amount = s->pending.amount;
        s->pending.kind = P_NONE;
        give(s, seat, amount, log, R_STACK);
        skip_to_next(s, seat, log);
        return;
    }
    uint8_t drawn[MAX_CARDS];
    int n = 0;
    for (;;) {
        int card = take_card(s, log);
        if (card < 0) {
            break;
        }
        drawn[n++] = (uint8_t)card;
        /* the hand before the draw: the cards drawn before this one did not match */
        if (!s->rules.draw_until_playable || drawn_card_allowed(s, seat, card)) {
            break;
        }
    }
    if (n) {
        add_cards(s, seat, drawn, n);
        s->uno &= (uint16_t)~(1u << seat);
    }
    int fields[3] = {seat, n, R_TURN};
    log_cards(log, EV_DRAW, 3, fields, n, drawn);
    if (n && uno_is_playable(s, drawn[n - 1])) {
        set_pending(s, P_DRAWN, -1, -1, 0, 0);
        s->pending.card = (int8_t)drawn[n - 1];
    } else {
        if (n == 0 && s->hand_len[seat] > 1) { /* NOTATION uno: the turn ends without a play */
            s->uno &= (uint16_t)~(1u << seat);
        }
        s->turn = (int8_t)next_seat(s->turn, s->direction, s->players);
    }
}

static void challenge(uno_state *s, int seat, uno_log *log) {
    uno_pending pending = s->pending;
    s->pending.kind = P_NONE;
    int by = pending.by;
    int fields[3] = {seat, by, pending.guilty};
    log_cards(log, EV_CHALLENGE, 3, fields, s->hand_len[by], s->hand[by]);
    if (pending.guilty) {
        give(s, by, pending.amount, log, R_CHALLENGE);
    } else {
        give(s, seat, pending.amount + 2, log, R_CHALLENGE);
        skip_to_next(s, seat, log);
    }
}

int uno_apply(uno_state *s, int seat, int32_t code, uno_log *log) {
    int kind = move_kind(code);
    if (kind <= K_COLOR) {
        s->catchable = 0;
    }
    switch (kind) {
    case K_PLAY:
        return play(s, seat, code, log);
    case K_DRAW:
        draw_move(s, seat, log);
        return 0;
    case K_PASS:
        s->pending.kind = P_NONE;
        s->uno &= (uint16_t)~(1u << seat); /* it holds the drawn card and at least one more */
        log_event(log, EV_PASS, 1, &seat);
        s->turn = (int8_t)next_seat(s->turn, s->direction, s->players);
        return 0;
    case K_CHALLENGE:
        if (s->pending.kind != P_CHALLENGE) {
            return -1;
        }
        challenge(s, seat, log);
        return 0;
    case K_ACCEPT: {
        if (s->pending.kind == P_NONE) {
            return -1;
        }
        int amount = s->pending.amount;
        s->pending.kind = P_NONE;
        log_event(log, EV_ACCEPT, 1, &seat);
        give(s, seat, amount, log, R_WILD_DRAW_FOUR);
        skip_to_next(s, seat, log);
        return 0;
    }
    case K_COLOR: {
        s->pending.kind = P_NONE;
        s->color = (int8_t)move_color(code);
        int fields[2] = {seat, s->color};
        log_event(log, EV_COLOR, 2, fields);
        return 0;
    }
    case K_UNO:
        s->uno |= (uint16_t)(1u << seat);
        s->catchable &= (uint16_t)~(1u << seat);
        log_event(log, EV_UNO, 1, &seat);
        return 0;
    default: {
        int target = move_target(code);
        s->catchable &= (uint16_t)~(1u << target);
        int fields[2] = {seat, target};
        log_event(log, EV_CATCH, 2, fields);
        give(s, target, s->rules.uno_penalty, log, R_UNO_PENALTY);
        return 0;
    }
    }
}
