/* Flat Monte Carlo over determinizations with medium rollouts: the rollout algorithm
 * (a one-step improvement of the medium policy, which also models the other seats).
 * Every determinization is played from every root move with the same deterministic
 * rollout (common random numbers), so root moves are compared on the same deals. */
#include <stdlib.h>

#include "search.h"
#include "tree.h"

long uno_flat_search(const uno_state *base, const uno_sample_spec *spec,
                     const uno_search_params *params, const int32_t *options, int count,
                     py_random *rng, long *visits, double *rewards) {
    long done = 0, steps_left = params->budget, result = 0;
    uno_state *world = malloc(2 * sizeof *world);
    if (world == NULL) {
        return -3;
    }
    uno_state *game = world + 1;
    int seat = spec->seat;
    for (int i = 0; i < count; i++) {
        visits[i] = 0;
        rewards[i] = 0.0;
    }
    while (result == 0 && done < params->iterations && steps_left > 0) {
        uno_sample_world(base, spec, rng, world);
        for (int i = 0; i < count; i++) {
            done++;
            *game = *world;
            if (!uno_root_legal(game, seat, options[i])) {
                result = -1;
                break;
            }
            if (uno_apply(game, seat, options[i], NULL) < 0) {
                result = -2;
                break;
            }
            double ends[MAX_PLAYERS];
            int plies = uno_rollout_rewards(game, 1, params->plies, params->sharpness, ends);
            if (plies < 0) {
                result = -2;
                break;
            }
            visits[i]++;
            rewards[i] += ends[seat];
            steps_left -= 1 + plies;
        }
        if (params->deadline > 0 && uno_monotonic_seconds() > params->deadline) {
            break;
        }
    }
    free(world);
    return result < 0 ? result : done;
}
