// The children's helper, one option per seat (its person turns it on in the lobby or the
// game; the server keeps it with the seats): playable cards glow, a tapped card that
// cannot be played says why in simple words, and a hint button asks the server's helper
// bot for a move (it sees only this seat's view and events, like every bot).

import { send } from "./connection.js";
import { html } from "./html.js";
import { cardName, has, t } from "./i18n.js";
import { S, seatName } from "./state.js";
import { toast } from "./toast.js";

export function helperOn() { return Boolean(S.roomInfo?.helper); }

// The hint for the position on screen (a newer position makes it old).
function currentHint() {
  const hint = S.hint;
  return hint && hint.version === S.game?.version ? hint : null;
}

// The classes of a card in the hand: "glow" when it can be played, "hinted" when the hint
// suggests it.
export function cardClasses(code, playable) {
  if (!helperOn()) return "";
  const classes = [];
  if (playable) classes.push("glow");
  const move = currentHint()?.move;
  if (move && move.startsWith("play ") && move.split(" ")[1] === code) classes.push("hinted");
  return classes.join(" ");
}

// The key of a refusal's text: the simple-words register when the helper is on.
export function refusalKey(code) {
  const simple = `web.why_simple.${code}`;
  return helperOn() && has(simple) ? simple : `web.why.${code}`;
}

// What the simple words name besides the detailed ones: {rank}, the top card's number or
// action ("a 5", "a Skip").
export function simpleParams(reason, params) {
  const top = reason.params?.top;
  if (!top) return params;
  const rank = top.startsWith("W") ? cardName(top) : top.slice(1);
  const named = top.startsWith("W") || /^[0-9]$/.test(rank) ? rank : t(`web.rank.${rank}`);
  return { ...params, rank: named };
}

export function helperToggle() {
  if (S.seat === null || S.seat === undefined) return "";
  const on = helperOn();
  return html`<button class="ghost small helper-toggle ${on ? "on" : ""}" data-action="helper" aria-pressed="${String(on)}"
    data-testid="helper-toggle">${on ? t("web.helper.on") : t("web.helper.off")}</button>`;
}

export function hintButton(legal) {
  if (!helperOn() || !legal.length) return "";
  return html`<button class="hint-btn" data-action="hint" data-testid="hint">${t("web.helper.hint")}</button>`;
}

export function hintLine() {
  const hint = currentHint();
  if (!helperOn() || !hint) return "";
  return html`<p class="hint-line" role="status" data-testid="hint-line">★ ${hintText(hint.move)}</p>`;
}

export function hintText(move) {
  if (!move) return t("web.hint.none");
  const [kind, first] = move.split(" ");
  switch (kind) {
    case "play": return t("web.hint.play", { card: cardName(first) });
    case "catch": return t("web.hint.catch", { name: seatName(Number(first)) });
    case "color": return t("web.hint.color", { color: t(`common.color.${first}`) });
    case "draw": case "pass": case "uno": case "challenge": case "accept": return t(`web.hint.${kind}`);
    default: return move;
  }
}

// A click on one of the helper's buttons; true when it was one.
export function helperAction(action) {
  if (action === "helper") { send({ type: "helper", on: !helperOn() }); return true; }
  if (action === "hint") { send({ type: "hint" }); return true; }
  return false;
}

export function onHint(message) {
  S.hint = { version: message.version, move: message.move };
  toast(hintText(message.move));
}
