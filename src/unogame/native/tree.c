#define _POSIX_C_SOURCE 199309L
#include "tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search.h"

/* ------------------------------------------------------------------ determinizations */

/* rng.randrange(52) (CPython: getrandbits(6) until below 52). */
static int randrange_wild(py_random *rng) {
    for (;;) {
        int value = (int)(py_random_u32(rng) >> 26);
        if (value < CARD_WILD) {
            return value;
        }
    }
}

/* rng.randrange(n) for 0 < n < 2**31 (CPython: getrandbits(n.bit_length()) until below n). */
static int randbelow(py_random *rng, int n) {
    int bits = 0;
    while ((n >> bits) != 0) {
        bits++;
    }
    for (;;) {
        int value = (int)(py_random_u32(rng) >> (32 - bits));
        if (value < n) {
            return value;
        }
    }
}

/* bots.determinize._reshuffled: size places of cards dealt again (Fisher-Yates), the first
 * ones or the last. */
static void reshuffle(uint8_t *cards, int count, int size, int from_front, py_random *rng) {
    int places = size < count ? size : count;
    if (from_front) {
        for (int i = 0; i < places; i++) {
            int j = i + randbelow(rng, count - i);
            uint8_t card = cards[i];
            cards[i] = cards[j];
            cards[j] = card;
        }
    } else {
        for (int i = count - 1; i > count - 1 - places; i--) {
            int j = randbelow(rng, i + 1);
            uint8_t card = cards[i];
            cards[i] = cards[j];
            cards[j] = card;
        }
    }
}

static int has_limits(const uno_sample_spec *spec, int seat) {
    for (int c = 0; c < CARD_CLASSES; c++) {
        if (spec->limit[seat][c] >= 0) {
            return 1;
        }
    }
    return 0;
}

/* bots.determinize._deal_seat: one seat's hand from cards[0..count) (shuffled), into
 * hand; the cards left stay in order in cards; returns how many are left. */
static int deal_seat(const uno_sample_spec *spec, int other, uint8_t *cards, int count,
                     uint8_t *hand, int *hand_length, py_random *rng) {
    int size = spec->hand_size[other];
    int length = spec->known_length[other] < size ? spec->known_length[other] : size;
    memcpy(hand, spec->known[other], (size_t)length);
    int need = size - length;
    int named = spec->named[other];
    if (need && named >= 0) {
        int holds = 0;
        for (int i = 0; i < length; i++) {
            holds |= CARD_COLOR[hand[i]] == named;
        }
        for (int index = count - 1; index >= 0 && !holds; index--) {
            if (CARD_COLOR[cards[index]] == named) {
                hand[length++] = cards[index];
                memmove(cards + index, cards + index + 1, (size_t)(count - index - 1));
                count--;
                need--;
                break;
            }
        }
    }
    if (need && has_limits(spec, other)) {
        int left[CARD_CLASSES], kept = 0;
        for (int c = 0; c < CARD_CLASSES; c++) {
            left[c] = spec->limit[other][c] >= 0 ? spec->limit[other][c] : size;
        }
        for (int i = 0; i < count; i++) {
            int card = cards[i];
            if (need && left[CARD_COLOR[card]] > 0) {
                left[CARD_COLOR[card]]--;
                hand[length++] = (uint8_t)card;
                need--;
            } else {
                cards[kept++] = (uint8_t)card;
            }
        }
        count = kept;
    }
    if (need) { /* hand.extend(cards[len(cards) - need:]), Python's slice clamped */
        int start = count - need;
        if (start < 0) {
            start = start + count > 0 ? start + count : 0;
        }
        memcpy(hand + length, cards + start, (size_t)(count - start));
        length += count - start;
        count = start;
    }
    while (length < size) { /* only with an inconsistent hand-written position */
        hand[length++] = (uint8_t)randrange_wild(rng);
    }
    *hand_length = length;
    return count;
}

/* bots.ismcts.deal_hidden and _sampled_pending, into a copy of base. */
void uno_sample_world(const uno_state *base, const uno_sample_spec *spec, py_random *rng,
                         uno_state *world) {
    *world = *base;
    world->seed = (int64_t)py_random_u32(rng); /* rng.getrandbits(32) */
    world->shuffles = 0;
    uint8_t cards[MAX_CARDS], again[MAX_CARDS], hand_again[MAX_CARDS];
    int count = spec->pool_length;
    memcpy(cards, spec->pool, (size_t)count);
    uno_shuffle(rng, cards, count);
    int order[MAX_PLAYERS], n = 0;
    for (int pass = 0; pass < 2; pass++) { /* seats with limits first (a stable sort) */
        for (int other = 0; other < world->players; other++) {
            if (other != spec->seat && has_limits(spec, other) == !pass) {
                order[n++] = other;
            }
        }
    }
    uno_state *probe = spec->probe;
    for (int k = 0; k < n; k++) {
        int other = order[k], length;
        uint8_t *hand = world->hand[other];
        int decisions = spec->decision_count[other];
        if (spec->tries <= 1 || decisions == 0) {
            count = deal_seat(spec, other, cards, count, hand, &length, rng);
        } else {
            memcpy(again, cards, (size_t)count);
            int before = count;
            count = deal_seat(spec, other, cards, count, hand, &length, rng);
            int missed = uno_belief_misses(probe, spec->decisions[other], decisions, hand,
                                           length, other, MAX_DECISIONS + 1);
            for (int attempt = 1; attempt < spec->tries && missed; attempt++) {
                uint8_t shuffled[MAX_CARDS];
                memcpy(shuffled, again, (size_t)before);
                reshuffle(shuffled, before, spec->hand_size[other], has_limits(spec, other), rng);
                int length_again;
                int left = deal_seat(spec, other, shuffled, before, hand_again, &length_again,
                                     rng);
                int missed_again = uno_belief_misses(probe, spec->decisions[other], decisions,
                                                     hand_again, length_again, other, missed);
                if (missed_again < missed) {
                    missed = missed_again;
                    memcpy(hand, hand_again, (size_t)length_again);
                    length = length_again;
                    memcpy(cards, shuffled, (size_t)left);
                    count = left;
                }
            }
        }
        world->hand_len[other] = (uint8_t)length;
        uno_hand_changed(world, other);
    }
    int draw = spec->draw_pile < count ? spec->draw_pile : count;
    memcpy(world->draw, cards, (size_t)draw);
    world->draw_len = (uint8_t)draw;
    if (spec->challenge) {
        int by = world->pending.by, guilty = 0;
        for (int i = 0; i < world->hand_len[by]; i++) {
            guilty |= CARD_COLOR[world->hand[by][i]] == world->pending.color;
        }
        world->pending.guilty = (uint8_t)guilty;
    }
}

/* ------------------------------------------------------------------ the tree */

typedef struct {
    int32_t key; /* move code << 4 | seat */
    int parent, first_child, next_sibling, seat;
    long visits, avail;
    double reward;
} tree_node;

typedef struct {
    tree_node *nodes;
    int length, capacity;
} tree_arena;

static int new_node(tree_arena *tree, int parent, int seat, int32_t key) {
    if (tree->length == tree->capacity) {
        int capacity = tree->capacity ? tree->capacity * 2 : 4096;
        tree_node *grown = realloc(tree->nodes, sizeof *grown * (size_t)capacity);
        if (grown == NULL) {
            return -1;
        }
        tree->nodes = grown;
        tree->capacity = capacity;
    }
    int index = tree->length++;
    tree_node *node = tree->nodes + index;
    node->key = key;
    node->parent = parent;
    node->first_child = -1;
    node->next_sibling = -1;
    node->seat = seat;
    node->visits = 0;
    node->avail = 1;
    node->reward = 0.0;
    if (parent >= 0) { /* appended: the children keep their order of creation */
        int *link = &tree->nodes[parent].first_child;
        while (*link >= 0) {
            link = &tree->nodes[*link].next_sibling;
        }
        *link = index;
    }
    return index;
}

static int find_child(const tree_arena *tree, int parent, int32_t key) {
    for (int child = tree->nodes[parent].first_child; child >= 0;
         child = tree->nodes[child].next_sibling) {
        if (tree->nodes[child].key == key) {
            return child;
        }
    }
    return -1;
}

double uno_monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

int uno_root_legal(const uno_state *s, int seat, int32_t code) {
    int32_t moves[MAX_MOVES];
    int n = uno_legal_moves(s, seat, moves);
    for (int i = 0; i < n; i++) {
        if (moves[i] == code) {
            return 1;
        }
    }
    return 0;
}

/* One walk from a root child down the tree (the rollout policy's move expanded first,
 * other moves as the node gathers visits), a rollout and the backpropagation. */
static long iterate(tree_arena *tree, int node, uno_state *game, const uno_search_params *p,
                    int seat, py_random *rng) {
    long made = 1;
    int32_t moves[MAX_MOVES];
    int children_of[MAX_MOVES];
    while (game->winner < 0) {
        int mover = game->turn;
        int32_t policy;
        int n = uno_search_step(game, mover, p->medium, moves, &policy);
        int expand = -1;
        int32_t expand_code = 0;
        if (find_child(tree, node, policy << 4 | mover) < 0) {
            expand_code = policy;
            expand = 1;
        } else {
            int present = 0;
            for (int i = 0; i < n; i++) {
                children_of[i] = find_child(tree, node, moves[i] << 4 | mover);
                present += children_of[i] >= 0;
            }
            int widening = mover == seat ? p->widening : p->opponent_widening;
            if (present < n && widening >= 0
                && (long)present * present * widening <= tree->nodes[node].visits) {
                int untried = n - present;
                int pick = (int)(py_random_random(rng) * untried);
                for (int i = 0; i < n; i++) {
                    if (children_of[i] < 0 && pick-- == 0) {
                        expand_code = moves[i];
                        break;
                    }
                }
                expand = 1;
            } else {
                int kept = 0;
                for (int i = 0; i < n; i++) {
                    if (children_of[i] >= 0) {
                        moves[kept] = moves[i];
                        children_of[kept++] = children_of[i];
                    }
                }
                n = kept;
            }
        }
        if (expand > 0) {
            int child = new_node(tree, node, mover, expand_code << 4 | mover);
            if (child < 0) {
                return -3;
            }
            for (int i = 0; i < n; i++) {
                int sibling = find_child(tree, node, moves[i] << 4 | mover);
                if (sibling >= 0 && sibling != child) {
                    tree->nodes[sibling].avail++;
                }
            }
            if (uno_apply(game, mover, expand_code, NULL) < 0) {
                return -2;
            }
            made++;
            node = child;
            break;
        }
        int best_child = -1;
        int32_t best_move = moves[0];
        double best_value = -1.0;
        for (int i = 0; i < n; i++) {
            tree_node *child = tree->nodes + children_of[i];
            child->avail++;
            double value = child->reward / (double)child->visits
                + p->exploration * sqrt(log((double)child->avail) / (double)child->visits);
            if (value > best_value) {
                best_child = children_of[i];
                best_move = moves[i];
                best_value = value;
            }
        }
        if (best_child < 0 || uno_apply(game, mover, best_move, NULL) < 0) {
            return -2;
        }
        made++;
        node = best_child;
    }
    double rewards[MAX_PLAYERS];
    int plies = uno_rollout_rewards(game, p->medium, p->plies, p->sharpness, rewards);
    if (plies < 0) {
        return -2;
    }
    while (node > 0) { /* node 0 is the root */
        tree_node *at = tree->nodes + node;
        at->visits++;
        at->reward += rewards[at->seat];
        node = at->parent;
    }
    tree->nodes[0].visits++;
    return made + plies;
}

/* Sequential halving at the root: the better half (rounded up) of the root moves still
 * searched, by mean reward (ties to the earlier move), kept in their order. */
static int halve(const tree_arena *tree, int *alive, int alive_count) {
    int keep = (alive_count + 1) / 2, kept[MAX_MOVES], n = 0;
    uint8_t chosen[MAX_MOVES] = {0};
    for (int round = 0; round < keep; round++) {
        int best = -1;
        double best_mean = 0.0;
        for (int k = 0; k < alive_count; k++) {
            const tree_node *node = tree->nodes + 1 + alive[k];
            double mean = node->visits ? node->reward / (double)node->visits : 0.0;
            if (!chosen[k] && (best < 0 || mean > best_mean)) {
                best = k;
                best_mean = mean;
            }
        }
        chosen[best] = 1;
    }
    for (int k = 0; k < alive_count; k++) {
        if (chosen[k]) {
            kept[n++] = alive[k];
        }
    }
    memcpy(alive, kept, sizeof(int) * (size_t)n);
    return n;
}

long uno_search(const uno_state *base, const uno_sample_spec *spec,
                const uno_search_params *params, const int32_t *options, int count,
                py_random *rng, long *visits, double *rewards) {
    tree_arena tree = {NULL, 0, 0};
    long done = 0, steps_left = params->budget, result = 0;
    uno_state *world = malloc(2 * sizeof *world);
    if (world == NULL || new_node(&tree, -1, -1, 0) < 0) {
        free(world);
        free(tree.nodes);
        return -3;
    }
    uno_state *game = world + 1;
    for (int i = 0; i < count; i++) {
        if (new_node(&tree, 0, spec->seat, options[i] << 4 | spec->seat) < 0) {
            result = -3;
        }
    }
    int alive[MAX_MOVES], alive_count = count, phases = 1, halved = 0;
    for (int i = 0; i < count; i++) {
        alive[i] = i;
    }
    while (params->halving && (1 << phases) < count) {
        phases++;
    }
    long phase_budget = params->budget / phases;
    while (result == 0 && done < params->iterations && steps_left > 0) {
        if (params->halving && alive_count > 1
            && params->budget - steps_left >= phase_budget * (halved + 1)) {
            alive_count = halve(&tree, alive, alive_count);
            halved++;
        }
        uno_sample_world(base, spec, rng, world);
        for (int k = 0; k < alive_count && result == 0; k++) {
            int i = alive[k];
            done++;
            *game = *world;
            if (!uno_root_legal(game, spec->seat, options[i])) {
                result = -1;
                break;
            }
            if (uno_apply(game, spec->seat, options[i], NULL) < 0) {
                result = -2;
                break;
            }
            long steps = iterate(&tree, 1 + i, game, params, spec->seat, rng);
            if (steps < 0) {
                result = steps;
                break;
            }
            steps_left -= steps;
        }
        if (params->deadline > 0 && uno_monotonic_seconds() > params->deadline) {
            break;
        }
    }
    for (int i = 0; i < count; i++) {
        visits[i] = tree.nodes[1 + i].visits;
        rewards[i] = tree.nodes[1 + i].reward;
    }
    free(world);
    free(tree.nodes);
    return result < 0 ? result : done;
}
