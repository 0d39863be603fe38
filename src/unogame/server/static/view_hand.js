// Your hand (sorted by colour and number, or as dealt) and the buttons under it. Each
// card is keyed by its code and how many of it come before, so an update never replaces
// a card that is still there (regions.js): the one under your finger stays.

import { cardSVG as cardMarkup, splitCode } from "./cards.js";
import { cardClasses, hintButton } from "./helper.js";
import { html, raw } from "./html.js";
import { cardName, t } from "./i18n.js";
import { S, legalMoves, myTurn, sortedHand } from "./state.js";
import { mySeat } from "./view_table.js";
import { customRuleText } from "./words.js";

const COLOR_ORDER = ["R", "Y", "G", "B"];
const RANK_ORDER = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"];

// By colour (red, yellow, green, blue, then the wilds), then by number and action.
export function cardOrder(a, b) {
  const key = (code) => {
    const { color, rank } = splitCode(code);
    const c = color === null ? 9 : COLOR_ORDER.indexOf(color);
    const r = RANK_ORDER.indexOf(rank);
    return [c, r < 0 ? 99 : r, code];
  };
  const [x, y] = [key(a), key(b)];
  return x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0);
}

function handView(view, legal, me) {
  const hand = view.hands[me];
  const plays = new Set(legal.filter((m) => m.kind === "play").map((m) => m.card));
  const deciding = plays.size > 0 || myTurn();
  const fresh = new Map(S.newCards);
  const seen = new Map();
  const shown = sortedHand() ? [...hand].sort(cardOrder) : hand;
  const cards = shown.map((code) => {
    const nth = seen.get(code) ?? 0;
    seen.set(code, nth + 1);
    const playable = plays.has(code);
    const label = `${cardName(code)}${playable ? ", " + t("web.playable") : ""}`;
    const isNew = (fresh.get(code) ?? 0) > 0;
    if (isNew) fresh.set(code, fresh.get(code) - 1);
    const tip = code === "WC" ? customRuleText() : null;
    return html`<li data-key="${code}#${nth}"><button class="card ${playable ? "playable" : deciding ? "dim" : ""} ${isNew ? "new" : ""} ${cardClasses(code, playable)}"
      data-card="${code}" data-focus="card-${code}-${nth}" aria-label="${label}" ${playable ? "" : raw('aria-disabled="true"')}
      ${tip ? html`title="${tip}"` : ""}>
      ${raw(cardMarkup(code))}</button></li>`;
  });
  return html`<section class="hand-wrap ${S.hits.has(me) ? "hit" : ""}" aria-label="${t("web.your_hand", { count: hand.length })}">
    <div class="hand-head"><span>${t("web.your_hand", { count: hand.length })}</span>
      <span>${t("web.points", { points: view.scores[me] })}</span>
      ${view.uno.includes(me) && hand.length && view.winner === null ? html`<span class="tag uno">UNO</span>` : ""}
      <button class="ghost small sort" data-action="sort" data-focus="sort" aria-pressed="${String(sortedHand())}">${t("web.sort_hand")}</button></div>
    <ul class="hand ${hand.length > 6 ? "many" : ""} ${hand.length > 12 ? "lots" : ""}">${cards}</ul></section>`;
}

function actionBar(view, legal) {
  const buttons = [];
  const unoAlone = legal.some((m) => m.kind === "uno");
  const unoWithPlay = legal.some((m) => m.kind === "play" && m.uno);
  const holding = S.seat !== null && Array.isArray(view.hands[S.seat]) && view.hands[S.seat].length > 0;
  if (S.seat !== null && view.uno.includes(S.seat) && holding && view.winner === null) {
    buttons.push(html`<button class="uno-btn said" data-action="uno-said" aria-pressed="true" disabled>${t("web.uno_said")}</button>`);
  } else if (unoAlone || unoWithPlay) {
    buttons.push(html`<button class="uno-btn ${S.unoArmed ? "armed" : ""}" data-action="uno" data-focus="uno"
      aria-pressed="${String(S.unoArmed)}">${S.unoArmed ? t("web.uno_ready") : t("common.move.uno")}</button>`);
  }
  if (legal.some((m) => m.kind === "pass")) {
    buttons.push(html`<button data-move="pass" data-focus="pass">${t("common.move.pass")}</button>`);
  }
  if (legal.some((m) => m.kind === "draw") && view.pending?.kind === "stack") {
    buttons.push(html`<button data-move="draw" data-focus="draw-stack">${t("web.draw_n", { count: view.pending.amount })}</button>`);
  } else if (legal.some((m) => m.kind === "draw")) {
    buttons.push(html`<button data-move="draw" data-focus="draw-btn">${t("common.move.draw")}</button>`);
  }
  if (view.pending?.kind === "challenge" && myTurn()) {
    buttons.push(html`<button data-action="reopen-challenge">${t("common.move.challenge")} / ${t("common.move.accept")}</button>`);
  }
  if (S.unoArmed) buttons.push(html`<span class="hint">${t("web.uno_armed")}</span>`);
  buttons.push(hintButton(legal));
  return html`<div class="actions">${buttons}</div>`;
}

// The dock pinned at the bottom: the hand and its buttons (a spectator is told so).
export function dock() {
  const view = S.game.view;
  const me = mySeat(view);
  if (me === null) return html`<div class="dock"><p class="muted center">${t("web.watching")}</p></div>`;
  const legal = legalMoves();
  return html`<div class="dock">${handView(view, legal, me)}${actionBar(view, legal)}</div>`;
}
