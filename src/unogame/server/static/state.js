// The page's one store: what the server said (reduced into it by messages.js) and what
// this page shows (dialogs, toggles). Whoever changes it calls changed(); the page is then
// brought up to date once (view.js redraws only the regions whose part of it changed).

import { t } from "./i18n.js";

export const S = {
  meta: null,
  wsOpen: false,
  linkQuiet: false, // the link is open but the server has not answered a ping for seconds
  code: null, // the room we are in (or want to enter)
  seat: null,
  roomInfo: null,
  game: null, // the latest state or update message
  log: [],
  dialog: null, // a play being chosen step by step: {kind: "play", variants, step}
  unoArmed: false,
  roundOver: null, // the last round_over event
  reveal: null, // a challenged hand shown to us
  announce: null, // the last Wild Customizable's custom event, until the next turn
  hits: new Set(), // seats a surprise just hit (a short shake)
  bubbles: new Map(), // seat -> a reaction shown on that seat for a few seconds
  prevHand: [],
  prevTop: null,
  newCards: new Map(), // card code -> how many of it just arrived
  topChanged: false,
  celebrate: null, // a round or match just won: {seat, match}
  timerEnd: null,
  nextRoundEnd: null,
  showLog: false,
  showScores: false,
  showRules: false,
  showEmotes: false,
  confirmLeave: false,
  rulesOpen: false,
  homeError: null,
  bots: [],
  form: {},
  watching: false,
  hint: null, // the helper's last hint: {version, move} (helper.js)
  replay: null, // a round being replayed: {gameNo, round, seat, steps, index} (replay.js)
};

const listeners = [];
let scheduled = false;

export function onChange(listener) { listeners.push(listener); }

// Redraw once, after everything that changes the store in this task has.
export function changed() {
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    for (const listener of listeners) listener();
  });
}

export function tokenKey(code) { return `uno.token.${code}`; }

const BOT_MARK = "🤖 ";

// A bot is known by its seat's kind (from the server), never by its name: a bot's name
// carries the bot mark, and the server refuses people's names that read as a bot's.
export function displayName(info) {
  if (info.kind !== "bot") {  // a blank name the server numbered: in the reader's language
    const player = /^Player ([0-9]+)$/.exec(info.name);
    return player ? t("web.player_n", { number: player[1] }) : info.name;
  }
  const numbered = /^Bot ([0-9]+)$/.exec(info.name);
  return BOT_MARK + (numbered ? t("web.bot_n", { number: numbered[1] }) : info.name);
}

export function seatName(seat) {
  const info = S.roomInfo?.seats?.[seat];
  const name = info ? displayName(info) : `#${seat}`;
  return seat === S.seat ? t("web.you_name", { name }) : name;
}

// A room code read out in two groups of four; typed with or without the space.
export function spacedCode(code) {
  return code.length === 8 ? `${code.slice(0, 4)} ${code.slice(4)}` : code;
}

export function typedCode(text) {
  return text.toUpperCase().replace(/[\s-]/g, "");
}

export function parseMove(text) {
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

export function legalMoves() {
  return (S.game?.legal ?? []).map(parseMove);
}

export function myTurn() {
  return Boolean(S.game?.view && S.seat !== null && S.game.view.turn === S.seat);
}

export function pressedNext() {
  return S.seat !== null && (S.game?.ready ?? []).includes(S.seat);
}

export function secondsLeft(end) {
  return end == null ? null : Math.max(0, Math.ceil((end - Date.now()) / 1000));
}

export function sortedHand() { return localStorage.getItem("uno.sort") !== "dealt"; }

// Which screen the store shows: home, join (a room's link), lobby or game.
export function screenOf() {
  if (!S.code || (!S.roomInfo && !S.game)) return S.code ? "join" : "home";
  if (S.roomInfo?.status === "lobby" || !S.game?.view) return "lobby";
  return "game";
}
