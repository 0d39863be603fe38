// Where each player sits around the table: you at the bottom, the others clockwise in
// seat order — up the left side, across the top, down the right side — so the seat after
// yours is on your left, as at a real table. Places are grid cells (style.css, .ring), so
// chips never overlap; a Reverse does not move anyone, it turns the arrow around.

// How many sit on each side for `count` others; the rest sit across the top (up to 4).
export function sidesFor(count) {
  if (count <= 2) return 0;
  if (count <= 5) return 1;
  if (count <= 7) return 2;
  return 3;
}

// The cell classes of the k-th player clockwise from you (k from 0) among `count`.
export function placeOf(k, count) {
  const sides = sidesFor(count);
  const top = count - 2 * sides;
  if (k < sides) return `row-${1 + sides - k} side-l`;
  if (k < sides + top) return `row-1 top-${top}-${k - sides}`;
  return `row-${2 + (k - sides - top)} side-r`;
}

// Everyone but you in seat order, starting with the seat after yours (a spectator sees
// all seats, from seat 0).
export function seatOrder(players, me) {
  const first = me === null ? 0 : me + 1;
  const count = me === null ? players : players - 1;
  return Array.from({ length: count }, (_, k) => (first + k) % players);
}

// The same players in the order they play from here, following the direction.
export function playOrder(players, me, direction) {
  const dir = direction === -1 ? -1 : 1;
  const order = [];
  for (let k = me === null ? 0 : 1; k < players; k++) order.push((((me ?? 0) + dir * k) % players + players) % players);
  return order;
}
