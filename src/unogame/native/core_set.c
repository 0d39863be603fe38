/* CPython 3.11's set table for small non-negative ints (hash(i) == i): insertion,
 * tombstones, resizing and iteration order as in Objects/setobject.c. */
#include <string.h>

#include "core.h"

#define LINEAR_PROBES 9
#define PERTURB_SHIFT 5
#define EMPTY (-1)
#define DUMMY (-2)

void set_clear(small_set *set) {
    memset(set->key, EMPTY, 8);
    set->mask = 7;
    set->fill = 0;
    set->used = 0;
}

static void insert_clean(int8_t *table, size_t mask, int key) {
    size_t perturb = (size_t)key;
    size_t i = (size_t)key & mask;
    for (;;) {
        if (table[i] == EMPTY) {
            table[i] = (int8_t)key;
            return;
        }
        if (i + LINEAR_PROBES <= mask) {
            for (size_t j = 1; j <= LINEAR_PROBES; j++) {
                if (table[i + j] == EMPTY) {
                    table[i + j] = (int8_t)key;
                    return;
                }
            }
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

static void resize(small_set *set, size_t minused) {
    size_t size = 8;
    while (size <= minused) {
        size <<= 1;
    }
    if (size > sizeof set->key) { /* cannot happen for keys below 64 */
        size = sizeof set->key;
    }
    int8_t old[sizeof set->key];
    size_t old_size = (size_t)set->mask + 1;
    memcpy(old, set->key, old_size);
    memset(set->key, EMPTY, size);
    set->mask = (uint8_t)(size - 1);
    set->fill = set->used;
    for (size_t i = 0; i < old_size; i++) {
        if (old[i] >= 0) {
            insert_clean(set->key, set->mask, old[i]);
        }
    }
}

void set_add(small_set *set, int key) {
    size_t mask = set->mask;
    size_t i = (size_t)key & mask;
    size_t perturb = (size_t)key;
    long freeslot = -1;
    for (;;) {
        size_t entry = i;
        int probes = (i + LINEAR_PROBES <= mask) ? LINEAR_PROBES : 0;
        do {
            int8_t found = set->key[entry];
            if (found == EMPTY) {
                if (freeslot >= 0) {
                    set->used++;
                    set->key[freeslot] = (int8_t)key;
                    return;
                }
                set->fill++;
                set->used++;
                set->key[entry] = (int8_t)key;
                if ((size_t)set->fill * 5 >= mask * 3) {
                    resize(set, (size_t)set->used * 4);
                }
                return;
            }
            if (found == key) {
                return;
            }
            if (found == DUMMY) { /* CPython keeps the last tombstone seen */
                freeslot = (long)entry;
            }
            entry++;
        } while (probes--);
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

static long lookup(const small_set *set, int key) {
    size_t mask = set->mask;
    size_t i = (size_t)key & mask;
    size_t perturb = (size_t)key;
    for (;;) {
        size_t entry = i;
        int probes = (i + LINEAR_PROBES <= mask) ? LINEAR_PROBES : 0;
        do {
            int8_t found = set->key[entry];
            if (found == EMPTY) {
                return -1;
            }
            if (found == key) {
                return (long)entry;
            }
            entry++;
        } while (probes--);
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

void set_discard(small_set *set, int key) {
    long entry = lookup(set, key);
    if (entry >= 0) {
        set->key[entry] = DUMMY;
        set->used--;
    }
}

int set_contains(const small_set *set, int key) {
    return lookup(set, key) >= 0;
}
