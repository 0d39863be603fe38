// A move's update comes as one public part for the whole room: what changed in the
// position since the one this page holds (its state or the updates since), the events,
// the countdowns; and, for a seated player, its own part "you" (its hand, legal moves,
// what it alone sees of the pending decision and of the events). Put together here into
// the whole update this seat reads (server: updates.py, merge_update).

const GAME_FIELDS = ["status", "results", "round", "ready"];

export function mergeUpdate(message, before) {
  const { you } = message;
  const merged = { type: "update", version: message.version };
  for (const key of GAME_FIELDS) merged[key] = key in message ? message[key] : before?.[key];
  const view = { ...(before?.view ?? {}), ...(message.view ?? {}) };
  if ("discard_add" in view) {
    view.discard_pile = [...view.discard_add, ...(view.discard_pile ?? [])];
    delete view.discard_add;
  }
  merged.timer_left = message.timer_left ?? null;
  merged.next_round_left = message.next_round_left ?? null;
  merged.legal = [];
  merged.events = message.events;
  if (you) {
    view.hands = view.hands.slice();
    view.hands[you.seat] = you.hand;
    if ("pending" in you) view.pending = you.pending;
    merged.legal = you.legal;
    merged.events = message.events.map((event, index) => (you.events?.[index] ? { ...event, ...you.events[index] } : event));
  }
  merged.view = view;
  return merged;
}
