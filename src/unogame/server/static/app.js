// The browser client of unogame: lobby, game table, dialogs. No build step, no library.
// The server is authoritative: this page shows the view it receives and sends moves in
// the project's notation together with the version of the position they were made on.

import { PRESETS, SWITCHES, presetOf } from "./presets.js";
import { muted, play as playSound, setMuted, soundFor } from "./sound.js";
import { PATTERN_DEFS, backSVG as backMarkup, cardSVG as cardMarkup, colorBadge as badgeMarkup, splitCode } from "./cards.js";
import { builderAction, builderInput, builderView, chosenRule, describeRule, refreshExplanation, refusalText } from "./custom_rule.js";

const COLORS = ["R", "Y", "G", "B"];
const BOT_MARK = "🤖 ";
const app = document.getElementById("app");
const live = document.getElementById("live");
document.body.insertAdjacentHTML("afterbegin", PATTERN_DEFS);

const S = {
  lang: "en",
  strings: {},
  meta: null,
  ws: null,
  wsOpen: false,
  retry: 0,
  code: null, // the room we are in (or want to enter)
  seat: null,
  roomInfo: null,
  game: null, // the latest state or update message
  log: [],
  dialog: null, // {kind: ...}
  unoArmed: false,
  roundOver: null, // the last round_over event
  reveal: null, // a challenged hand shown to us
  prevHand: [],
  prevTop: null,
  newCards: new Map(), // card code -> how many of it just arrived
  topChanged: false,
  showLog: false,
  showScores: false,
  showRules: false,
  homeError: null,
  pendingJoin: null, // a create/join/watch to send once connected
  queuedMove: null, // a move tapped while disconnected: sent after the seat is resumed
  bots: [],
  form: {},
  watching: false,
};

// ---------------------------------------------------------------- translations

function t(key, fields = {}) {
  let text = S.strings[key] ?? key;
  for (const [name, value] of Object.entries(fields)) text = text.replaceAll(`{${name}}`, value);
  return text;
}

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// Every page is built from html`...` templates: a value put into one is escaped unless it
// is markup made by another html`...` template (or raw(), for this project's own card
// drawings). Text from a person (a name) can therefore never become markup.
class Html {
  constructor(text) { this.text = text; }
}

function raw(markup) { return new Html(String(markup)); }

function piece(value) {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(piece).join("");
  if (value === null || value === undefined || value === false) return "";
  return esc(value);
}

function html(strings, ...values) {
  let out = strings[0];
  values.forEach((value, i) => { out += piece(value) + strings[i + 1]; });
  return new Html(out);
}

// The card drawings are this project's own SVG (from card codes, never from a person).
const cardSVG = (code) => raw(cardMarkup(code));
const backSVG = () => raw(backMarkup());
const colorBadge = (color, size) => raw(badgeMarkup(color, size));

function cardName(code) {
  const { color, rank } = splitCode(code);
  if (color === null) return t(`common.card.${rank}`);
  const colorName = t(`common.color.${color}`);
  if (/^[0-9]$/.test(rank)) return t("common.card.number", { color: colorName, number: rank });
  return t(`common.card.${rank}`, { color: colorName });
}

async function loadLanguage(lang) {
  const response = await fetch(`/api/i18n/${lang}`);
  S.strings = await response.json();
  S.lang = lang;
  document.documentElement.lang = lang;
  localStorage.setItem("uno.lang", lang);
  document.title = t("web.title");
}

function pickLanguage() {
  const saved = localStorage.getItem("uno.lang");
  if (saved === "en" || saved === "th") return saved;
  const wanted = (navigator.languages || [navigator.language || "en"]).map((l) => l.toLowerCase());
  return wanted.some((l) => l.startsWith("th")) ? "th" : "en";
}

// ---------------------------------------------------------------- connection

function tokenKey(code) { return `uno.token.${code}`; }

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  S.ws = ws;
  ws.onopen = () => {
    S.wsOpen = true;
    S.retry = 0;
    // Back into our seat first: a move or a join sent before that would be refused.
    if (S.code && (localStorage.getItem(tokenKey(S.code)) || S.watching)) { S.pendingJoin = null; enterRoom(S.code); }
    else if (S.pendingJoin) { send(S.pendingJoin); S.pendingJoin = null; }
    render();
  };
  ws.onmessage = (event) => onMessage(JSON.parse(event.data));
  ws.onclose = () => {
    S.wsOpen = false;
    if (S.ws !== ws) return;
    render();
    const delay = Math.min(5000, 300 * 2 ** S.retry++);
    setTimeout(() => { if (S.ws === ws) connect(); }, delay);
  };
}

const JOINS = new Set(["create", "join", "watch", "resume"]);

function send(message) {
  if (S.ws && S.wsOpen) S.ws.send(JSON.stringify(message));
  else if (message.type === "move") { S.queuedMove = message; toast(t("web.toast.move_waits")); }
  else if (JOINS.has(message.type)) S.pendingJoin = message;
  else toast(t("web.toast.not_connected"));
}

// The move tapped while disconnected goes once the seat is back, if it still means the
// same thing (same position, still legal); otherwise it is dropped, and the player told.
function flushQueuedMove(message) {
  const queued = S.queuedMove;
  if (!queued) return;
  S.queuedMove = null;
  if (message.version === queued.version && (message.legal ?? []).includes(queued.move)) send(queued);
  else toast(t("web.toast.move_dropped"));
}

function enterRoom(code) {
  const token = localStorage.getItem(tokenKey(code));
  if (token) send({ type: "resume", room: code, token });
  else if (S.watching) send({ type: "watch", room: code });
}

// Reconnect at once when a phone wakes up.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && (!S.ws || S.ws.readyState > 1)) connect();
});

function sendMove(move) {
  if (!S.game) return;
  send({ type: "move", move, version: S.game.version });
  S.dialog = null;
  render();
}

// ---------------------------------------------------------------- messages

function onMessage(message) {
  switch (message.type) {
    case "joined":
      S.code = message.room;
      S.seat = message.seat;
      if (message.token) localStorage.setItem(tokenKey(message.room), message.token);
      if (location.pathname !== `/r/${message.room}`) history.replaceState(null, "", `/r/${message.room}`);
      S.homeError = null;
      break;
    case "room":
      S.roomInfo = message;
      S.seat = message.you;
      break;
    case "state": {
      // A game (or a rematch) starting under our eyes comes as a whole state: its first
      // card's surprises (a Draw Two turned up...) are announced as any other's.
      const opening = S.game !== null && message.view && (!S.game.view || S.game.status === "match_over");
      S.hits = new Set();
      S.game = message;
      setCountdowns(message);
      S.log = message.log.slice();
      S.roundOver = [...S.log].reverse().find((e) => e.type === "round_over") ?? null;
      S.announce = null;
      for (const event of S.log) if (event.type === "custom" || event.type === "play" || event.type === "pass" || event.type === "draw") onEvent(event);
      S.dialog = null;
      trackChanges(true);
      if (opening) {
        const dealt = S.log.map((event) => event.type).lastIndexOf("deal");
        if (dealt >= 0) announce(S.log.slice(dealt));
      }
      flushQueuedMove(message);
      break;
    }
    case "update":
      S.game = message;
      setCountdowns(message);
      S.hits = new Set();
      announce(message.events);
      { const sound = soundFor(message.events, S.seat); if (sound) playSound(sound); }
      for (const event of message.events) onEvent(event);
      S.log.push(...message.events);
      if (S.log.length > 400) S.log.splice(0, S.log.length - 400);
      if (S.dialog?.kind === "play") keepPlayDialog();
      trackChanges(false);
      break;
    case "emote":
      showEmote(message);
      return;
    case "removed":
      localStorage.removeItem(tokenKey(S.code));
      toast(t("web.toast.removed"));
      break;
    case "error":
      onError(message);
      break;
    default:
      break;
  }
  render();
}

// The turn timer and the scoreboard's countdown: the server says how many seconds are
// left; the page counts down from when it heard so, redrawing only the numbers.
function setCountdowns(message) {
  const now = Date.now();
  S.timerEnd = message.timer_left == null ? null : now + message.timer_left * 1000;
  S.nextRoundEnd = message.next_round_left == null ? null : now + message.next_round_left * 1000;
}

function secondsLeft(end) {
  return end == null ? null : Math.max(0, Math.ceil((end - Date.now()) / 1000));
}

setInterval(() => {
  for (const element of app.querySelectorAll("[data-countdown]")) {
    const left = secondsLeft(element.dataset.countdown === "turn" ? S.timerEnd : S.nextRoundEnd);
    if (left !== null) element.textContent = t(element.dataset.key, { seconds: left });
  }
}, 500);

// Every surprise gets a line (spoken by the live region) and a short animation of the
// seat it hit: draws ("+4!"), skips, reverses, swaps, passed hands, catches, jump-ins,
// the stack total and the custom card's effect.
function surprise(event, events) {
  const me = event.seat === S.seat;
  const name = event.seat !== undefined ? seatName(event.seat) : "";
  switch (event.type) {
    case "draw":
      if (event.reason === "turn" || event.count < 1) return null;
      S.hits.add(event.seat);
      return t(me ? "web.surprise.you_draw" : "web.surprise.draws", { name, count: event.count });
    case "skip":
      S.hits.add(event.seat);
      return t(me ? "web.surprise.you_skipped" : "web.surprise.skipped", { name });
    case "play": {
      const { rank } = splitCode(event.card);
      if (event.jump_in) return t("web.surprise.jump_in", { name, card: cardName(event.card) });
      if (rank === "R") return t("web.surprise.reverse", { name });
      if (S.game?.view?.pending?.kind === "stack" && (rank === "+2" || rank === "W+4")) {
        return t("web.surprise.stack", { name, amount: S.game.view.pending.amount });
      }
      return null;
    }
    case "swap": {
      const [a, b] = event.seats;
      event.seats.forEach((seat) => S.hits.add(seat));
      // The swap's first seat made it: "Anna swapped hands with you" / "You swapped hands with Ben".
      if (S.seat === b) return t("web.surprise.swap_you", { name: seatName(a) });
      if (S.seat === a) return t("web.surprise.you_swapped", { name: seatName(b) });
      return t("web.log.swap", { a: seatName(a), b: seatName(b) });
    }
    case "pass_hands": return t("web.surprise.pass_hands");
    case "catch":
      S.hits.add(event.target);
      return event.target === S.seat ? t("web.toast.caught", { name }) : t("web.log.catch", { name, target: seatName(event.target) });
    case "custom": return customText(event, events);
    default: return null;
  }
}

function announce(events) {
  const lines = events.map((event) => surprise(event, events)).filter(Boolean);
  if (lines.length) toast(lines.slice(-3).join(" · "), true);
}

// A Wild Customizable's effect in words (with its number), naming the player it hit.
function customText(event, events) {
  const rule = announcedRule(event);
  const list = events ?? S.log;
  const at = list.indexOf(event);
  const play = [...list.slice(0, at < 0 ? list.length : at)].reverse().find((e) => e.type === "play" && e.seat === event.seat);
  const target = play ? parseMove(play.move).target : null;
  const line = t("common.custom.played", { name: seatName(event.seat), rule });
  return target === null || target === undefined ? line : t("web.log.custom_target", { rule: line, name: seatName(target) });
}

// A reaction from a player: a bubble on their seat for a few seconds and a line.
const EMOTES = ["hi", "nice", "wow", "oops", "hurry", "gg"];

function showEmote(message) {
  if (!EMOTES.includes(message.emote)) return;
  const text = t(`web.emote.${message.emote}`);
  toast(`${seatName(message.seat)}: ${text}`);
  const chip = app.querySelector(`.opponent[data-seat="${message.seat}"] .op-name`);
  if (!chip) return;
  const bubble = document.createElement("span");
  bubble.className = "emote-bubble";
  bubble.textContent = text;
  chip.append(bubble);
  setTimeout(() => bubble.remove(), 3000);
}

function emoteBar() {
  if (S.seat === null || !S.showEmotes) return "";
  return html`<div class="emotes" role="group" aria-label="${t("web.react")}">${EMOTES.map((name) =>
    html`<button class="small" data-action="emote" data-emote="${name}">${t(`web.emote.${name}`)}</button>`)}</div>`;
}

function onEvent(event) {
  // A Wild Customizable's rule is shown until the next turn starts.
  if (event.type === "play" || event.type === "pass" || (event.type === "draw" && event.reason === "turn")) S.announce = null;
  if (event.type === "custom") S.announce = event;
  if (event.type === "round_over") S.roundOver = event;
  if (event.type === "challenge" && event.hand) S.reveal = event;
  // A catch of this player is announced with the penalty it brings (surprise()): a toast
  // here would cover the "+2" line.
  if (event.type === "deal") S.roundOver = null;
}

function onError(message) {
  if (message.code === "bad_token") {
    localStorage.removeItem(tokenKey(S.code));
    S.seat = null;
    toast(t("web.error.bad_token"));
    return;
  }
  if (message.code === "no_room") {
    S.code = null;
    S.roomInfo = null;
    S.game = null;
    history.replaceState(null, "", "/");
    S.homeError = t("web.error.no_room");
    return;
  }
  if (message.code === "stale") { toast(t("web.error.stale")); return; }
  if (message.refusal) { toast(moveRefusalText(message.refusal)); return; }
  const known = S.strings[`web.error.${message.code}`];
  if (message.code === "bad_rule") {  // the Wild Customizable rule: why, in the reader's language
    S.homeError = refusalText(message.reason, message.fields ?? {}, t);
    toast(S.homeError);
    return;
  }
  toast(known ? t(`web.error.${message.code}`) : message.message);
}

// The engine's refusal (a stable code with parameters) in the player's language, with the
// rule it cites for the curious.
const SEAT_PARAMS = new Set(["seat", "target", "turn", "by"]);

function refusalParam(name, value) {
  if (name === "card" || name === "top") return value ? cardName(value) : "-";
  if (name === "color") return value ? t(`common.color.${value}`) : t("web.color_none");
  if (SEAT_PARAMS.has(name)) return seatName(value);
  return String(value);
}

function moveRefusalText(reason) {
  const key = `web.why.${reason.code}`;
  if (!(key in S.strings)) return reason.text;
  const params = Object.fromEntries(Object.entries(reason.params ?? {}).map(([k, v]) => [k, refusalParam(k, v)]));
  return reason.rule ? `${t(key, params)} (${reason.rule})` : t(key, params);
}

function whyNot(card) {
  const reason = S.game?.why?.[card];
  return reason ? moveRefusalText(reason) : t("web.not_playable", { card: cardName(card) });
}

function trackChanges(fresh) {
  const view = S.game?.view;
  if (!view) return;
  const hand = S.seat !== null && Array.isArray(view.hands[S.seat]) ? view.hands[S.seat] : [];
  S.newCards = new Map();
  if (!fresh) {
    const before = [...S.prevHand];
    for (const card of hand) {
      const at = before.indexOf(card);
      if (at >= 0) before.splice(at, 1); else S.newCards.set(card, (S.newCards.get(card) ?? 0) + 1);
    }
  }
  const top = view.discard_pile[0] ?? null;
  S.topChanged = !fresh && top !== S.prevTop;
  S.prevHand = hand.slice();
  S.prevTop = top;
  if (S.game.status === "playing") S.roundOver = S.roundOver && S.game.view.winner === null ? null : S.roundOver;
}

let toastTimer = null;
function toast(text, loud = false) {
  live.textContent = text;
  live.classList.add("show");
  live.classList.toggle("loud", loud);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => live.classList.remove("show"), 3500);
}

// ---------------------------------------------------------------- helpers

// A bot is known by its seat's kind (from the server), never by its name: a bot's name
// carries the bot mark, and the server refuses people's names that read as a bot's.
function displayName(info) {
  if (info.kind !== "bot") return info.name;
  const numbered = /^Bot ([0-9]+)$/.exec(info.name);
  return BOT_MARK + (numbered ? t("web.bot_n", { number: numbered[1] }) : info.name);
}

// A room code read out in two groups of four; typed with or without the space.
function spacedCode(code) {
  return code.length === 8 ? `${code.slice(0, 4)} ${code.slice(4)}` : code;
}

function typedCode(text) {
  return text.toUpperCase().replace(/[\s-]/g, "");
}

function seatName(seat) {
  const info = S.roomInfo?.seats?.[seat];
  const name = info ? displayName(info) : `#${seat}`;
  return seat === S.seat ? t("web.you_name", { name }) : name;
}

function parseMove(text) {
  const words = text.split(" ");
  const move = { text, kind: words[0], card: null, color: null, arg: null, target: null, gift: null, uno: false };
  if (words[words.length - 1] === "uno" && words.length > 1) { move.uno = true; words.pop(); }
  if (move.kind === "play") {
    move.card = words[1];
    let rest = words.slice(2);
    if (move.card.startsWith("W")) { move.color = rest[0]; rest = rest.slice(1); }
    for (const word of rest) {  // a seat, a colour to discard, a card to give (DECISIONS.md D18)
      if (/^[0-9]+$/.test(word)) move.target = Number(word);
      else if (/^[RYGB]$/.test(word)) move.arg = word;
      else move.gift = word;
    }
  } else if (move.kind === "color") move.color = words[1];
  else if (move.kind === "catch") move.target = Number(words[1]);
  return move;
}

function legalMoves() {
  return (S.game?.legal ?? []).map(parseMove);
}

function myTurn() {
  return S.game?.view && S.seat !== null && S.game.view.turn === S.seat;
}

function icon(name) {
  const paths = {
    cw: "M12 4a8 8 0 1 1-7.5 5.2M4 4v5h5",
    ccw: "M12 4a8 8 0 1 0 7.5 5.2M20 4v5h-5",
    sound: "M4 9h4l5-4v14l-5-4H4zM16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11",
    mute: "M4 9h4l5-4v14l-5-4H4zM16 9l5 6M21 9l-5 6",
  };
  return html`<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path d="${paths[name]}"
    fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
}

// ---------------------------------------------------------------- rendering

function render() {
  const focused = document.activeElement?.dataset?.focus;
  const page = [topBar()];
  let screen = "game";
  if (!S.code || (!S.roomInfo && !S.game)) screen = S.code ? "join" : "home";
  else if (S.roomInfo?.status === "lobby" || !S.game?.view) screen = "lobby";
  page.push({ join: joinScreen, home: homeScreen, lobby: lobbyScreen, game: gameScreen }[screen]());
  if (S.showRules) page.push(rulesDialog());
  // Keep the reader's place in scrolled panels: the page re-renders on every move.
  const scrolled = [".rules", ".round-dialog", ".log", ".hand", ".table-scroll"].map((selector) => {
    const element = app.querySelector(selector);
    return [selector, element ? element.scrollTop : 0, element ? element.scrollLeft : 0];
  });
  app.innerHTML = piece(page);
  restoreForm();
  for (const [selector, top, left] of scrolled) {
    const element = app.querySelector(selector);
    if (element) { element.scrollTop = top; element.scrollLeft = left; }
  }
  // A new screen opens at its top (the Start button was pressed far down the lobby).
  if (screen !== S.screen) { S.screen = screen; window.scrollTo(0, 0); }
  else if (focused) app.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
  const dialog = app.querySelector("[role=dialog] [autofocus], [role=dialog] button");
  if (dialog && !app.querySelector("[role=dialog]").contains(document.activeElement)) dialog.focus();
}

function topBar() {
  const other = S.lang === "th" ? "en" : "th";
  const connection = S.code && !S.wsOpen ? html`<span class="offline" role="status">${t("web.reconnecting")}</span>` : "";
  return html`<header class="topbar">
    <a class="logo" href="/" data-action="home" aria-label="${t("web.home")}">UNO</a>
    ${S.code ? html`<span class="room-chip" aria-label="${t("web.room_code")}">${spacedCode(S.code)}</span>` : ""}
    ${connection}
    <span class="spacer"></span>
    ${S.code ? html`<button class="ghost sound-toggle" data-action="mute" data-focus="mute" aria-pressed="${String(muted())}"
      aria-label="${muted() ? t("web.sound_off") : t("web.sound_on")}">${icon(muted() ? "mute" : "sound")}</button>` : ""}
    <button class="ghost" data-action="rules" data-focus="rules">${t("web.rules")}</button>
    <button class="ghost lang" data-action="lang" data-lang="${other}" data-focus="lang"
      aria-label="${t("web.switch_language")}">${other === "th" ? "ไทย" : "English"}</button>
  </header>`;
}

function homeScreen() {
  const meta = S.meta;
  if (!meta) return html`<main class="home"><p>${t("web.loading")}</p></main>`;
  const rules = meta.rules;
  const bools = SWITCHES;
  const switches = Object.fromEntries(bools.map((key) => [key, S.form[`rule-${key}`] ?? rules[key]]));
  const current = presetOf(switches);
  const presets = Object.keys(PRESETS).map((name) => html`<button type="button" class="small" data-action="preset"
    data-preset="${name}" aria-pressed="${String(current === name)}">${t(`web.preset.${name}`)}</button>`);
  const numbers = [["hand_size", 1, 20], ["target_score", 1, 5000], ["uno_penalty", 0, 20], ["custom_count", 1, 20]];
  const name = (localStorage.getItem("uno.name") || "");
  const levelOptions = (selected) => meta.bot_levels.map((level) =>
    html`<option value="${level}" ${level === selected ? "selected" : ""}>${t(`common.level.${level}`)}</option>`);
  return html`<main class="home">
    <h1 class="title">${t("web.title")}</h1>
    <p class="tagline">${t("web.tagline")}</p>
    ${S.homeError ? html`<p class="error" role="alert">${(S.homeError)}</p>` : ""}
    <section class="panel">
      <label class="field">${t("web.your_name")}
        <input id="player-name" maxlength="24" value="${name}" autocomplete="nickname" data-focus="name"></label>
    </section>
    <section class="panel" aria-labelledby="join-h">
      <h2 id="join-h">${t("web.join_room")}</h2>
      <form class="row" data-form="join">
        <input id="join-code" maxlength="10" placeholder="${t("web.code_placeholder")}" aria-label="${t("web.room_code")}"
          autocapitalize="characters" data-focus="join-code">
        <button type="submit" class="primary">${t("web.join")}</button>
      </form>
    </section>
    <section class="panel" aria-labelledby="create-h">
      <h2 id="create-h">${t("web.create_room")}</h2>
      <form data-form="create" class="create">
        <label class="field">${t("web.room_name")}<input id="room-name" maxlength="24" value="${(t("web.default_room"))}"></label>
        <div class="grid2">
          <label class="field">${t("web.seats")}<input id="seats" type="number" min="${meta.min_seats}" max="${meta.max_seats}" value="4"></label>
          <label class="field">${t("web.timer")}<select id="timer">
            ${[0, 15, 30, 60, 120].map((s) => html`<option value="${s}">${s ? t("web.timer_seconds", { seconds: s }) : t("web.timer_off")}</option>`)}
          </select></label>
          <label class="field">${t("web.grace")}<select id="grace">
            ${[10, 20, 30, 60, 120].map((s) => html`<option value="${s}" ${s === 20 ? "selected" : ""}>${t("web.timer_seconds", { seconds: s })}</option>`)}
          </select></label>
          <label class="field">${t("web.fill")}<select id="fill">
            ${meta.bot_levels.map((level) => html`<option value="${level}" ${level === meta.default_bot_level ? "selected" : ""}>${t("web.fill_bots", { level: t(`common.level.${level}`) })}</option>`)}
            <option value="">${t("web.fill_empty")}</option>
          </select></label>
        </div>
        <fieldset><legend>${t("web.bots")}</legend>
          <ul class="bot-list">${S.bots.map((level, i) => html`<li>${t("web.bot_n", { number: i + 1 })}
            <select data-bot="${i}" aria-label="${t("web.bot_level")}">${levelOptions(level)}</select>
            <button type="button" class="ghost small" data-action="drop-bot" data-index="${i}" aria-label="${t("web.remove")}">✕</button></li>`)}</ul>
          <button type="button" class="small" data-action="more-bots" data-focus="more-bots">+ ${t("web.add_bot")}</button>
        </fieldset>
        <fieldset><legend>${t("web.presets")}</legend><div class="presets">${presets}</div>
          <p class="muted">${current ? t(`web.preset_help.${current}`) : t("web.preset_own")}</p></fieldset>
        <details id="house-rules" ${S.rulesOpen ? "open" : ""}><summary>${t("web.house_rules")}</summary>
          <div class="rules-form">
          ${bools.map((key) => html`<label class="check"><input type="checkbox" id="rule-${key}" ${rules[key] ? "checked" : ""}> ${t(`common.rule.${key}`)}</label>`)}
          <div class="grid2">${numbers.map(([key, lo, hi]) => html`<label class="field">${t(`common.rule.${key}`)}
            <input type="number" id="rule-${key}" min="${lo}" max="${hi}" value="${rules[key]}"></label>`)}</div>
          ${builderView(html, t, meta.custom_composer, Number(S.form["rule-custom_count"] ?? rules.custom_count))}
          </div>
        </details>
        <button type="submit" class="primary big">${t("web.create")}</button>
      </form>
    </section>
  </main>`;
}

function joinScreen() {
  const name = (localStorage.getItem("uno.name") || "");
  return html`<main class="home">
    <h1 class="title">${t("web.title")}</h1>
    <section class="panel">
      <h2>${t("web.join_named", { code: spacedCode(S.code) })}</h2>
      <form data-form="join-named">
        <label class="field">${t("web.your_name")}<input id="player-name" maxlength="24" value="${name}" data-focus="name"></label>
        <div class="row"><button type="submit" class="primary">${t("web.take_seat")}</button>
        <button type="button" data-action="watch">${t("web.watch")}</button></div>
      </form>
    </section></main>`;
}

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

function inviteLink() {
  // Opened on the server's own machine: give phones the network address instead.
  const local = LOOPBACK.includes(location.hostname);
  const base = local && S.meta?.lan_url ? S.meta.lan_url : location.origin;
  return `${base}/r/${S.code}`;
}

// A link to this computer itself (127.0.0.1): no phone can open it.
function linkIsLocalOnly(link) {
  return LOOPBACK.includes(new URL(link).hostname);
}

function lobbyScreen() {
  const info = S.roomInfo;
  if (!info) return html`<main><p>${t("web.loading")}</p></main>`;
  const host = S.seat === info.host;
  const link = inviteLink();
  const seats = info.seats.map((seat, i) => html`<li class="seat-row">
      <span class="dot ${seat.connected ? "on" : ""}" aria-hidden="true"></span>
      <span class="seat-name">${(displayName(seat))}${i === S.seat ? html` <em>(${t("web.you")})</em>` : ""}${i === info.host ? html` <span class="tag">${t("web.host")}</span>` : ""}</span>
      ${seat.kind === "bot" ? html`<span class="tag bot">${t("web.bot")} · ${t(`common.level.${seat.level}`)}</span>` : ""}
      ${host && i !== info.host ? html`<button class="ghost small" data-action="remove" data-seat="${i}" aria-label="${t("web.remove_named", { name: (displayName(seat)) })}">✕</button>` : ""}
    </li>`);
  const free = info.capacity - info.seats.length;
  const empty = Array.from({ length: free }, () => html`<li class="seat-row empty">${t("web.empty_seat")}</li>`);
  const levels = (S.meta?.bot_levels ?? []).map((level) =>
    html`<option value="${level}" ${level === S.meta.default_bot_level ? "selected" : ""}>${t(`common.level.${level}`)}</option>`);
  const rules = Object.entries(info.rules);
  return html`<main class="lobby">
    <section class="panel share">
      <h1>${(info.name)}</h1>
      <p class="code-label">${t("web.room_code")}</p>
      <p class="big-code" data-testid="room-code">${spacedCode(info.room)}</p>
      ${linkIsLocalOnly(link) ? html`<p class="local-only" role="note">${t("web.local_only")}
          <code>uno serve --host 0.0.0.0</code></p>`
        : html`<img class="qr" src="/api/qr.svg?data=${encodeURIComponent(link)}" alt="${t("web.qr_alt")}" width="164" height="164">`}
      <div class="row link-row"><input readonly value="${(link)}" aria-label="${t("web.invite_link")}" id="invite">
        <button data-action="copy" class="small">${t("web.copy")}</button></div>
    </section>
    <section class="panel">
      <h2>${t("web.players", { count: info.seats.length, capacity: info.capacity })}</h2>
      <ul class="seats">${seats}${empty}</ul>
      ${info.spectators ? html`<p class="muted">${t("web.spectators", { count: info.spectators })}</p>` : ""}
      ${rules.length ? html`<p class="muted">${t("web.house_rules")}: ${rules.map(([k, v]) => ruleText(k, v)).join(" · ")}</p>` : ""}
      <p class="muted">${info.fill ? t("web.lobby_fill", { level: t(`common.level.${info.fill}`) }) : t("web.lobby_no_fill")}
        ${t("web.lobby_grace", { seconds: info.grace ?? 20 })}</p>
      ${host ? html`<div class="row">
          <select id="bot-level" aria-label="${t("web.bot_level")}">${levels}</select>
          <button data-action="add-bot" data-focus="add-bot" ${free ? "" : "disabled"}>+ ${t("web.add_bot")}</button></div>
        <button class="primary big" data-action="start" data-focus="start" ${info.seats.length >= 2 || (info.fill && info.capacity >= 2) ? "" : "disabled"}>${t("web.start")}</button>`
      : html`<p class="waiting">${S.seat === null ? t("web.watching") : t("web.wait_host")}</p>`}
    </section></main>`;
}

function ruleText(key, value) {
  if (key === "custom_rule") return `${t("common.rule.custom_rule")}: ${customRuleText()}`;
  if (typeof value === "boolean") return `${t(`common.rule.${key}`)}${value ? "" : ` (${t("web.off")})`}`;
  return `${t(`common.rule.${key}`)}: ${value}`;
}

// The room's Wild Customizable rule in words: a preset's explanation, or a family's rule
// by its name, explanation and text (the name and text are a person's: escaped as text).
function customRuleText() {
  const rules = S.roomInfo?.rules ?? {};
  const rule = rules.custom_rule ?? "none";
  const explained = describeRule(rule, t, S.meta?.custom_composer, rules.custom_count ?? 2);
  if (typeof rule === "string") return explained;
  return `${rule.name}: ${explained}${rule.text ? ` — “${rule.text}”` : ""}`;
}

// A Wild Customizable's announcement (the custom event) in words.
function announcedRule(event) {
  if (!event.name) return describeRule(event.rule, t, S.meta?.custom_composer, S.roomInfo?.rules?.custom_count ?? 2);
  const explained = describeRule({ steps: event.steps }, t, S.meta?.custom_composer);
  return `${event.name}: ${explained}${event.text ? ` — “${event.text}”` : ""}`;
}

// What the seat chosen for a Wild Customizable is for under the room's rule.
function customSeatPurpose() {
  const rule = S.roomInfo?.rules?.custom_rule;
  if (!rule || typeof rule === "string") return S.meta?.seat_purpose?.WC;
  const chosen = new Set(rule.steps.filter((step) => step.who === "chosen").map((step) => step.what));
  return chosen.size === 1 && chosen.has("swap") ? "swap" : "chosen";
}

function gameScreen() {
  const game = S.game;
  const view = game.view;
  const legal = legalMoves();
  const info = S.roomInfo;
  const n = view.players;
  const me = S.seat !== null && S.seat < n ? S.seat : null;
  // Everyone else in the order they play from here, following the direction: the
  // arrangement shows who comes next (a Reverse turns it around).
  const order = [];
  const dir = view.direction === -1 ? -1 : 1;
  for (let k = me === null ? 0 : 1; k < n; k++) order.push((((me ?? 0) + dir * k) % n + n) % n);
  const nextSeat = view.winner === null ? ((view.turn + dir) % n + n) % n : null;
  const catches = new Set(legal.filter((m) => m.kind === "catch").map((m) => m.target));
  const opponents = order.map((seat) => {
    const count = Array.isArray(view.hands[seat]) ? view.hands[seat].length : view.hands[seat];
    const seatInfo = info?.seats?.[seat];
    const turn = view.turn === seat && view.winner === null;
    const backs = Array.from({ length: Math.min(count, n > 4 ? 3 : 8) }, () => html`<span class="mini">${backSVG()}</span>`);
    const next = seat === nextSeat && !turn;
    return html`<li class="opponent ${turn ? "turn" : ""} ${next ? "next" : ""} ${S.hits?.has(seat) ? "hit" : ""}" data-seat="${seat}" aria-label="${(t("web.opponent_label", { name: seatName(seat), count, points: view.scores[seat] }))}${turn ? ". " + t("web.their_turn") : ""}${next ? ". " + t("web.plays_next") : ""}">
      <div class="op-name">${turn ? html`<span class="turn-mark" aria-hidden="true">▶</span>` : ""}${(seatName(seat))}
        ${next ? html`<span class="tag next">${t("web.next")}</span>` : ""}
        ${seatInfo?.kind === "bot" ? html`<span class="tag bot">${t("web.bot")}</span>` : ""}
        ${seatInfo && !seatInfo.connected ? html`<span class="tag off">${t("web.offline")}</span>` : ""}
        ${seatInfo?.away ? html`<span class="tag off">${t("web.away")}</span>` : ""}
        ${seatInfo && seatInfo.kind !== "bot" && !seatInfo.connected && !seatInfo.away && S.seat === info.host && view.winner === null
          ? html`<button class="small" data-action="hand-to-bot" data-seat="${seat}" aria-label="${t("web.hand_to_bot_named", { name: seatName(seat) })}">${t("web.hand_to_bot")}</button>` : ""}</div>
      <div class="op-cards" aria-hidden="true">${backs}<span class="count">${count}</span></div>
      <div class="op-meta">${t("web.points", { points: view.scores[seat] })}
        ${view.uno.includes(seat) ? html`<span class="tag uno">UNO</span>` : ""}
        ${catches.has(seat) ? html`<button class="catch" data-move="catch ${seat}" data-focus="catch-${seat}">${t("common.move.catch")}</button>` : ""}</div>
    </li>`;
  });
  const top = view.discard_pile[0];
  const color = view.color;
  const canDraw = legal.some((m) => m.kind === "draw");
  const drawLabel = view.pending?.kind === "stack" ? t("web.draw_n", { count: view.pending.amount }) : t("common.move.draw");
  const table = html`<section class="table" aria-label="${t("web.table")}">
    <button class="pile draw-pile ${canDraw ? "can" : ""}" data-move="draw" ${canDraw ? "" : "disabled"} data-focus="draw"
      aria-label="${t("web.draw_pile", { count: view.draw_pile })}${canDraw ? ". " + drawLabel : ""}">
      ${backSVG()}<span class="pile-count">${view.draw_pile}</span></button>
    <div class="pile discard ${S.topChanged ? "flip" : ""}" role="img" aria-label="${(t("web.top_card", { card: top ? cardName(top) : "-" }))}"
      ${top === "WC" ? html`title="${customRuleText()}"` : ""}>
      ${top ? cardSVG(top) : ""}</div>
    <div class="table-info">
      <div class="to-match" aria-label="${(t("web.color_to_match", { color: color ? t(`common.color.${color}`) : t("web.color_none") }))}">
        ${color ? colorBadge(color, 26) : ""}<span>${color ? t(`common.color.${color}`) : t("web.color_none")}</span></div>
      <div class="direction" aria-label="${t(`common.direction.${view.direction}`)}">${icon(view.direction === 1 ? "cw" : "ccw")}
        <span>${t(`common.direction.${view.direction}`)}</span></div>
    </div></section>`;
  const timerLeft = secondsLeft(S.timerEnd);
  const timer = timerLeft === null || view.winner !== null ? "" : html`<span class="turn-timer" data-countdown="turn"
    data-key="web.timer_left">${t("web.timer_left", { seconds: timerLeft })}</span>`;
  const status = html`<p class="status ${myTurn() ? "mine" : ""}" role="status" aria-live="polite">${(statusText(view, legal))}${timer}</p>`;
  const handSection = me === null ? html`<p class="muted center">${t("web.watching")}</p>` : handView(view, legal, me);
  const actions = me === null ? "" : actionBar(view, legal);
  let overlay = "";
  if (S.dialog) overlay = dialogView(S.dialog, legal);
  else if (S.reveal) overlay = revealDialog();
  else if (me !== null && view.pending?.kind === "color" && myTurn()) overlay = colorDialog(legal.filter((m) => m.kind === "color").map((m) => ({ color: m.color, text: m.text })), "web.choose_first_color");
  else if (me !== null && view.pending?.kind === "challenge" && myTurn()) overlay = challengeDialog(view, legal);
  else if (game.status === "match_over" || (game.status === "round_over" && !pressedNext())) overlay = roundDialog();
  else if (S.showScores) overlay = scoresDialog();
  if (S.confirmLeave) overlay = leaveDialog();
  const waiting = game.status === "round_over" && pressedNext() ? html`<p class="status waiting-next">${t("web.waiting_others",
    { ready: game.ready.length, total: waitingFor() })} ${nextRoundCountdown()}</p>` : "";
  const houseRules = activeRules();
  const rulesLine = houseRules.length ? html`<button class="ghost small rules-line" data-action="rules">${t("web.house_rules")}: ${houseRules.map(([name]) => name).join(" · ")}</button>` : "";
  return html`<main class="game seats-${n > 6 ? "many" : "few"}">
    <ol class="opponents dir-${dir === 1 ? "cw" : "ccw"}" aria-label="${t("web.play_order")}">${opponents}</ol>
    ${table}${waiting || status}${announceBanner()}
    <div class="dock">${handSection}${actions}</div>
    <nav class="game-nav">${rulesLine}
      <button class="ghost" data-action="scores" data-focus="scores">${t("web.scoreboard")}</button>
      <button class="ghost" data-action="log" data-focus="log" aria-expanded="${String(S.showLog)}">${t("web.log")}</button>
      ${S.seat !== null ? html`<button class="ghost" data-action="emotes" aria-expanded="${String(Boolean(S.showEmotes))}">${t("web.react")}</button>` : ""}
      <button class="ghost" data-action="leave">${t("web.leave")}</button>
    </nav>${emoteBar()}
    ${S.showLog ? logView() : ""}
    ${overlay}</main>`;
}

// The last Wild Customizable's rule, until the next turn starts (a table rule is only this).
function announceBanner() {
  const event = S.announce;
  if (!event) return "";
  return html`<p class="rule-announce" role="status" data-testid="rule-announce">${t("common.custom.played", { name: seatName(event.seat), rule: announcedRule(event) })}</p>`;
}

function statusText(view, legal) {
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

function handView(view, legal, me) {
  const hand = view.hands[me];
  const plays = new Map();
  for (const move of legal) if (move.kind === "play") {
    if (!plays.has(move.card)) plays.set(move.card, []);
    plays.get(move.card).push(move);
  }
  const deciding = plays.size > 0 || myTurn();
  const fresh = new Map(S.newCards);
  const shown = sortedHand() ? [...hand].sort(cardOrder) : hand;
  const cards = shown.map((code, index) => {
    const playable = plays.has(code);
    const label = `${cardName(code)}${playable ? ", " + t("web.playable") : ""}`;
    const isNew = (fresh.get(code) ?? 0) > 0;
    if (isNew) fresh.set(code, fresh.get(code) - 1);
    const tip = code === "WC" ? customRuleText() : null;
    return html`<li><button class="card ${playable ? "playable" : deciding ? "dim" : ""} ${isNew ? "new" : ""}"
      data-card="${code}" data-focus="card-${index}" aria-label="${(label)}" ${playable ? "" : raw('aria-disabled="true"')}
      ${tip ? html`title="${tip}"` : ""}>
      ${cardSVG(code)}</button></li>`;
  });
  return html`<section class="hand-wrap ${S.hits?.has(me) ? "hit" : ""}" aria-label="${t("web.your_hand", { count: hand.length })}">
    <div class="hand-head"><span>${t("web.your_hand", { count: hand.length })}</span>
      <span>${t("web.points", { points: view.scores[me] })}</span>
      ${view.uno.includes(me) ? html`<span class="tag uno">UNO</span>` : ""}
      <button class="ghost small sort" data-action="sort" data-focus="sort" aria-pressed="${String(sortedHand())}">${t("web.sort_hand")}</button></div>
    <ul class="hand ${hand.length > 6 ? "many" : ""} ${hand.length > 12 ? "lots" : ""}">${cards}</ul></section>`;
}

const COLOR_ORDER = ["R", "Y", "G", "B"];
const RANK_ORDER = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"];

function sortedHand() { return localStorage.getItem("uno.sort") !== "dealt"; }

// By colour (red, yellow, green, blue, then the wilds), then by number and action.
function cardOrder(a, b) {
  const key = (code) => {
    const { color, rank } = splitCode(code);
    const c = color === null ? 9 : COLOR_ORDER.indexOf(color);
    const r = RANK_ORDER.indexOf(rank);
    return [c, r < 0 ? 99 : r, code];
  };
  const [x, y] = [key(a), key(b)];
  return x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0);
}

function actionBar(view, legal) {
  const buttons = [];
  const unoAlone = legal.some((m) => m.kind === "uno");
  const unoWithPlay = legal.some((m) => m.kind === "play" && m.uno);
  if (S.seat !== null && view.uno.includes(S.seat)) {
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
  return html`<div class="actions">${buttons}</div>`;
}

// closable: "cancel" for a choice that can be called off, "close" for a dialog that only
// shows something, false for none.
function dialogShell(title, body, closable = "cancel", extraClass = "") {
  const label = closable === "close" ? t("web.close") : t("web.cancel");
  return html`<div class="overlay"><div class="dialog ${extraClass}" role="dialog" aria-modal="true" aria-labelledby="dialog-title">
    <h2 id="dialog-title">${title}</h2>${body}
    ${closable ? html`<button class="ghost close" data-action="close-dialog">${label}</button>` : ""}</div></div>`;
}

function colorDialog(options, titleKey) {
  const buttons = COLORS.filter((c) => options.some((o) => o.color === c)).map((c) => {
    const option = options.find((o) => o.color === c);
    return html`<button class="color-choice c-${c}" data-pick="${option.text ?? c}" data-color="${c}">
      ${colorBadge(c, 34)}<span>${t(`common.color.${c}`)}</span></button>`;
  });
  return dialogShell(t(titleKey), html`<div class="color-grid">${buttons}</div>`, titleKey !== "web.choose_first_color", "color-dialog");
}

// Choosing a play step by step: colour, then discard colour, then seat.
function dialogView(dialog, legal) {
  if (dialog.kind === "play") {
    const variants = dialog.variants;
    const pick = (field) => [...new Set(variants.map((m) => m[field]))];
    if (dialog.step === "color") {
      return colorDialog(pick("color").map((c) => ({ color: c, text: `color:${c}` })), "web.choose_color");
    }
    if (dialog.step === "arg") {
      return colorDialog(pick("arg").map((c) => ({ color: c, text: `arg:${c}` })), "web.choose_discard_color");
    }
    if (dialog.step === "target") {
      const buttons = pick("target").map((seat) => {
        const count = S.game.view.hands[seat];
        return html`<button class="seat-choice" data-pick="target:${seat}">${(seatName(seat))}
          <span class="muted">${t("web.cards_n", { count: Array.isArray(count) ? count.length : count })}</span></button>`;
      });
      const purpose = dialog.card === "WC" ? customSeatPurpose() : S.meta?.seat_purpose?.[dialog.card];
      const key = purpose === "swap" ? "web.choose_swap" : "web.choose_player";
      return dialogShell(t(key), html`<div class="seat-grid">${buttons}</div>`);
    }
    if (dialog.step === "gift") {
      const buttons = pick("gift").map((code) => html`<button class="card small gift-choice" data-pick="gift:${code}"
        aria-label="${cardName(code)}">${cardSVG(code)}</button>`);
      return dialogShell(t("web.choose_gift"), html`<div class="gift-grid">${buttons}</div>`);
    }
  }
  return "";
}

function challengeDialog(view, legal) {
  const stack = legal.filter((m) => m.kind === "play");
  const by = seatName(view.pending.by);
  const amount = view.pending.amount ?? 4;
  return dialogShell(t("web.challenge_title", { name: by }),
    html`<p>${t("web.challenge_text", { name: by, amount, penalty: amount + 2 })}</p>
     <div class="row center">
       <button class="primary" data-move="challenge" autofocus>${t("common.move.challenge")}</button>
       <button data-move="accept">${t("web.accept_n", { count: amount })}</button>
       ${stack.length ? html`<button data-card="W+4">${t("web.stack_w4")}</button>` : ""}
     </div>`, false, "challenge-dialog");
}

function revealDialog() {
  const event = S.reveal;
  const cards = event.hand.map((code) => html`<li class="card small" role="img" aria-label="${(cardName(code))}">${cardSVG(code)}</li>`);
  return dialogShell(t("web.reveal_title", { name: seatName(event.by) }),
    html`<p>${event.guilty ? t("web.reveal_guilty", { name: seatName(event.by) }) : t("web.reveal_innocent", { name: seatName(event.by) })}</p>
     <ul class="reveal-hand">${cards}</ul>
     <button class="primary" data-action="close-reveal" autofocus>${t("web.ok")}</button>`, false);
}

function pressedNext() {
  return S.seat !== null && (S.game?.ready ?? []).includes(S.seat);
}

// People connected now: the next round waits for each of them (or for its countdown).
function waitingFor() {
  return (S.roomInfo?.seats ?? []).filter((seat) => seat.kind !== "bot" && seat.connected).length;
}

function nextRoundCountdown() {
  const left = secondsLeft(S.nextRoundEnd);
  return left === null ? "" : html`<span data-countdown="next" data-key="web.next_round_in">${t("web.next_round_in", { seconds: left })}</span>`;
}

function roundDialog() {
  const event = S.roundOver;
  const game = S.game;
  const view = game.view;
  const over = game.status === "match_over";
  const host = S.roomInfo && S.seat === S.roomInfo.host;
  const body = [];
  if (event) {
    const rows = event.hands.map((hand, seat) => html`<tr${seat === event.winner ? raw(' class="winner"') : ""}>
      <th scope="row">${(seatName(seat))}</th>
      <td><ul class="tiny-hand">${hand.map((code) => html`<li role="img" aria-label="${(cardName(code))}">${cardSVG(code)}</li>`)}</ul></td>
      <td class="num">${event.points[seat]}</td><td class="num">${event.scores[seat]}</td></tr>`);
    const gained = event.points.reduce((a, b) => a + b, 0);
    body.push(html`<p>${t("web.round_winner", { name: seatName(event.winner), points: gained })}</p>
      <table class="round-table"><thead><tr><th>${t("web.player")}</th><th>${t("web.cards_left")}</th>
      <th>${t("web.hand_points")}</th><th>${t("web.total")}</th></tr></thead><tbody>${rows}</tbody></table>`);
  }
  if (over) {
    body.push(html`<p class="match-winner celebrate">${t("web.match_winner", { name: seatName(view.game_winner) })}</p>${scoreTable()}${pastMatches()}`);
    body.push(host ? html`<button class="primary big" data-action="rematch" autofocus>${t("web.rematch")}</button>`
      : html`<p class="muted">${t("web.wait_rematch")}</p>`);
  } else if (S.seat !== null) {
    body.push(html`<button class="primary big" data-action="next-round" autofocus>${t("web.next_round")}</button>
      <p class="muted">${nextRoundCountdown()}</p>`);
  } else {
    body.push(html`<p class="muted">${t("web.wait_players_next")} ${nextRoundCountdown()}</p>`);
  }
  return dialogShell(over ? t("web.match_over") : t("web.round_over"), body, false, "round-dialog");
}

function leaveDialog() {
  return dialogShell(t("web.leave_title"), html`<p>${t("web.leave_text")}</p>
    <div class="row center"><button class="primary" data-action="leave-no" autofocus>${t("web.stay")}</button>
    <button data-action="leave-yes">${t("web.leave")}</button></div>`, false, "leave-dialog");
}

function scoreTable() {
  const results = S.game?.results ?? [];
  const n = S.game.view.players;
  const head = Array.from({ length: n }, (_, seat) => html`<th scope="col">${(seatName(seat))}</th>`);
  const rows = results.map((result, index) => html`<tr><th scope="row">${t("web.round_n", { number: index + 1 })}</th>
    ${result.scores.map((score, seat) => html`<td class="num ${seat === result.winner ? "winner" : ""}">${score}</td>`)}</tr>`);
  return html`<div class="table-scroll"><table class="score-table"><thead><tr><th></th>${head}</tr></thead><tbody>${rows.length ? rows :
    html`<tr><td colspan="${n + 1}">${t("web.no_rounds")}</td></tr>`}</tbody></table></div>
    <p class="muted">${t("web.target", { points: S.roomInfo?.rules?.target_score ?? S.meta?.rules?.target_score ?? 500 })}</p>`;
}

function scoresDialog() {
  return dialogShell(t("web.scoreboard"), [scoreTable(), pastMatches()], "close", "scores-dialog");
}

// The matches this room played before "Play again": their scoreboards stay.
function pastMatches() {
  const matches = S.roomInfo?.matches ?? [];
  if (!matches.length) return "";
  const blocks = [...matches].reverse().map((match, index) => {
    const names = match.names ?? [];
    const head = names.map((name, seat) => html`<th scope="col">${displayName({ ...(S.roomInfo.seats[seat] ?? {}), name })}</th>`);
    const rows = match.results.map((result, round) => html`<tr><th scope="row">${t("web.round_n", { number: round + 1 })}</th>
      ${result.scores.map((score, seat) => html`<td class="num ${seat === result.winner ? "winner" : ""}">${score}</td>`)}</tr>`);
    const winner = match.winner === null || match.winner === undefined ? "" : names[match.winner] ?? "";
    return html`<details class="past-match" ${index === 0 ? "open" : ""}><summary>${t("web.past_match", { number: matches.length - index })}
      ${winner ? html` · ${t("web.past_winner", { name: winner })}` : ""}</summary>
      <div class="table-scroll"><table class="score-table"><thead><tr><th></th>${head}</tr></thead><tbody>${rows}</tbody></table></div></details>`;
  });
  return html`<h3 class="past-title">${t("web.past_matches")}</h3>${blocks}`;
}

function logLine(event) {
  const name = event.seat !== undefined ? seatName(event.seat) : "";
  switch (event.type) {
    case "play": {
      let text = t(event.jump_in ? "web.log.jump_in" : "web.log.play", { name, card: cardName(event.card) });
      if (event.card.startsWith("W")) text += " " + t("web.log.chose", { color: t(`common.color.${event.color}`) });
      if (event.move.endsWith(" uno")) text += " " + t("web.log.with_uno");
      return text;
    }
    case "draw":
      if (event.cards) return t("web.log.you_drew", { cards: event.cards.map(cardName).join(", ") || "-" });
      return t(event.reason === "turn" ? "web.log.drew" : "web.log.drew_penalty", { name, count: event.count, reason: t(`web.reason.${event.reason}`) });
    case "skip": return t("web.log.skip", { name });
    case "color": return t("web.log.color", { name, color: t(`common.color.${event.color}`) });
    case "uno": return t("web.log.uno", { name });
    case "catch": return t("web.log.catch", { name, target: seatName(event.target) });
    case "challenge": return t(event.guilty ? "web.log.challenge_won" : "web.log.challenge_lost", { name, by: seatName(event.by) });
    case "accept": return t("web.log.accept", { name });
    case "pass": return t("web.log.pass", { name });
    case "swap": return t("web.log.swap", { a: seatName(event.seats[0]), b: seatName(event.seats[1]) });
    case "pass_hands": return t("web.log.pass_hands");
    case "custom": return customText(event, null);
    case "reverse": return t("web.log.reverse", { name });
    case "reveal": return t("web.log.reveal", { name, cards: event.hand.map(cardName).join(", ") || "-" });
    case "give": return t(event.card ? "web.log.give_card" : "web.log.give", { name, to: seatName(event.to), card: event.card ? cardName(event.card) : "" });
    case "discard": return t("web.log.discard", { name, cards: event.cards.map(cardName).join(", ") || "-" });
    case "reshuffle": return t("web.log.reshuffle", { count: event.count });
    case "round_over": return t("web.log.round_over", { name: seatName(event.winner), points: event.points.reduce((a, b) => a + b, 0) });
    case "deal": return t("web.log.deal");
    case "stand_in_move": return t("web.log.stand_in_move", { name });
    default: return event.type;
  }
}

function logView() {
  const lines = S.log.slice(-60).reverse().map((event) => html`<li>${(logLine(event))}</li>`);
  return html`<section class="log panel" aria-label="${t("web.log")}"><ol reversed>${lines}</ol></section>`;
}

// The house rules switched on in this room, each with a line saying what it does.
function activeRules() {
  const rules = S.roomInfo?.rules ?? {};
  const lines = [];
  for (const [key, value] of Object.entries(rules)) {
    if (value === true && `web.rule_help.${key}` in S.strings) lines.push([ruleText(key, value), t(`web.rule_help.${key}`)]);
  }
  if (rules.custom_rule && rules.custom_rule !== "none") lines.push([t("common.rule.custom_rule"), customRuleText()]);
  return lines;
}

function activeRulesView() {
  const lines = activeRules();
  if (!S.roomInfo) return "";
  return html`<h3>${t("web.rules_here")}</h3>${lines.length
    ? html`<ul class="active-rules">${lines.map(([name, help]) => html`<li><strong>${name}</strong>: ${help}</li>`)}</ul>`
    : html`<p>${t("web.rules_classic")}</p>`}`;
}

function rulesDialog() {
  const sections = ["goal", "turn", "actions", "wild", "uno", "scoring", "house"];
  const body = [activeRulesView(), sections.map((name) => html`<h3>${t(`rules.${name}.title`)}</h3><p>${t(`rules.${name}.text`)}</p>`)];
  return html`<div class="overlay rules-overlay"><div class="dialog rules" role="dialog" aria-modal="true" aria-labelledby="rules-title">
    <h2 id="rules-title" tabindex="-1" autofocus>${t("rules.title")}</h2>${body}
    <button class="primary" data-action="close-rules">${t("web.close")}</button></div></div>`;
}

// ---------------------------------------------------------------- actions

function startPlay(card) {
  const legal = legalMoves().filter((m) => m.kind === "play" && m.card === card);
  if (!legal.length) { toast(whyNot(card)); return; }
  const wantUno = S.unoArmed && legal.some((m) => m.uno);
  const variants = legal.filter((m) => m.uno === wantUno);
  S.unoArmed = false;
  advancePlay({ kind: "play", card, variants, version: S.game.version });
}

// A bot's UNO or catch changes the version while someone picks a colour: the choice
// stays open as long as the same plays are still legal.
function keepPlayDialog() {
  const legal = new Set(S.game.legal);
  const still = S.dialog.variants.filter((m) => legal.has(m.text));
  if (still.length) { S.dialog.variants = still; S.dialog.version = S.game.version; }
  else S.dialog = null;
}

function advancePlay(dialog) {
  const variants = dialog.variants;
  if (variants.length === 1) { sendMove(variants[0].text); return; }
  const distinct = (field) => new Set(variants.map((m) => m[field])).size > 1;
  dialog.step = distinct("color") ? "color" : distinct("arg") ? "arg" : distinct("target") ? "target"
    : distinct("gift") ? "gift" : null;
  if (dialog.step === null) { sendMove(variants[0].text); return; }
  S.dialog = dialog;
  render();
}

function pick(value) {
  if (S.game?.view?.pending?.kind === "color" && !S.dialog) { sendMove(value); return; }
  const dialog = S.dialog;
  if (!dialog) return;
  const [field, raw] = value.split(":");
  const chosen = field === "target" ? Number(raw) : raw;
  dialog.variants = dialog.variants.filter((m) => m[field] === chosen);
  advancePlay(dialog);
}

function collectSettings() {
  const meta = S.meta;
  const rules = {};
  for (const [key, value] of Object.entries(meta.rules)) {
    const input = document.getElementById(`rule-${key}`);
    if (!input) continue;
    if (typeof value === "boolean") rules[key] = input.checked;
    else if (typeof value === "number") rules[key] = Number(input.value);
    else rules[key] = input.value;
  }
  rules.custom_rule = chosenRule();
  return {
    name: document.getElementById("room-name").value,
    seats: Number(document.getElementById("seats").value),
    timer: Number(document.getElementById("timer").value),
    grace: Number(document.getElementById("grace").value),
    fill: document.getElementById("fill").value || null,
    rules,
  };
}

// A blank name is sent as none: the server numbers it ("Player 2"), so two blank names
// never read the same.
function playerName() {
  const input = document.getElementById("player-name");
  const name = (input?.value || "").trim();
  if (name) localStorage.setItem("uno.name", name);
  return name || null;
}

function leaveRoom() {
  S.code = null; S.roomInfo = null; S.game = null; S.seat = null; S.log = []; S.dialog = null;
  S.watching = false; S.roundOver = null; S.reveal = null;
  history.replaceState(null, "", "/");
  if (S.ws) { const ws = S.ws; S.ws = null; ws.close(); }
  connect();
}

app.addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target.dataset.form;
  if (form === "create") {
    const settings = collectSettings();
    send({ type: "create", name: playerName(), settings, bots: S.bots });
  } else if (form === "join") {
    const code = typedCode(document.getElementById("join-code").value);
    if (!code) return;
    const name = playerName();
    S.code = code;
    if (localStorage.getItem(tokenKey(code))) enterRoom(code);
    else send({ type: "join", room: code, name });
  } else if (form === "join-named") {
    // A browser that has a seat here goes back into it (one seat per browser).
    send({ type: "join", room: S.code, name: playerName(), token: localStorage.getItem(tokenKey(S.code)) });
  }
});

// The create form keeps what was typed across re-renders (adding a bot re-renders).
function remember(event) {
  const input = event.target;
  if (input.dataset.bot !== undefined) { S.bots[Number(input.dataset.bot)] = input.value; return; }
  if (input.id && input.closest("form, .panel")) S.form[input.id] = input.type === "checkbox" ? input.checked : input.value;
}
app.addEventListener("change", remember);
app.addEventListener("input", remember);
// The house rules stay open while the rule builder redraws the form.
app.addEventListener("toggle", (event) => {
  if (event.target.id === "house-rules") S.rulesOpen = event.target.open;
}, true);
app.addEventListener("change", (event) => {
  if (S.meta && builderInput(event.target, S.meta.custom_composer) === true) render();
});
app.addEventListener("input", (event) => {
  if (event.target.dataset.cr === "name" || event.target.dataset.cr === "text") builderInput(event.target, S.meta.custom_composer);
  if (event.target.id === "rule-custom_count" && S.meta) refreshExplanation(app, t, S.meta.custom_composer, Number(event.target.value));
});

function restoreForm() {
  for (const [id, value] of Object.entries(S.form)) {
    const input = document.getElementById(id);
    if (!input || input.readOnly) continue;
    if (input.type === "checkbox") input.checked = value; else input.value = value;
  }
}

app.addEventListener("click", (event) => {
  const target = event.target.closest("button, a[data-action]");
  if (!target) return;
  if (target.dataset.move) { sendMove(target.dataset.move); return; }
  if (target.dataset.card) {
    if (target.getAttribute("aria-disabled") === "true") { toast(whyNot(target.dataset.card)); return; }
    startPlay(target.dataset.card); return;
  }
  if (target.dataset.pick) { pick(target.dataset.pick); return; }
  const action = target.dataset.action;
  if (!action) return;
  if (S.meta && builderAction(target, S.meta.custom_composer)) { render(); return; }
  if (action === "home") { event.preventDefault(); leaveRoom(); return; }
  const game = S.game;
  switch (action) {
    case "lang": loadLanguage(target.dataset.lang).then(render); return;
    case "rules": S.showRules = true; break;
    case "close-rules": S.showRules = false; break;
    case "more-bots": S.bots.push(S.meta.default_bot_level); break;
    case "drop-bot": S.bots.splice(Number(target.dataset.index), 1); break;
    case "watch": S.watching = true; send({ type: "watch", room: S.code }); break;
    case "add-bot": send({ type: "add_bot", level: document.getElementById("bot-level").value }); break;
    case "remove": send({ type: "remove", seat: Number(target.dataset.seat) }); break;
    case "hand-to-bot": send({ type: "hand_to_bot", seat: Number(target.dataset.seat) }); break;
    case "start": send({ type: "start" }); break;
    case "copy":
      navigator.clipboard?.writeText(inviteLink()).then(() => toast(t("web.copied")), () => {});
      document.getElementById("invite")?.select();
      break;
    case "uno": {
      const unoAlone = legalMoves().some((m) => m.kind === "uno");
      if (unoAlone) sendMove("uno"); else S.unoArmed = !S.unoArmed;
      break;
    }
    case "close-dialog": S.dialog = null; break;
    case "close-reveal": S.reveal = null; break;
    case "reopen-challenge": S.dialog = null; break;
    case "next-round": send({ type: "next_round", version: game.version }); break;
    case "rematch": send({ type: "rematch" }); break;
    case "scores": S.showScores = !S.showScores; break;
    case "log": S.showLog = !S.showLog; break;
    case "preset": {
      const chosen = PRESETS[target.dataset.preset] ?? {};
      for (const key of SWITCHES) S.form[`rule-${key}`] = Boolean(chosen[key]);
      break;
    }
    case "mute": setMuted(!muted()); break;
    case "emotes": S.showEmotes = !S.showEmotes; break;
    case "emote": send({ type: "emote", emote: target.dataset.emote }); S.showEmotes = false; break;
    case "sort": localStorage.setItem("uno.sort", sortedHand() ? "dealt" : "sorted"); break;
    case "leave": S.confirmLeave = true; break;
    case "leave-yes": S.confirmLeave = false; leaveRoom(); return;
    case "leave-no": S.confirmLeave = false; break;
    default: break;
  }
  if (action === "scores" && !S.showScores) S.dialog = null;
  render();
});

// Keyboard: Tab stays inside an open dialog; Escape closes it; U says UNO; D draws.
document.addEventListener("keydown", (event) => {
  const dialog = app.querySelector("[role=dialog]");
  if (event.key === "Tab" && dialog) {
    const focusable = [...dialog.querySelectorAll("button, input, select, [tabindex='-1']")];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!dialog.contains(document.activeElement)) { first?.focus(); event.preventDefault(); }
    else if (event.shiftKey && document.activeElement === first) { last.focus(); event.preventDefault(); }
    else if (!event.shiftKey && document.activeElement === last) { first.focus(); event.preventDefault(); }
    return;
  }
  if (event.target.matches("input, select, textarea")) return;
  if (event.key === "Escape") {
    if (S.showRules) S.showRules = false;
    else if (S.confirmLeave) S.confirmLeave = false;
    else if (S.dialog) S.dialog = null;
    else if (S.showScores) S.showScores = false;
    else if (S.reveal) S.reveal = null;
    render();
  } else if ((event.key === "u" || event.key === "U") && S.game?.view) {
    app.querySelector("[data-action=uno]")?.click();
  } else if ((event.key === "d" || event.key === "D") && S.game?.view) {
    if (legalMoves().some((m) => m.kind === "draw")) sendMove("draw");
  }
});

// The scoreboard dialog closes with its cancel button too.
app.addEventListener("click", (event) => {
  if (event.target.closest("[data-action=close-dialog]") && S.showScores) { S.showScores = false; render(); }
});

// ---------------------------------------------------------------- start

// Keep the screen awake during a game, where the browser can (Screen Wake Lock).
let wakeLock = null;
async function keepAwake() {
  const playing = S.game?.view && S.game.status !== "match_over";
  try {
    if (playing && !wakeLock && navigator.wakeLock && document.visibilityState === "visible") {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
    } else if (!playing && wakeLock) { await wakeLock.release(); wakeLock = null; }
  } catch { wakeLock = null; }
}
setInterval(keepAwake, 3000);

async function main() {
  await loadLanguage(pickLanguage());
  S.meta = await (await fetch("/api/meta")).json();
  const match = location.pathname.match(/^\/r\/([A-Za-z0-9]{4,8})$/);
  if (match) S.code = match[1].toUpperCase();
  render();
  connect();
}

main();
