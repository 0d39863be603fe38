#include "policy.h"

/* The play at ``index`` of the plays listed by uno_simple_plays' cards. */
static int32_t simple_play(const uint8_t *cards, int uno_variants, int index) {
    for (int i = 0;; i++) {
        int card = cards[i], moves = (card >= CARD_WILD ? 4 : 1) << uno_variants;
        if (index < moves) {
            if (card < CARD_WILD) {
                return move_encode(K_PLAY, card, -1, -1, -1, index);
            }
            return move_encode(K_PLAY, card, index & 3, -1, -1, index >> 2);
        }
        index -= moves;
    }
}

/* With nothing pending the choice is made from the count of moves, without listing them:
 * the plays, the draw, the uno call, the catches in seat order (uno_legal_moves' order). */
static int simple_turn_move(const uno_state *s, int seat, py_random *rng, int32_t *move) {
    uint8_t cards[NUM_CARDS];
    int wild, uno_variants;
    int count = uno_simple_plays(s, seat, cards, &wild, &uno_variants);
    if (count < 0) {
        return -1;
    }
    int plays = (count + 3 * wild) << uno_variants;
    int uno = s->hand_len[seat] <= 2 && !(s->uno >> seat & 1);
    unsigned targets = s->catchable & ~(1u << seat);
    int n = plays + 1 + uno + (targets ? count_bits(targets) : 0);
    int index;
    if (plays && py_random_reserve(rng, 4)) {
        /* the draw, picked with plays to make, gives way to a second pick among them: both
         * read ahead, the second taken only then (no branch on the first pick) */
        index = (int)(py_random_peek(rng, 0) * n);
        int again = (int)(py_random_peek(rng, 2) * plays), redraw = index == plays;
        rng->index += 2 + 2 * redraw;
        index += (again - index) & -redraw;
    } else {
        index = (int)(py_random_random(rng) * n);
        if (index == plays && plays) {
            index = (int)(py_random_random(rng) * plays);
        }
    }
    if (index < plays) {
        if (!wild) {
            int card = cards[index >> uno_variants];
            *move = move_encode(K_PLAY, card, -1, -1, -1, index & uno_variants);
        } else {
            *move = simple_play(cards, uno_variants, index);
        }
    } else if (index == plays) {
        *move = K_DRAW;
    } else if (index == plays + 1 && uno) {
        *move = K_UNO;
    } else {
        for (index -= plays + 1 + uno; index; index--) {
            targets &= targets - 1;
        }
        *move = move_encode(K_CATCH, -1, -1, __builtin_ctz(targets), -1, 0);
    }
    return 0;
}

int uno_random_step(uno_state *s, py_random *rng) {
    int seat = s->turn;
    int32_t move;
    if (s->pending.kind != P_NONE || s->winner >= 0 || simple_turn_move(s, seat, rng, &move) < 0) {
        int32_t moves[MAX_MOVES];
        int n = uno_legal_moves(s, seat, moves);
        if (n <= 0) {
            return -1;
        }
        move = moves[(int)(py_random_random(rng) * n)];
        if (move == K_DRAW) {
            int plays = 0;
            while (moves[plays] != K_DRAW) {
                plays++;
            }
            if (plays) {
                move = moves[(int)(py_random_random(rng) * plays)];
            }
        }
    }
    if (uno_apply(s, seat, move, NULL) < 0) {
        return -1;
    }
    int made = 1;
    if (s->catchable) {
        for (unsigned targets = s->catchable; targets; targets &= targets - 1) {
            int target = __builtin_ctz(targets);
            double roll = py_random_random(rng);
            if (roll < 0.5) {
                uno_apply(s, target, K_UNO, NULL);
                made++;
            } else if (roll < 0.75) {
                int catcher = (target + 1 + (int)(py_random_random(rng) * (s->players - 1)))
                    % s->players;
                uno_apply(s, catcher, move_encode(K_CATCH, -1, -1, target, -1, 0), NULL);
                made++;
            }
        }
    }
    return made;
}

long uno_random_round(uno_state *s, py_random *rng, long max_moves) {
    long made = 0;
    while (s->winner < 0) {
        int step = uno_random_step(s, rng);
        if (step < 0) {
            return -1;
        }
        made += step;
        if (made > max_moves) {
            return -1;
        }
    }
    return made;
}

/* bots.ismcts._ROLLOUT_SCORE */
static double rollout_score(int card) {
    if (card < CARD_WILD) {
        return 6.0 + CARD_POINTS[card] / 10.0 + (CARD_RANK[card] >= 10 ? 3.0 : 0.0);
    }
    return card == CARD_WD4 ? 0.5 : 1.0;
}

int uno_next_size(const uno_state *s, int seat) {
    return s->hand_len[((seat + s->direction) % s->players + s->players) % s->players];
}

double uno_pressure_bonus(int card, int next_size, int players) {
    if (card >= CARD_WILD) {
        return card == CARD_WD4 && next_size <= 3 ? 1.0 : 0.0;
    }
    int rank = CARD_RANK[card];
    return next_size <= 2 && (rank == RANK_SKIP || rank == RANK_DRAW_TWO
                              || (rank == RANK_REVERSE && players == 2)) ? 12.0 : 0.0;
}

static int smallest_other(const uno_state *s, int seat) {
    int best = -1;
    for (int other = 0; other < s->players; other++) {
        if (other != seat && (best < 0 || s->hand_len[other] < s->hand_len[best])) {
            best = other;
        }
    }
    return best;
}

static int32_t play_move(const uno_state *s, int seat, int card, int color) {
    const uno_rules *rules = &s->rules;
    if (card < CARD_WILD) {
        if (rules->seven_zero && CARD_RANK[card] == 7) {
            return move_encode(K_PLAY, card, -1, smallest_other(s, seat), -1, 0);
        }
        return move_encode(K_PLAY, card, -1, -1, -1, 0);
    }
    if (card == CARD_WS) {
        return move_encode(K_PLAY, card, color, smallest_other(s, seat), -1, 0);
    }
    if (card == CARD_WC) {
        if (rules->custom_rule == CR_CHOSEN_DRAW) {
            return move_encode(K_PLAY, card, color, smallest_other(s, seat), -1, 0);
        }
        if (rules->custom_rule == CR_DISCARD_COLOR) {
            return move_encode(K_PLAY, card, color, -1, (color + 1) % 4, 0);
        }
    }
    return move_encode(K_PLAY, card, color, -1, -1, 0);
}

int32_t uno_heuristic_move(const uno_state *s, int seat) {
    const uint8_t *hand = s->hand[seat];
    int size = s->hand_len[seat];
    int counts[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < size; i++) {
        counts[CARD_COLOR[hand[i]]]++;
    }
    int color = 0;
    for (int c = 1; c < 4; c++) {
        if (counts[c] > counts[color]) {
            color = c;
        }
    }
    int best = -1;
    int kind = s->pending.kind;
    if (kind == P_NONE) {
        int current = s->color;
        int top_rank = s->discard_len ? CARD_RANK[s->discard[s->discard_len - 1]] : -1;
        double best_score = -100.0;
        int next_size = uno_next_size(s, seat);
        for (int i = 0; i < size; i++) {
            int card = hand[i];
            if (card >= CARD_WILD || CARD_COLOR[card] == current || CARD_RANK[card] == top_rank) {
                double score = rollout_score(card) + uno_pressure_bonus(card, next_size,
                                                                        s->players);
                if (card < CARD_WILD) {
                    score += 1.5 * counts[CARD_COLOR[card]];
                }
                if (score > best_score) {
                    best = card;
                    best_score = score;
                }
            }
        }
        if (best < 0) {
            return K_DRAW;
        }
    } else if (kind == P_DRAWN) {
        best = s->pending.card;
    } else if (kind == P_CHALLENGE) {
        return K_ACCEPT;
    } else if (kind == P_COLOR) {
        return move_encode(K_COLOR, -1, color, -1, -1, 0);
    } else {
        int top = s->discard[s->discard_len - 1];
        for (int i = 0; i < size; i++) {
            int card = hand[i];
            if (card == top || (top < CARD_WILD && CARD_RANK[card] == RANK_DRAW_TWO)) {
                best = card;
                break;
            }
        }
        if (best < 0) {
            return K_DRAW;
        }
    }
    return play_move(s, seat, best, color);
}

int uno_heuristic_playout(uno_state *s, int max_plies) {
    int steps = 0;
    while (s->winner < 0 && steps < max_plies) {
        int seat = s->turn;
        if (uno_apply(s, seat, uno_heuristic_move(s, seat), NULL) < 0) {
            return -1;
        }
        steps++;
    }
    return steps;
}
