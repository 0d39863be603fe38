// The table: the players around it (seating.js), the piles in the middle, the line saying
// whose turn it is, the Wild Customizable's announcement, the game's menu and the log.

import { backSVG as backMarkup, cardSVG as cardMarkup, colorBadge as badgeMarkup } from "./cards.js";
import { logLine } from "./events.js";
import { helperToggle } from "./helper.js";
import { html, raw } from "./html.js";
import { cardName, t } from "./i18n.js";
import { EMOTES } from "./messages.js";
import { placeOf, playOrder, seatOrder, sidesFor } from "./seating.js";
import { S, legalMoves, myTurn, seatName, secondsLeft } from "./state.js";
import { icon } from "./view_top.js";
import { activeRules, announcedRule, customRuleText } from "./words.js";

const backSVG = () => raw(backMarkup());

// The seat playing after the one whose turn it is (null once the round is won).
export function nextSeat(view) {
  const dir = view.direction === -1 ? -1 : 1;
  return view.winner === null ? ((view.turn + dir) % view.players + view.players) % view.players : null;
}

export function mySeat(view) {
  return S.seat !== null && S.seat < view.players ? S.seat : null;
}

function opponent(view, seat, place, catches, many) {
  const info = S.roomInfo;
  const count = Array.isArray(view.hands[seat]) ? view.hands[seat].length : view.hands[seat];
  const seatInfo = info?.seats?.[seat];
  const turn = view.turn === seat && view.winner === null;
  const next = seat === nextSeat(view) && !turn;
  const backs = Array.from({ length: Math.min(count, many ? 3 : 8) }, () => html`<span class="mini">${backSVG()}</span>`);
  const label = t("web.opponent_label", { name: seatName(seat), count, points: view.scores[seat] })
    + (turn ? ". " + t("web.their_turn") : "") + (next ? ". " + t("web.plays_next") : "");
  return html`<li class="opponent ${place} ${turn ? "turn" : ""} ${next ? "next" : ""} ${S.hits.has(seat) ? "hit" : ""}"
    data-key="op-${seat}" data-seat="${seat}" aria-label="${label}">
      <div class="op-name">${turn ? html`<span class="turn-mark" aria-hidden="true">▶</span>` : ""}<span class="nm">${seatName(seat)}</span>${S.bubbles.has(seat) ? html`<span class="emote-bubble">${S.bubbles.get(seat)}</span>` : ""}
        ${next ? html`<span class="tag next">${t("web.next")}</span>` : ""}
        ${seatInfo?.kind === "bot" ? html`<span class="tag bot">${t("web.bot")}</span>` : ""}</div>
      ${opponentFlags(view, seat, seatInfo, info)}
      <div class="op-cards" aria-hidden="true">${backs}<span class="count">${count}</span></div>
      <div class="op-meta">${t("web.points", { points: view.scores[seat] })}
        ${view.uno.includes(seat) ? html`<span class="tag uno">UNO</span>` : ""}
        ${catches.has(seat) ? html`<button class="catch" data-move="catch ${seat}" data-focus="catch-${seat}">${t("common.move.catch")}</button>` : ""}</div>
    </li>`;
}

// Offline, away, a bot playing, and the host's "Let a bot play": a line of their own under
// the name, so that on a narrow phone they never push the name out of its chip.
function opponentFlags(view, seat, seatInfo, info) {
  if (!seatInfo) return "";
  const flags = [];
  if (!seatInfo.connected) flags.push(html`<span class="tag off">${t("web.offline")}</span>`);
  if (seatInfo.away) flags.push(html`<span class="tag off">${t("web.away")}</span>`);
  if (seatInfo.hidden && !seatInfo.away) flags.push(html`<span class="tag off" data-testid="seat-hidden">${t("web.seat_hidden")}</span>`);
  if (seatInfo.kind !== "bot" && (!seatInfo.connected || seatInfo.hidden) && !seatInfo.away && S.seat === info.host && view.winner === null) {
    flags.push(html`<button class="small hand-to-bot" data-action="hand-to-bot" data-seat="${seat}" aria-label="${t("web.hand_to_bot_named", { name: seatName(seat) })}">${t("web.hand_to_bot")}</button>`);
  }
  return flags.length ? html`<div class="op-flags">${flags}</div>` : "";
}

function piles(view, legal) {
  const top = view.discard_pile[0];
  const color = view.color;
  const canDraw = legal.some((m) => m.kind === "draw");
  const drawLabel = view.pending?.kind === "stack" ? t("web.draw_n", { count: view.pending.amount }) : t("common.move.draw");
  const colorName = color ? t(`common.color.${color}`) : t("web.color_none");
  const cw = view.direction !== -1;
  return html`<section class="table" aria-label="${t("web.table")}">
    <button class="pile draw-pile ${canDraw ? "can" : ""}" data-move="draw" ${canDraw ? "" : "disabled"} data-focus="draw"
      aria-label="${t("web.draw_pile", { count: view.draw_pile })}${canDraw ? ". " + drawLabel : ""}">
      ${backSVG()}<span class="pile-count">${view.draw_pile}</span></button>
    <div class="pile discard ${S.topChanged ? "flip" : ""}" data-key="top-${top ?? "-"}-${S.game.version}" role="img"
      aria-label="${t("web.top_card", { card: top ? cardName(top) : "-" })}" ${top === "WC" ? html`title="${customRuleText()}"` : ""}>
      ${top ? raw(cardMarkup(top)) : ""}</div>
    <div class="table-info">
      <div class="to-match" aria-label="${t("web.color_to_match", { color: colorName })}">
        ${color ? raw(badgeMarkup(color, 26)) : ""}<span>${colorName}</span></div>
      <div class="direction ${cw ? "cw" : "ccw"}" data-direction="${cw ? "cw" : "ccw"}" aria-label="${t(`common.direction.${view.direction}`)}">${icon(cw ? "cw" : "ccw", 28)}
        <span>${t(`common.direction.${view.direction}`)}</span></div>
    </div></section>`;
}

// The players around the table and the piles between them. The list is in play order
// (as a screen reader hears it); each player's cell is by seat (placeOf).
export function ring() {
  const view = S.game.view;
  const legal = legalMoves();
  const me = mySeat(view);
  const bySeat = seatOrder(view.players, me);
  const many = view.players > 6;
  const catches = new Set(legal.filter((m) => m.kind === "catch").map((m) => m.target));
  const opponents = playOrder(view.players, me, view.direction).map((seat) =>
    opponent(view, seat, placeOf(bySeat.indexOf(seat), bySeat.length), catches, many));
  return html`<div class="ring sides-${sidesFor(bySeat.length)} dir-${view.direction === -1 ? "ccw" : "cw"}">
    <h1 class="sr-only">${t("web.table_heading", { room: S.roomInfo?.name ?? "" })}</h1>
    <ol class="opponents dir-${view.direction === -1 ? "ccw" : "cw"}" aria-label="${t("web.play_order")}">${opponents}</ol>
    ${piles(view, legal)}</div>`;
}

function statusText(view) {
  if (view.winner !== null) return t("web.status.round_won", { name: seatName(view.winner) });
  const name = seatName(view.turn);
  const pending = view.pending;
  if (myTurn()) {
    if (pending?.kind === "drawn") return t("web.status.drawn", { card: cardName(pending.card) });
    if (pending?.kind === "challenge") return t("web.status.challenge", { name: seatName(pending.by) });
    if (pending?.kind === "color") return t("web.status.color");
    if (pending?.kind === "stack") return t("web.status.stack", { count: pending.amount });
    return t("web.status.your_turn");
  }
  if (pending?.kind === "challenge") return t("web.status.other_challenge", { name, by: seatName(pending.by) });
  if (pending?.kind === "drawn") return t("web.status.other_drawn", { name });
  return t("web.status.turn", { name });
}

// People connected now: the next round waits for each of them (or for its countdown).
function waitingFor() {
  return (S.roomInfo?.seats ?? []).filter((seat) => seat.kind !== "bot" && seat.connected).length;
}

export function nextRoundCountdown() {
  const left = secondsLeft(S.nextRoundEnd);
  return left === null ? "" : html`<span data-countdown="next" data-text="web.next_round_in">${t("web.next_round_in", { seconds: left })}</span>`;
}

// Whose turn it is; the turn timer's text is kept counting by view.js (only that text).
export function statusLine() {
  const game = S.game;
  const view = game.view;
  const pressed = S.seat !== null && (game.ready ?? []).includes(S.seat);
  if (game.status === "round_over" && pressed) {
    return html`<p class="status waiting-next">${t("web.waiting_others", { ready: game.ready.length, total: waitingFor() })} ${nextRoundCountdown()}</p>`;
  }
  const left = secondsLeft(S.timerEnd);
  const timer = left === null || view.winner !== null ? "" : html`<span class="turn-timer" data-countdown="turn"
    data-text="web.timer_left">${t("web.timer_left", { seconds: left })}</span>`;
  return html`<p class="status ${myTurn() ? "mine" : ""}" role="status" aria-live="polite">${statusText(view)}${timer}</p>`;
}

// The last Wild Customizable's rule, until the next turn starts (a table rule is only this).
export function announceBanner() {
  const event = S.announce;
  if (!event) return "";
  return html`<p class="rule-announce" role="status" data-testid="rule-announce">${t("common.custom.played", { name: seatName(event.seat), rule: announcedRule(event) })}</p>`;
}

export function gameNav() {
  const houseRules = activeRules();
  const rulesLine = houseRules.length ? html`<button class="ghost small rules-line" data-action="rules">${t("web.house_rules")}: ${houseRules.map(([name]) => name).join(" · ")}</button>` : "";
  return html`<nav class="game-nav">${rulesLine}${helperToggle()}
      <button class="ghost" data-action="scores" data-focus="scores">${t("web.scoreboard")}</button>
      <button class="ghost" data-action="log" data-focus="log" aria-expanded="${String(S.showLog)}">${t("web.log")}</button>
      ${S.seat !== null ? html`<button class="ghost" data-action="emotes" aria-expanded="${String(S.showEmotes)}">${t("web.react")}</button>` : ""}
      <button class="ghost" data-action="leave">${t("web.leave")}</button>
    </nav>`;
}

export function emoteBar() {
  if (S.seat === null || !S.showEmotes) return "";
  return html`<div class="emotes" role="group" aria-label="${t("web.react")}">${EMOTES.map((name) =>
    html`<button class="small" data-action="emote" data-emote="${name}">${t(`web.emote.${name}`)}</button>`)}</div>`;
}

export function logView() {
  if (!S.showLog) return "";
  const lines = S.log.slice(-60).reverse().map((event) => html`<li>${logLine(event)}</li>`);
  return html`<section class="log panel" aria-label="${t("web.log")}"><ol reversed>${lines}</ol></section>`;
}
