#include "pyrandom.h"

#include <stdlib.h>
#include <string.h>

#include "pyrandom_init.h"

/* ------------------------------------------------------------------ SHA-512 (FIPS 180-4) */

static const uint64_t SHA512_K[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

#define ROTR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

static void sha512_block(uint64_t hash[8], const unsigned char block[128]) {
    uint64_t w[80];
    for (int t = 0; t < 16; t++) {
        const unsigned char *b = block + t * 8;
        w[t] = (uint64_t)b[0] << 56 | (uint64_t)b[1] << 48 | (uint64_t)b[2] << 40
            | (uint64_t)b[3] << 32 | (uint64_t)b[4] << 24 | (uint64_t)b[5] << 16
            | (uint64_t)b[6] << 8 | (uint64_t)b[7];
    }
    for (int t = 16; t < 80; t++) {
        uint64_t s0 = ROTR64(w[t - 15], 1) ^ ROTR64(w[t - 15], 8) ^ (w[t - 15] >> 7);
        uint64_t s1 = ROTR64(w[t - 2], 19) ^ ROTR64(w[t - 2], 61) ^ (w[t - 2] >> 6);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint64_t a = hash[0], b = hash[1], c = hash[2], d = hash[3];
    uint64_t e = hash[4], f = hash[5], g = hash[6], h = hash[7];
    for (int t = 0; t < 80; t++) {
        uint64_t s1 = ROTR64(e, 14) ^ ROTR64(e, 18) ^ ROTR64(e, 41);
        uint64_t ch = (e & f) ^ (~e & g);
        uint64_t t1 = h + s1 + ch + SHA512_K[t] + w[t];
        uint64_t s0 = ROTR64(a, 28) ^ ROTR64(a, 34) ^ ROTR64(a, 39);
        uint64_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint64_t t2 = s0 + maj;
        h = g; g = f; f = e; e = d + t1;
        d = c; c = b; b = a; a = t1 + t2;
    }
    hash[0] += a; hash[1] += b; hash[2] += c; hash[3] += d;
    hash[4] += e; hash[5] += f; hash[6] += g; hash[7] += h;
}

/* The digest of a message of at most 64 bytes (one or two blocks). */
static void sha512_short(const unsigned char *message, size_t length, unsigned char out[64]) {
    uint64_t hash[8] = {
        0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
        0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
        0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
    };
    unsigned char blocks[256];
    size_t total = (length + 1 + 16 <= 128) ? 128 : 256;
    memset(blocks, 0, total);
    memcpy(blocks, message, length);
    blocks[length] = 0x80;
    uint64_t bits = (uint64_t)length * 8;
    for (int b = 0; b < 8; b++) {
        blocks[total - 1 - b] = (unsigned char)(bits >> (8 * b));
    }
    for (size_t offset = 0; offset < total; offset += 128) {
        sha512_block(hash, blocks + offset);
    }
    for (int i = 0; i < 8; i++) {
        for (int b = 0; b < 8; b++) {
            out[i * 8 + b] = (unsigned char)(hash[i] >> (56 - 8 * b));
        }
    }
}

/* ------------------------------------------------------------------ MT19937 (as CPython) */

static void init_by_array(py_random *rng, const uint32_t *key, size_t key_length) {
    uint32_t *mt = rng->state;
    memcpy(mt, MT_INIT, sizeof MT_INIT); /* init_genrand(rng, 19650218U) */
    rng->index = MT_N;
    rng->ready = MT_N;
    size_t i = 1, j = 0;
    size_t k = MT_N > key_length ? MT_N : key_length;
    for (; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= key_length) {
            j = 0;
        }
    }
    for (k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
}

/* init_by_array for up to PY_RANDOM_LANES keys of the same length at once: the same steps,
 * one vector lane per key (GCC/Clang vector extensions; AVX2 when the CPU has it). Each
 * step waits on the step before it (a multiply), so the lanes run as LANE_GROUPS
 * independent vectors of VECTOR_LANES whose steps overlap. */
#if defined(__GNUC__)
#define VECTOR_LANES 8
#define LANE_GROUPS (PY_RANDOM_LANES / VECTOR_LANES)
typedef uint32_t lanes_u32 __attribute__((vector_size(4 * VECTOR_LANES)));

#if defined(__clang__)
#define SHUFFLE8(a, b, i0, i1, i2, i3, i4, i5, i6, i7) \
    __builtin_shufflevector(a, b, i0, i1, i2, i3, i4, i5, i6, i7)
#else
#define SHUFFLE8(a, b, i0, i1, i2, i3, i4, i5, i6, i7) \
    __builtin_shuffle(a, b, (lanes_u32){i0, i1, i2, i3, i4, i5, i6, i7})
#endif

/* rows[w][l] becomes rows[l][w]: three rounds of two-vector shuffles (AVX2's unpacks and
 * 128-bit permutes). */
static inline __attribute__((always_inline)) void transpose8(lanes_u32 rows[8]) {
    lanes_u32 t[8], u[8];
    for (int r = 0; r < 8; r += 2) {
        t[r] = SHUFFLE8(rows[r], rows[r + 1], 0, 8, 1, 9, 4, 12, 5, 13);
        t[r + 1] = SHUFFLE8(rows[r], rows[r + 1], 2, 10, 3, 11, 6, 14, 7, 15);
    }
    for (int r = 0; r < 8; r += 4) {
        u[r] = SHUFFLE8(t[r], t[r + 2], 0, 1, 8, 9, 4, 5, 12, 13);
        u[r + 1] = SHUFFLE8(t[r], t[r + 2], 2, 3, 10, 11, 6, 7, 14, 15);
        u[r + 2] = SHUFFLE8(t[r + 1], t[r + 3], 0, 1, 8, 9, 4, 5, 12, 13);
        u[r + 3] = SHUFFLE8(t[r + 1], t[r + 3], 2, 3, 10, 11, 6, 7, 14, 15);
    }
    for (int r = 0; r < 4; r++) {
        rows[r] = SHUFFLE8(u[r], u[r + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        rows[r + 4] = SHUFFLE8(u[r], u[r + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
}

/* The working state: word w of lane g * VECTOR_LANES + l is mt[w][g][l]. */
typedef struct {
    lanes_u32 mt[MT_N][LANE_GROUPS]; /* the first pass's words */
    lanes_u32 key[32][LANE_GROUPS];
} lanes_work;

/* Lanes [first, count) of group g get words [w, w + 8) from rows (word r of every lane). */
static inline __attribute__((always_inline)) void store_block(py_random *rngs, int count,
                                                              int g, size_t w,
                                                              lanes_u32 rows[8]) {
    transpose8(rows);
    for (int lane = 0; lane < VECTOR_LANES && g * VECTOR_LANES + lane < count; lane++) {
        memcpy(rngs[g * VECTOR_LANES + lane].state + w, &rows[lane], sizeof rows[lane]);
    }
}

static inline __attribute__((always_inline)) void init_by_array_lanes_body(
    lanes_work *work, py_random *rngs, int count, uint32_t keys[PY_RANDOM_LANES][32],
    size_t key_length) {
    lanes_u32 (*mt)[LANE_GROUPS] = work->mt;
    lanes_u32 (*key)[LANE_GROUPS] = work->key;
    for (size_t w = 0; w < key_length; w++) {
        for (int lane = 0; lane < PY_RANDOM_LANES; lane++) { /* lanes past count: lane 0's */
            key[w][lane / VECTOR_LANES][lane % VECTOR_LANES]
                = keys[lane < count ? lane : 0][w] + (uint32_t)w; /* the scalar loop adds j */
        }
    }
    /* The first pass: MT_N steps (key_length <= 32), i from 1 to MT_N - 1 over words
     * still init_genrand's (read from MT_INIT), then word 1 again. */
    lanes_u32 previous[LANE_GROUPS]; /* mt[i - 1], kept in registers */
    for (int g = 0; g < LANE_GROUPS; g++) {
        previous[g] = (lanes_u32){0} + MT_INIT[0];
    }
    size_t j = 0;
    for (size_t i = 1; i < MT_N; i++) {
        for (int g = 0; g < LANE_GROUPS; g++) {
            lanes_u32 old = (lanes_u32){0} + MT_INIT[i];
            previous[g] = (old ^ ((previous[g] ^ (previous[g] >> 30)) * 1664525U)) + key[j][g];
            mt[i][g] = previous[g];
        }
        j = j + 1 < key_length ? j + 1 : 0;
    }
    for (int g = 0; g < LANE_GROUPS; g++) {
        previous[g] = (mt[1][g] ^ ((previous[g] ^ (previous[g] >> 30)) * 1664525U))
            + key[j][g];
        mt[1][g] = previous[g];
    }
    /* The second pass: MT_N - 1 steps, i from 2 to MT_N - 1, then 1; each word is final
     * when made, so blocks of 8 go to the generators as soon as they are whole. */
    lanes_u32 ring[8][LANE_GROUPS], first[8][LANE_GROUPS];
    for (size_t i = 2; i < MT_N; i++) {
        for (int g = 0; g < LANE_GROUPS; g++) {
            previous[g] = (mt[i][g] ^ ((previous[g] ^ (previous[g] >> 30)) * 1566083941U))
                - (uint32_t)i;
            ring[i & 7][g] = previous[g];
        }
        if (i < 8) {
            for (int g = 0; g < LANE_GROUPS; g++) {
                first[i][g] = previous[g];
            }
        } else if ((i & 7) == 7) {
            for (int g = 0; g < LANE_GROUPS; g++) {
                lanes_u32 rows[8];
                for (int r = 0; r < 8; r++) {
                    rows[r] = ring[r][g];
                }
                store_block(rngs, count, g, i - 7, rows);
            }
        }
    }
    for (int g = 0; g < LANE_GROUPS; g++) {
        first[1][g] = (mt[1][g] ^ ((previous[g] ^ (previous[g] >> 30)) * 1566083941U)) - 1U;
        first[0][g] = (lanes_u32){0} + 0x80000000U;
        lanes_u32 rows[8];
        for (int r = 0; r < 8; r++) {
            rows[r] = first[r][g];
        }
        store_block(rngs, count, g, 0, rows);
    }
    for (int lane = 0; lane < count; lane++) {
        rngs[lane].index = MT_N;
        rngs[lane].ready = MT_N;
    }
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2"))) static void init_by_array_lanes_avx2(
    lanes_work *work, py_random *rngs, int count, uint32_t keys[PY_RANDOM_LANES][32],
    size_t key_length) {
    init_by_array_lanes_body(work, rngs, count, keys, key_length);
}
#endif

static void init_by_array_lanes_plain(lanes_work *work, py_random *rngs, int count,
                                      uint32_t keys[PY_RANDOM_LANES][32], size_t key_length) {
    init_by_array_lanes_body(work, rngs, count, keys, key_length);
}

/* Returns -1 (nothing done) without memory for the working state. */
static int init_by_array_lanes(py_random *rngs, int count, uint32_t keys[PY_RANDOM_LANES][32],
                               size_t key_length) {
    /* 80 KB: too much for some threads' stacks; aligned for the vectors by hand */
    unsigned char *memory = malloc(sizeof(lanes_work) + sizeof(lanes_u32));
    if (memory == NULL) {
        return -1;
    }
    lanes_work *work = (lanes_work *)(void *)(memory + (sizeof(lanes_u32)
        - (uintptr_t)memory % sizeof(lanes_u32)) % sizeof(lanes_u32));
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("avx2")) {
        init_by_array_lanes_avx2(work, rngs, count, keys, key_length);
        free(memory);
        return 0;
    }
#endif
    init_by_array_lanes_plain(work, rngs, count, keys, key_length);
    free(memory);
    return 0;
}
#define HAVE_LANES 1
#endif

/* The generation after ``state``, words [ready, end) (CPython twists all 624 at once; word
 * kk reads words kk + 1 and kk + 397 of the old generation, or kk - 227 of the new one,
 * so twisting in order, a chunk at a time, gives the same words). */
static inline uint32_t twist_word(uint32_t here, uint32_t next, uint32_t far) {
    uint32_t y = (here & 0x80000000U) | (next & 0x7fffffffU);
    return far ^ (y >> 1) ^ (-(y & 0x1U) & 0x9908b0dfU);
}

#if defined(__GNUC__)
/* Four words at a time (SSE2 or NEON): word kk never reads a word twisted in its group. */
typedef uint32_t quad_u32 __attribute__((vector_size(16)));

static inline quad_u32 load_quad(const uint32_t *words) {
    quad_u32 v;
    memcpy(&v, words, sizeof v);
    return v;
}

static inline int twist_quads(uint32_t *mt, int kk, int stop, int far) {
    for (; kk + 4 <= stop; kk += 4) {
        quad_u32 y = (load_quad(mt + kk) & 0x80000000U) | (load_quad(mt + kk + 1) & 0x7fffffffU);
        quad_u32 v = load_quad(mt + kk + far) ^ (y >> 1) ^ (-(y & 0x1U) & 0x9908b0dfU);
        memcpy(mt + kk, &v, sizeof v);
    }
    return kk;
}
#else
static inline int twist_quads(uint32_t *mt, int kk, int stop, int far) {
    (void)mt;
    (void)stop;
    (void)far;
    return kk;
}
#endif

static void twist_until(py_random *rng, int end) {
    uint32_t *mt = rng->state;
    int kk = rng->ready;
    int stop = end < MT_N - 397 ? end : MT_N - 397;
    kk = twist_quads(mt, kk, stop, 397);
    for (; kk < stop; kk++) {
        mt[kk] = twist_word(mt[kk], mt[kk + 1], mt[kk + 397]);
    }
    stop = end < MT_N - 1 ? end : MT_N - 1;
    if (kk < stop) {
        kk = twist_quads(mt, kk, stop, 397 - MT_N);
    }
    for (; kk < stop; kk++) {
        mt[kk] = twist_word(mt[kk], mt[kk + 1], mt[kk + (397 - MT_N)]);
    }
    if (kk < end) {
        mt[MT_N - 1] = twist_word(mt[MT_N - 1], mt[0], mt[396]);
        kk++;
    }
    rng->ready = kk;
}

#define TWIST_CHUNK 64

void py_random_complete(py_random *rng) {
    if (rng->ready < MT_N) {
        twist_until(rng, MT_N);
    }
}

void py_random_refill(py_random *rng) {
    if (rng->index >= MT_N) {
        rng->index = 0;
        rng->ready = 0;
    }
    int end = rng->index + TWIST_CHUNK;
    twist_until(rng, end < MT_N ? end : MT_N);
}

void py_random_u32s(py_random *rng, uint32_t *out, int count) {
    while (count > 0) {
        if (rng->index >= MT_N) {
            rng->index = 0;
            rng->ready = 0;
        }
        int end = rng->index + count < MT_N ? rng->index + count : MT_N;
        if (rng->ready < end) {
            twist_until(rng, end);
        }
        const uint32_t *mt = rng->state + rng->index;
        int n = end - rng->index;
        for (int i = 0; i < n; i++) { /* the tempering of py_random_u32 */
            uint32_t y = mt[i];
            y ^= (y >> 11);
            y ^= (y << 7) & 0x9d2c5680U;
            y ^= (y << 15) & 0xefc60000U;
            y ^= (y >> 18);
            out[i] = y;
        }
        rng->index = end;
        out += n;
        count -= n;
    }
}

/* Python: int.from_bytes(text + sha512(text).digest(), "big"), then its 32-bit words from
 * the least significant one (the text starts with a non-zero byte). Returns the count. */
static size_t key_of_digest(const char *text, size_t length, const unsigned char digest[64],
                            uint32_t key[32]) {
    unsigned char bytes[128], reversed[132];
    size_t total = length + 64;
    memcpy(bytes, text, length);
    memcpy(bytes + length, digest, 64);
    for (size_t i = 0; i < total; i++) {
        reversed[i] = bytes[total - 1 - i];
    }
    memset(reversed + total, 0, 4);
    size_t words = (total + 3) / 4;
    for (size_t w = 0; w < words; w++) { /* little-endian words of the reversed bytes */
        const unsigned char *b = reversed + 4 * w;
        key[w] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16
            | (uint32_t)b[3] << 24;
    }
    return words;
}

static size_t text_key(const char *text, size_t length, uint32_t key[32]) {
    unsigned char digest[64];
    sha512_short((const unsigned char *)text, length, digest);
    return key_of_digest(text, length, digest, key);
}

#ifdef HAVE_LANES
/* sha512_short for PY_RANDOM_LANES texts of one length (one block: at most 111 bytes), four
 * lanes to a vector (AVX2's 256 bits). */
typedef uint64_t lanes_u64 __attribute__((vector_size(32)));
#define SHA_LANES 4
#define ROTR_LANES(x, n) ((x) >> (n) | (x) << (64 - (n)))

static inline __attribute__((always_inline)) void sha512_lanes_body(
    const char *const *texts, size_t length, int count, unsigned char digests[][64]) {
    static const uint64_t start[8] = {
        0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
        0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
        0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
    };
    for (int first = 0; first < count; first += SHA_LANES) {
        lanes_u64 w[16];
        for (int lane = 0; lane < SHA_LANES; lane++) {
            unsigned char block[128]; /* lanes past count hash the first text */
            const char *text = texts[first + lane < count ? first + lane : 0];
            memset(block, 0, sizeof block);
            memcpy(block, text, length);
            block[length] = 0x80;
            uint64_t bits = (uint64_t)length * 8;
            for (int b = 0; b < 8; b++) {
                block[127 - b] = (unsigned char)(bits >> (8 * b));
            }
            for (int t = 0; t < 16; t++) {
                const unsigned char *b = block + t * 8;
                w[t][lane] = (uint64_t)b[0] << 56 | (uint64_t)b[1] << 48
                    | (uint64_t)b[2] << 40 | (uint64_t)b[3] << 32 | (uint64_t)b[4] << 24
                    | (uint64_t)b[5] << 16 | (uint64_t)b[6] << 8 | (uint64_t)b[7];
            }
        }
        lanes_u64 a = (lanes_u64){0} + start[0], b = (lanes_u64){0} + start[1];
        lanes_u64 c = (lanes_u64){0} + start[2], d = (lanes_u64){0} + start[3];
        lanes_u64 e = (lanes_u64){0} + start[4], f = (lanes_u64){0} + start[5];
        lanes_u64 g = (lanes_u64){0} + start[6], h = (lanes_u64){0} + start[7];
        for (int t = 0; t < 80; t++) {
            if (t >= 16) { /* the schedule in a ring of 16 */
                lanes_u64 w15 = w[(t - 15) & 15], w2 = w[(t - 2) & 15];
                lanes_u64 s0 = ROTR_LANES(w15, 1) ^ ROTR_LANES(w15, 8) ^ (w15 >> 7);
                lanes_u64 s1 = ROTR_LANES(w2, 19) ^ ROTR_LANES(w2, 61) ^ (w2 >> 6);
                w[t & 15] = w[t & 15] + s0 + w[(t - 7) & 15] + s1;
            }
            lanes_u64 s1 = ROTR_LANES(e, 14) ^ ROTR_LANES(e, 18) ^ ROTR_LANES(e, 41);
            lanes_u64 ch = (e & f) ^ (~e & g);
            lanes_u64 t1 = h + s1 + ch + SHA512_K[t] + w[t & 15];
            lanes_u64 s0 = ROTR_LANES(a, 28) ^ ROTR_LANES(a, 34) ^ ROTR_LANES(a, 39);
            lanes_u64 maj = (a & b) ^ (a & c) ^ (b & c);
            lanes_u64 t2 = s0 + maj;
            h = g; g = f; f = e; e = d + t1;
            d = c; c = b; b = a; a = t1 + t2;
        }
        lanes_u64 hash[8] = {a + start[0], b + start[1], c + start[2], d + start[3],
                             e + start[4], f + start[5], g + start[6], h + start[7]};
        for (int lane = 0; lane < SHA_LANES && first + lane < count; lane++) {
            for (int i = 0; i < 8; i++) {
                for (int byte = 0; byte < 8; byte++) {
                    digests[first + lane][i * 8 + byte]
                        = (unsigned char)(hash[i][lane] >> (56 - 8 * byte));
                }
            }
        }
    }
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2"))) static void sha512_lanes_avx2(
    const char *const *texts, size_t length, int count, unsigned char digests[][64]) {
    sha512_lanes_body(texts, length, count, digests);
}
#endif

static void sha512_lanes_plain(const char *const *texts, size_t length, int count,
                               unsigned char digests[][64]) {
    sha512_lanes_body(texts, length, count, digests);
}

static void sha512_lanes(const char *const *texts, size_t length, int count,
                         unsigned char digests[][64]) {
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("avx2")) {
        sha512_lanes_avx2(texts, length, count, digests);
        return;
    }
#endif
    sha512_lanes_plain(texts, length, count, digests);
}
#endif

void py_random_seed_text(py_random *rng, const char *text, size_t length) {
    uint32_t key[32];
    size_t words = text_key(text, length, key);
    init_by_array(rng, key, words);
}

void py_random_seed_texts(py_random *rngs, const char *const *texts, const size_t *lengths,
                          int count) {
    uint32_t keys[PY_RANDOM_LANES][32];
    size_t words[PY_RANDOM_LANES];
    int same = 1;
#ifdef HAVE_LANES
    int one_length = count >= VECTOR_LANES && lengths[0] <= 111;
    for (int lane = 0; lane < count; lane++) {
        one_length &= lengths[lane] == lengths[0];
    }
    if (one_length) {
        unsigned char digests[PY_RANDOM_LANES][64];
        sha512_lanes(texts, lengths[0], count, digests);
        for (int lane = 0; lane < count; lane++) {
            words[lane] = key_of_digest(texts[lane], lengths[lane], digests[lane], keys[lane]);
        }
    } else
#endif
    {
        for (int lane = 0; lane < count; lane++) {
            words[lane] = text_key(texts[lane], lengths[lane], keys[lane]);
            same &= words[lane] == words[0];
        }
    }
#ifdef HAVE_LANES
    if (same && count >= VECTOR_LANES && init_by_array_lanes(rngs, count, keys, words[0]) == 0) {
        return;
    }
#endif
    for (int lane = 0; lane < count; lane++) {
        init_by_array(rngs + lane, keys[lane], words[lane]);
    }
}

void py_random_seed_u64(py_random *rng, uint64_t value) {
    uint32_t key[2] = {(uint32_t)value, (uint32_t)(value >> 32)};
    init_by_array(rng, key, value >> 32 ? 2 : 1);
}
