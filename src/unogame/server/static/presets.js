// Named house-rule presets for the room setup: the rules each one switches on (every other
// switch of the form goes off).

export const PRESETS = {
  classic: { challenge: true, two_player_reverse_skips: true },
  family: { two_player_reverse_skips: true },
  party: { challenge: true, two_player_reverse_skips: true, stacking: true, seven_zero: true, jump_in: true },
};

// What a preset sets besides the rules: the family preset is kind to children (bots wait
// before catching, the room's "family" setting) and fills free seats with easy bots.
export const PRESET_ROOM = {
  classic: { family: false, fill: null },
  family: { family: true, fill: "easy" },
  party: { family: false, fill: null },
};

export const SWITCHES = ["challenge", "stacking", "must_play_drawn", "seven_zero", "jump_in",
  "draw_until_playable", "two_player_reverse_skips"];

// The preset the form's switches match now (null: a mix of one's own).
export function presetOf(values) {
  for (const [name, rules] of Object.entries(PRESETS)) {
    if (SWITCHES.every((key) => Boolean(rules[key]) === Boolean(values[key]))) return name;
  }
  return null;
}
