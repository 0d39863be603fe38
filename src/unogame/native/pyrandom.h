/* CPython's random.Random, reproduced exactly: seeding from an int or a str (version 2:
 * SHA-512 of the text appended to it), MT19937 and random() with 53 bits. */
#ifndef UNO_PYRANDOM_H
#define UNO_PYRANDOM_H

#include <stddef.h>
#include <stdint.h>

#define MT_N 624

typedef struct {
    uint32_t state[MT_N];
    int index;
} py_random;

/* random.Random(text): text is ASCII, at most 64 bytes. */
void py_random_seed_text(py_random *rng, const char *text, size_t length);
/* random.Random(value) for a value >= 0. */
void py_random_seed_u64(py_random *rng, uint64_t value);
/* random.random(): a double in [0, 1). */
double py_random_random(py_random *rng);
uint32_t py_random_u32(py_random *rng);

#endif
