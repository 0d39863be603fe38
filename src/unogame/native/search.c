#include "search.h"

#include <math.h>

#include "medium.h"
#include "policy.h"

/* bots.ismcts.search_moves over the seat's legal moves. */
static int search_moves_of(const uno_state *s, int seat, const int32_t *moves, int n,
                           int32_t *out) {
    int count = 0, held = -1;
    for (int i = 0; i < n; i++) {
        int32_t move = moves[i];
        int kind = move_kind(move);
        if (kind == K_UNO || kind == K_CATCH) {
            continue;
        }
        if (kind == K_PLAY) {
            if (!move_uno(move)) {
                int32_t with_uno = move | 1 << 19, found = 0;
                for (int j = 0; j < n && !found; j++) {
                    found = moves[j] == with_uno;
                }
                if (found) {
                    continue;
                }
            }
            if (move_card(move) >= CARD_WILD) {
                if (held < 0) {
                    held = 0;
                    for (int j = 0; j < s->hand_len[seat]; j++) {
                        int card = s->hand[seat][j];
                        if (card < CARD_WILD) {
                            held |= 1 << CARD_COLOR[card];
                        }
                    }
                }
                if (held && !(held >> move_color(move) & 1)) {
                    continue;
                }
            }
        }
        out[count++] = move;
    }
    return count;
}

int uno_search_moves(const uno_state *s, int seat, int32_t *out) {
    int32_t moves[MAX_MOVES];
    return search_moves_of(s, seat, moves, uno_legal_moves(s, seat, moves), out);
}

int uno_search_step(const uno_state *s, int seat, int medium, int32_t *out, int32_t *policy) {
    int32_t legal[MAX_MOVES];
    int count = uno_legal_moves(s, seat, legal);
    int n = search_moves_of(s, seat, legal, count, out);
    if (medium && count > 0) { /* medium's move, when the search has it */
        int32_t chosen = uno_medium_move(s, seat, legal, count);
        for (int i = 0; i < n; i++) {
            if (out[i] == chosen) {
                *policy = chosen;
                return n;
            }
        }
    }
    *policy = uno_tree_policy(s, seat, out, n);
    return n;
}

static double rollout_score(int card) {
    if (card < CARD_WILD) {
        return 6.0 + CARD_POINTS[card] / 10.0 + (CARD_RANK[card] >= 10 ? 3.0 : 0.0);
    }
    return card == CARD_WD4 ? 0.5 : 1.0;
}

int32_t uno_tree_policy(const uno_state *s, int seat, const int32_t *moves, int n) {
    if (s->pending.kind == P_CHALLENGE) {
        return K_ACCEPT;
    }
    int32_t best = K_DRAW;
    double best_score = -100.0;
    int size = s->hand_len[seat];
    int counts[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < size; i++) {
        counts[CARD_COLOR[s->hand[seat][i]]]++;
    }
    int color = 0;
    for (int c = 1; c < 4; c++) {
        if (counts[c] > counts[color]) {
            color = c;
        }
    }
    int next_size = uno_next_size(s, seat);
    for (int i = 0; i < n; i++) {
        int32_t move = moves[i];
        int kind = move_kind(move);
        if (kind != K_PLAY) {
            if (kind == K_COLOR) {
                if (move_color(move) == color) {
                    return move;
                }
            } else if (best_score < -50 && kind != K_UNO && kind != K_CATCH) {
                best = move;
                best_score = -50.0;
            }
            continue;
        }
        int card = move_card(move);
        double score = rollout_score(card) + uno_pressure_bonus(card, next_size, s->players);
        if (move_uno(move)) {
            score += 100.0;
        }
        if (card >= CARD_WILD) {
            if (move_color(move) != color) {
                continue;
            }
        } else {
            score += 1.5 * counts[CARD_COLOR[card]];
        }
        int target = move_target(move);
        if (target >= 0) {
            score += 0.5 * (size - 1 - s->hand_len[target]);
        }
        if (score > best_score) {
            best = move;
            best_score = score;
        }
    }
    return best;
}

/* 1 for a winner, else exp(-sharpness * hand size) normalized: a cut-off round's score. */
static void end_rewards(const uno_state *s, double sharpness, double *rewards) {
    if (s->winner >= 0) {
        for (int seat = 0; seat < s->players; seat++) {
            rewards[seat] = seat == s->winner ? 1.0 : 0.0;
        }
        return;
    }
    double total = 0.0;
    for (int seat = 0; seat < s->players; seat++) {
        rewards[seat] = exp(-sharpness * s->hand_len[seat]);
        total += rewards[seat];
    }
    for (int seat = 0; seat < s->players; seat++) {
        rewards[seat] /= total;
    }
}

int uno_rollout_rewards(uno_state *s, int medium, int max_plies, double sharpness,
                        double *rewards) {
    int plies = medium ? uno_medium_playout(s, max_plies) : uno_heuristic_playout(s, max_plies);
    if (plies >= 0) {
        end_rewards(s, sharpness, rewards);
    }
    return plies;
}
