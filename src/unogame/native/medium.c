/* bots.medium_policy.medium_move in the core: the medium bot's turn choice over a full
 * state, the rollout policy of the flat search (every seat is modelled as medium). */
#include "medium.h"

#include <string.h>

/* bots.heuristic.best_color: the colour held most by count, then points (one ``without``
 * card left out), over the cards ``keep`` lets through. */
static int best_color(const uint8_t *hand, int size, int without, int dropped_color) {
    double counts[4] = {0.0, 0.0, 0.0, 0.0};
    int removed = 0;
    for (int i = 0; i < size; i++) {
        int card = hand[i];
        if (card < CARD_WILD && CARD_COLOR[card] == dropped_color) {
            continue;
        }
        if (card == without && !removed) {
            removed = 1;
            continue;
        }
        if (card < CARD_WILD) {
            counts[CARD_COLOR[card]] += 1 + CARD_POINTS[card] / 100.0;
        }
    }
    int best = 0;
    for (int c = 1; c < 4; c++) {
        if (counts[c] > counts[best]) {
            best = c;
        }
    }
    return best;
}

static inline int seat_at(int seat, int step, int players) {
    int r = (seat + step) % players;
    return r < 0 ? r + players : r;
}

static double custom_bonus(const uno_state *s, int seat, int32_t move, int after) {
    int rule = s->rules.custom_rule;
    if (rule == CR_OTHERS_DRAW || rule == CR_NEXT_DRAW_SKIP || rule == CR_SKIP
        || rule == CR_PLAY_AGAIN) {
        return 8;
    }
    if (rule == CR_DISCARD_COLOR) {
        int shed = 0;
        for (int i = 0; i < s->hand_len[seat]; i++) {
            int card = s->hand[seat][i];
            shed += card < CARD_WILD && CARD_COLOR[card] == move_arg(move);
        }
        return 6 * shed;
    }
    if (rule == CR_CHOSEN_DRAW) {
        return 8 - 0.5 * s->hand_len[move_target(move)];
    }
    if (rule == CR_PASS_HANDS) {
        return 6 * (after - s->hand_len[seat_at(seat, -s->direction, s->players)]);
    }
    return 0;
}

/* bots.medium_policy.best_play: the index in moves of the play a careful player makes
 * (ties to the first), or -1 when drawing is better. */
int uno_medium_best_play(const uno_state *s, int seat, const int32_t *moves, int n) {
    int players = s->players, direction = s->direction;
    const uint8_t *hand = s->hand[seat];
    int size = s->hand_len[seat];
    int following = seat_at(seat, direction, players);
    int next_size = s->hand_len[following];
    int others_min = 1 << 30;
    for (int other = 0; other < players; other++) {
        if (other != seat && s->hand_len[other] < others_min) {
            others_min = s->hand_len[other];
        }
    }
    int danger = others_min <= 2;
    int color = s->color;
    int counts[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < size; i++) {
        counts[CARD_COLOR[hand[i]]]++;
    }
    int holds_color = color >= 0 && color < 4 && counts[color] > 0;
    int coloured_plays = 0;
    for (int i = 0; i < n; i++) {
        coloured_plays |= move_kind(moves[i]) == K_PLAY && move_card(moves[i]) < CARD_WILD;
    }
    const uno_rules *rules = &s->rules;
    int chosen_by[4][5]; /* best_color by wild card and dropped colour, worked out once */
    memset(chosen_by, -1, sizeof chosen_by);
    int best = -1;
    double best_score = -1e9;
    for (int i = 0; i < n; i++) {
        int32_t move = moves[i];
        if (move_kind(move) != K_PLAY) {
            continue;
        }
        int card = move_card(move), target = move_target(move);
        int after = size - 1;
        double score;
        if (card < CARD_WILD) {
            int rank = CARD_RANK[card];
            score = 20 + 3.0 * counts[CARD_COLOR[card]] + 0.0;
            score += danger ? CARD_POINTS[card] / 3.0 : CARD_POINTS[card] / 20.0;
            if (rank == RANK_SKIP || rank == RANK_DRAW_TWO
                || (rank == RANK_REVERSE && players == 2)) {
                score += next_size <= 2 ? 25 : 6.0;
                if (players == 2 && after > 0) {
                    score += 4;
                }
            } else if (rank == RANK_REVERSE && players > 2) {
                int behind = s->hand_len[seat_at(seat, -direction, players)];
                score += next_size <= 2 && behind > 2 ? 15 : 0;
            }
            if (rules->seven_zero && rank == 7 && target >= 0) {
                int gain = after - s->hand_len[target];
                score += 6 * gain + (s->hand_len[target] <= 1 ? 30 : 0);
                score -= 0.1 * s->hand_len[target];
            } else if (rules->seven_zero && rank == 0 && after > 0) {
                score += 6 * (after - s->hand_len[seat_at(seat, -direction, players)]);
            }
        } else {
            int dropped = card == CARD_WC && move_arg(move) >= 0 ? move_arg(move) : -1;
            int *chosen_at = &chosen_by[card - CARD_WILD][dropped + 1];
            if (*chosen_at < 0) {
                *chosen_at = best_color(hand, size, card, dropped);
            }
            int chosen = *chosen_at;
            if (move_color(move) != chosen && after > 0) {
                continue; /* only the colour held most */
            }
            score = coloured_plays ? 0 : 15;
            if (after <= 1 || next_size <= 2) {
                score += 12;
            }
            if (card == CARD_WD4) {
                if (holds_color) { /* a bluff: only worth it when the next player is close */
                    if (next_size > 2 || !danger) {
                        continue;
                    }
                    score -= 5;
                }
                score += next_size <= 3 ? 10 : -3;
            } else if (card == CARD_WS) {
                if (after == 0) {
                    score += 100;
                } else if (target >= 0) {
                    int gain = after - s->hand_len[target];
                    if (gain <= 0) {
                        score -= 10;
                    }
                    score += 8 * gain - 0.1 * s->hand_len[target];
                }
            } else if (card == CARD_WC) {
                score += custom_bonus(s, seat, move, after);
            }
        }
        if (after == 0) {
            score += 1000;
        }
        if (score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

/* bots.heuristic.bluff_probability for the challenger, who has not seen the hands of the
 * others nor the draw pile: the chance that the player's hand holds the named colour. */
static double bluff_chance(const uno_state *s, int seat) {
    int by = s->pending.by, color = s->pending.color;
    if (by < 0 || color < 0 || color > 3) {
        return 0.0;
    }
    int total = s->draw_len, colored = 0;
    for (int i = 0; i < s->draw_len; i++) {
        colored += CARD_COLOR[s->draw[i]] == color;
    }
    for (int other = 0; other < s->players; other++) {
        if (other == seat) {
            continue;
        }
        total += s->hand_len[other];
        for (int i = 0; i < s->hand_len[other]; i++) {
            colored += CARD_COLOR[s->hand[other][i]] == color;
        }
    }
    double none = 1.0;
    for (int i = 0; i < s->hand_len[by]; i++) {
        if (total - i <= 0) {
            break;
        }
        int left = total - colored - i;
        none *= (left > 0 ? left : 0) / (double)(total - i);
    }
    return 1.0 - none;
}

static int find_kind(const int32_t *moves, int n, int kind) {
    for (int i = 0; i < n; i++) {
        if (move_kind(moves[i]) == kind) {
            return i;
        }
    }
    return -1;
}

/* The ``uno`` variant of moves[index] when it is legal, else the move itself. */
static int32_t with_uno(const int32_t *moves, int n, int index) {
    int32_t code = moves[index] | 1 << 19;
    for (int i = 0; i < n; i++) {
        if (moves[i] == code) {
            return code;
        }
    }
    return moves[index];
}

int32_t uno_medium_move(const uno_state *s, int seat, const int32_t *moves, int n) {
    if (n <= 0) { /* no legal move (not the player to act): nothing to read */
        return K_DRAW;
    }
    int found = find_kind(moves, n, K_CATCH);
    if (found >= 0) {
        return moves[found];
    }
    int size = s->hand_len[seat];
    if (size == 1 && (found = find_kind(moves, n, K_UNO)) >= 0) {
        return moves[found];
    }
    int kind = s->pending.kind;
    if (kind == P_COLOR) {
        int color = best_color(s->hand[seat], size, -1, -1);
        for (int i = 0; i < n; i++) {
            if (move_kind(moves[i]) == K_COLOR && move_color(moves[i]) == color) {
                return moves[i];
            }
        }
    }
    int best = uno_medium_best_play(s, seat, moves, n);
    if (best >= 0) {
        return with_uno(moves, n, best);
    }
    if (kind == P_CHALLENGE) {
        int answer = bluff_chance(s, seat) >= 0.3 ? K_CHALLENGE : K_ACCEPT;
        found = find_kind(moves, n, answer);
        return found >= 0 ? moves[found] : moves[0];
    }
    static const int fallbacks[3] = {K_DRAW, K_PASS, K_ACCEPT};
    for (int k = 0; k < 3; k++) {
        if ((found = find_kind(moves, n, fallbacks[k])) >= 0) {
            return moves[found];
        }
    }
    for (int i = 0; i < n; i++) {
        if (move_kind(moves[i]) != K_UNO && move_kind(moves[i]) != K_CATCH) {
            return moves[i];
        }
    }
    return moves[0];
}

int uno_medium_playout(uno_state *s, int max_plies) {
    int32_t moves[MAX_MOVES];
    int steps = 0;
    while (s->winner < 0 && steps < max_plies) {
        int seat = s->turn;
        int n = uno_legal_moves(s, seat, moves);
        if (n <= 0 || uno_apply(s, seat, uno_medium_move(s, seat, moves, n), NULL) < 0) {
            return -1;
        }
        steps++;
    }
    return steps;
}
