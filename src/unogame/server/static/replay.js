// A finished round replayed step by step, opened from the scoreboard. The server rebuilds
// it from the stored moves and sends only what this seat saw: its own hand, the other
// hands as counts, the events as they reached this seat. It comes in pages (at most 64 KiB
// each): the first page opens the viewer, the next one is asked for as the viewer nears
// the end of what has come.

import { cardSVG as cardMarkup, colorBadge as badgeMarkup } from "./cards.js";
import { send } from "./connection.js";
import { logLine } from "./events.js";
import { html, raw } from "./html.js";
import { cardName, t } from "./i18n.js";
import { S, changed, seatName } from "./state.js";

const cardSVG = (code) => raw(cardMarkup(code));
const colorBadge = (color, size) => raw(badgeMarkup(color, size));
let timer = null;
let retry = null;
const STEP_MS = 1200;
const PREFETCH = 20;  // steps before the end of the pages that came: ask for the next one
const RETRY_MS = 2100;  // a page refused (the server was busy): asked again after this

export function replayButton(gameNo, round) {
  if (S.seat === null || S.seat === undefined || !gameNo) return "";
  return html`<button class="ghost small replay-open" data-action="replay" data-game="${gameNo}" data-round="${round}"
    aria-label="${t("web.replay.open_round", { number: round })}">▶ ${t("web.replay.open")}</button>`;
}

export function openReplay(gameNo, round) {
  stop();
  S.replay = { loading: true, gameNo, round, steps: [], total: 0, pages: 1, asking: null, index: 0 };
  askPage(0);
}

function askPage(page) {
  const replay = S.replay;
  if (!replay || replay.asking !== null || page >= replay.pages) return;
  replay.asking = page;
  send({ type: "replay", game_no: replay.gameNo, round: replay.round, page });
}

// The pages come in order: page N is asked for once pages 0..N-1 are here.
function nextPage(replay) {
  return replay.loading ? 0 : replay.loadedPages;
}

function wantMore() {
  const replay = S.replay;
  if (!replay || replay.loading || replay.steps.length >= replay.total) return;
  if (replay.index >= replay.steps.length - PREFETCH) askPage(nextPage(replay));
}

export function onReplay(message) {
  const replay = S.replay;
  if (!replay || replay.gameNo !== message.game_no || replay.round !== message.round
    || message.page !== replay.asking) return;
  replay.asking = null;
  if (replay.loading) {
    Object.assign(replay, { loading: false, seat: message.seat, total: message.total,
      pages: message.pages, loadedPages: 0, steps: [] });
  }
  if (message.first !== replay.steps.length) return;  // not the next page: ignored
  replay.steps.push(...message.steps);
  replay.loadedPages += 1;
  wantMore();
}

export function replayFailed(code) {
  const replay = S.replay;
  if (!replay) return;
  if (replay.loading && (code === "no_replay" || replay.asking === 0)) {
    S.replay = null;
    stop();
    return;
  }
  if (replay.asking === null) return;
  const page = replay.asking;
  replay.asking = null;
  if (code === "no_replay") return;
  if (retry !== null) clearTimeout(retry);
  retry = setTimeout(() => { retry = null; if (S.replay === replay) { askPage(page); changed(); } }, RETRY_MS);
}

function stop() {
  if (timer !== null) clearInterval(timer);
  timer = null;
}

function go(delta) {
  const replay = S.replay;
  if (!replay || !replay.steps.length) return;
  replay.index = Math.max(0, Math.min(replay.steps.length - 1, replay.index + delta));
  wantMore();
  if (replay.index === replay.total - 1) stop();
}

// A click on one of the viewer's buttons; true when it was one.
export function replayAction(target) {
  const action = target.dataset.action;
  switch (action) {
    case "replay": openReplay(Number(target.dataset.game), Number(target.dataset.round)); return true;
    case "replay-back": stop(); go(-1); return true;
    case "replay-next": stop(); go(1); return true;
    case "replay-first": stop(); if (S.replay) S.replay.index = 0; return true;
    case "replay-play":
      if (timer !== null) { stop(); return true; }
      if (S.replay && S.replay.index >= S.replay.total - 1) S.replay.index = 0;
      timer = setInterval(() => { go(1); changed(); }, STEP_MS);
      return true;
    case "replay-close": stop(); if (retry !== null) clearTimeout(retry); retry = null; S.replay = null; return true;
    default: return false;
  }
}

export function replayOpen() { return Boolean(S.replay); }

export function replayDialog() {
  const replay = S.replay;
  const title = t("web.replay.title", { number: replay.round });
  if (replay.loading) {
    return shell(title, html`<p>${t("web.loading")}</p>`);
  }
  const step = replay.steps[replay.index];
  const view = step.view;
  const me = replay.seat;
  const hand = Array.isArray(view.hands[me]) ? view.hands[me] : [];
  const others = view.hands.map((cards, seat) => seat === me ? "" : html`<li class="${view.turn === seat && view.winner === null ? "turn" : ""}"
    data-seat="${seat}">${seatName(seat)}: <span class="count">${t("web.cards_n", { count: Array.isArray(cards) ? cards.length : cards })}</span></li>`);
  const top = view.discard_pile[0];
  const lines = step.events.map((event) => html`<li>${logLine(event)}</li>`);
  const playing = timer !== null;
  const last = replay.total - 1;
  const body = html`<p class="muted replay-step" data-testid="replay-step">${t("web.replay.step", { step: replay.index + 1, total: replay.total })}
      · ${t("web.replay.own_view")}</p>
    <ol class="replay-seats">${others}</ol>
    <div class="replay-table">
      <div class="pile discard" role="img" aria-label="${t("web.top_card", { card: top ? cardName(top) : "-" })}">${top ? cardSVG(top) : ""}</div>
      <div class="to-match">${view.color ? colorBadge(view.color, 22) : ""}<span>${view.color ? t(`common.color.${view.color}`) : t("web.color_none")}</span></div>
    </div>
    <ol class="replay-events" aria-live="polite">${step.by !== null && step.by !== undefined && step.stand_in
      ? html`<li>${t("web.log.stand_in_move", { name: seatName(step.by) })}</li>` : ""}${lines}</ol>
    <p class="replay-hand-title">${t("web.your_hand", { count: hand.length })}</p>
    <ul class="replay-hand" data-testid="replay-hand">${hand.map((code) => html`<li class="card small" role="img" data-card="${code}"
      aria-label="${cardName(code)}">${cardSVG(code)}</li>`)}</ul>
    <div class="row center replay-controls">
      <button data-action="replay-first" ${replay.index === 0 ? "disabled" : ""} aria-label="${t("web.replay.first")}">«</button>
      <button data-action="replay-back" ${replay.index === 0 ? "disabled" : ""}>◀ ${t("web.replay.back")}</button>
      <button class="primary" data-action="replay-play" aria-pressed="${String(playing)}">${playing ? t("web.replay.pause") : t("web.replay.play")}</button>
      <button data-action="replay-next" ${replay.index === last ? "disabled" : ""}>${t("web.replay.next")} ▶</button>
    </div>`;
  return shell(title, body);
}

function shell(title, body) {
  return html`<div class="overlay"><div class="dialog replay-dialog" role="dialog" aria-modal="true" aria-labelledby="dialog-title" data-testid="replay">
    <h2 id="dialog-title">${title}</h2>${body}
    <button class="ghost close" data-action="replay-close">${t("web.close")}</button></div></div>`;
}
