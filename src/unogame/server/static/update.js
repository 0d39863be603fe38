// A move's update comes as one public part for the whole room and, for a seated player,
// its own part "you" (its hand, legal moves, what it alone sees of the pending decision and
// of the events): put together here into the update this seat reads (server: updates.py).

export function mergeUpdate(message) {
  const { you, ...merged } = message;
  if (!you) return { ...merged, legal: [] };
  const hands = merged.view.hands.slice();
  hands[you.seat] = you.hand;
  merged.view = { ...merged.view, hands };
  if ("pending" in you) merged.view.pending = you.pending;
  merged.legal = you.legal;
  merged.events = merged.events.map((event, index) => (you.events?.[index] ? { ...event, ...you.events[index] } : event));
  return merged;
}
