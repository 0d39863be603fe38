// A little warmth at the table (issue 24): a card played flies from the player's seat to
// the pile, a card drawn flies from the pile to the hand that takes it, and a player who
// says UNO shouts it over their seat. Transforms through the Web Animations API; with
// reduced motion nothing flies and the shout stands still. Only for the eye: the live
// region says every move (events.js).

import { backSVG, cardSVG } from "./cards.js";
import { raw, toNodes } from "./html.js";
import { t } from "./i18n.js";
import { S } from "./state.js";

const FLY_MS = 450;
const SHOUT_MS = 1400;
const MAX_FLIGHTS = 4; // a custom card's draws for everyone: a few fly, not a flock
const pending = [];

function still() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

function rectOf(selector) {
  const rect = document.querySelector(selector)?.getBoundingClientRect();
  return rect && rect.width > 0 ? rect : null;
}

function seatSelector(seat) {
  return seat === S.seat ? ".hand-wrap" : `.opponent[data-seat="${Number(seat)}"]`;
}

// An update's events, before the page is redrawn: where each card starts. It flies once
// the page shows where it lands (the redraw runs first, as a microtask).
export function warmUp(events) {
  if (document.visibilityState === "hidden") return;
  const moving = !still();
  for (const event of events) {
    if (event.type === "uno" || (event.type === "play" && event.move?.endsWith(" uno"))) shout(event.seat);
    if (!moving || pending.length >= MAX_FLIGHTS) continue;
    if (event.type === "play") {
      const from = event.seat === S.seat ? rectOf(`.hand button.card[data-card="${CSS.escape(event.card)}"]`)
        : rectOf(`.opponent[data-seat="${Number(event.seat)}"] .op-cards`);
      if (from) pending.push({ kind: "play", seat: event.seat, card: event.card, from, to: ".discard", count: 1 });
    } else if (event.type === "draw" && event.count > 0) {
      const from = rectOf(".draw-pile");
      const to = event.seat === S.seat ? ".hand button.card.new" : `.opponent[data-seat="${Number(event.seat)}"] .op-cards`;
      if (from) pending.push({ kind: "draw", seat: event.seat, card: null, from, to, count: Math.min(event.count, 3) });
    }
  }
  if (pending.length) requestAnimationFrame(fly);
}

function fly() {
  for (const flight of pending.splice(0)) {
    const targets = [...document.querySelectorAll(flight.to)].slice(-flight.count);
    for (const target of targets) launch(flight, target.getBoundingClientRect());
  }
}

function launch(flight, to) {
  if (!to.width) return;
  const card = document.createElement("div");
  card.className = "flying-card";
  card.dataset.kind = flight.kind;
  card.dataset.seat = String(flight.seat);
  card.setAttribute("aria-hidden", "true");
  card.append(...toNodes(raw(flight.card ? cardSVG(flight.card) : backSVG()))); // the page's own SVG
  Object.assign(card.style, { left: `${to.left}px`, top: `${to.top}px`, width: `${to.width}px`, height: `${to.height}px` });
  document.body.append(card);
  const from = flight.from;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.max(0.3, Math.min(1.5, from.height / to.height));
  const animation = card.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${scale}) rotate(-8deg)`, opacity: 0.85 },
    { transform: "translate(0, 0) scale(1) rotate(0deg)", opacity: 1 },
  ], { duration: FLY_MS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" });
  animation.onfinish = () => card.remove();
  animation.oncancel = () => card.remove();
}

// "UNO!" over the seat of the player who said it, for a moment.
function shout(seat) {
  const rect = rectOf(seatSelector(seat));
  if (!rect) return;
  const bubble = document.createElement("div");
  bubble.className = "uno-shout";
  bubble.dataset.seat = String(seat);
  bubble.setAttribute("aria-hidden", "true");
  bubble.textContent = t("web.shout");
  Object.assign(bubble.style, { left: `${rect.left + rect.width / 2}px`, top: `${rect.top + Math.min(rect.height / 2, 40)}px` });
  document.body.append(bubble);
  setTimeout(() => bubble.remove(), SHOUT_MS);
}
