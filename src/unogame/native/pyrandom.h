/* CPython's random.Random, reproduced exactly: seeding from an int or a str (version 2:
 * SHA-512 of the text appended to it), MT19937 and random() with 53 bits. */
#ifndef UNO_PYRANDOM_H
#define UNO_PYRANDOM_H

#include <stddef.h>
#include <stdint.h>

#define MT_N 624

#define PY_RANDOM_LANES 32

/* ``index`` is the next output; the words before ``ready`` are twisted (the generation is
 * twisted in chunks as it is used: a shuffle after a seeding reads a third of it). */
typedef struct {
    uint32_t state[MT_N];
    int index, ready;
} py_random;

/* random.Random(text): text is ASCII, at most 64 bytes. */
void py_random_seed_text(py_random *rng, const char *text, size_t length);
/* random.Random(text) for up to PY_RANDOM_LANES texts at once: the same generators as
 * py_random_seed_text, their serial seeding chains interleaved (vector lanes). */
void py_random_seed_texts(py_random *rngs, const char *const *texts, const size_t *lengths,
                          int count);
/* random.Random(value) for a value >= 0. */
void py_random_seed_u64(py_random *rng, uint64_t value);
/* Twists the rest of the generation (CPython's state holds it whole: for getstate). */
void py_random_complete(py_random *rng);
/* Twists the next chunk of the generation (the slow path of py_random_u32). */
void py_random_refill(py_random *rng);

static inline uint32_t py_random_u32(py_random *rng) {
    if (rng->index >= rng->ready) {
        py_random_refill(rng);
    }
    uint32_t y = rng->state[rng->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* Whether the next ``words`` outputs are in this generation, twisting them if need be (so
 * that they can be read ahead with py_random_peek; no new generation is started). */
static inline int py_random_reserve(py_random *rng, int words) {
    if (rng->index + words > MT_N) {
        return 0;
    }
    if (rng->index + words > rng->ready) {
        py_random_refill(rng);
    }
    return 1;
}

/* random() from the outputs ``ahead`` words on, without taking them (see py_random_reserve). */
static inline double py_random_peek(const py_random *rng, int ahead) {
    uint32_t words[2];
    for (int i = 0; i < 2; i++) {
        uint32_t y = rng->state[rng->index + ahead + i];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= (y >> 18);
        words[i] = y;
    }
    return ((words[0] >> 5) * 67108864.0 + (words[1] >> 6)) * (1.0 / 9007199254740992.0);
}

/* count outputs of py_random_u32 at once. */
void py_random_u32s(py_random *rng, uint32_t *out, int count);

/* random.random(): a double in [0, 1), 27 + 26 bits of two outputs. */
static inline double py_random_random(py_random *rng) {
    uint32_t a = py_random_u32(rng) >> 5, b = py_random_u32(rng) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

#endif
