// The WebSocket to the server: reconnects by itself, always back into its seat first
// (resume), and keeps a move tapped while disconnected until the seat is resumed.
//
// A heartbeat finds a dead link within seconds (a phone's Wi-Fi that holds every packet
// never closes anything): a ping every BEAT_MS; one unanswered for QUIET_MS shows
// "Reconnecting…", for SILENT_MS the socket is given up without waiting for it to close,
// and a new one is opened. A move sent but not answered when the link went is sent again
// once the seat is back, on the version it was made on: the server applies it once or
// answers stale, never twice (and the state says if it was applied before the link went).
// The server hears when the page is hidden (a phone in the background) and visible again.

import { t } from "./i18n.js";
import { S, changed, tokenKey } from "./state.js";
import { toast } from "./toast.js";

const JOINS = new Set(["create", "join", "watch", "resume"]);
const BEAT_MS = 2000; // a ping this often (the server takes 15 s of silence for a dead link)
const TICK_MS = 500;
const QUIET_MS = 2500; // a ping unanswered this long: "Reconnecting…"
const SILENT_MS = 6000; // ... this long: the link is dead, a new connection is opened
const OPEN_MS = 5000; // a connection that has not opened by then is tried again
const MOVE_REFUSALS = new Set(["stale", "illegal", "not_seated", "not_started", "bad_move",
  "not_saved", "rate_limited", "too_large", "no_room"]);
let ws = null;
let retry = 0;
let pendingJoin = null; // a create/join/watch to send once connected
let queuedMove = null; // a move to send after the seat is resumed
let sentMove = null; // a move sent and not answered yet
let pingAt = null; // when the ping waiting for its answer was sent (null: none waits)
let lastPing = 0;
let handler = () => {};

export function connect(onMessage = handler) {
  handler = onMessage;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  ws = socket;
  pingAt = null;
  const opening = setTimeout(() => {
    if (ws === socket && socket.readyState === WebSocket.CONNECTING) giveUp(socket);
  }, OPEN_MS);
  socket.onopen = () => {
    clearTimeout(opening);
    S.wsOpen = true;
    S.linkQuiet = false;
    retry = 0;
    ping(socket);
    // Back into our seat first: a move or a join sent before that would be refused.
    if (S.code && (localStorage.getItem(tokenKey(S.code)) || S.watching)) { pendingJoin = null; enterRoom(S.code); }
    else if (pendingJoin) { send(pendingJoin); pendingJoin = null; }
    changed();
  };
  socket.onmessage = (event) => {
    if (ws !== socket) return;
    pingAt = null; // anything heard: the link lives
    if (S.linkQuiet) { S.linkQuiet = false; changed(); }
    const message = JSON.parse(event.data);
    if (message.type !== "pong") handler(message);
  };
  socket.onclose = () => { clearTimeout(opening); lost(socket); };
}

// The link went (closed, or given up): a move in flight waits for the seat's return.
function lost(socket) {
  if (ws !== socket) return;
  S.wsOpen = false;
  S.linkQuiet = false;
  pingAt = null;
  if (sentMove && !queuedMove) { queuedMove = sentMove; toast(t("web.toast.move_waits")); }
  sentMove = null;
  changed();
  const delay = Math.min(5000, 300 * 2 ** retry++);
  setTimeout(() => { if (ws === socket) connect(); }, delay);
}

// A silent link is not waited for: a held connection may take minutes to say it closed.
function giveUp(socket) {
  socket.onopen = socket.onmessage = socket.onclose = null;
  try { socket.close(); } catch { /* closing a dead socket may throw: it is dropped anyway */ }
  lost(socket);
}

function ping(socket) {
  pingAt = lastPing = Date.now();
  socket.send(JSON.stringify({ type: "ping", beat: true }));
}

function beat() {
  const socket = ws;
  if (!socket || !S.wsOpen || socket.readyState !== WebSocket.OPEN) return;
  // A hidden page's timers are slowed or frozen by the browser: it judges the link again
  // once it is visible (the server's own pings watch it meanwhile).
  if (document.visibilityState === "hidden") return;
  const now = Date.now();
  if (pingAt === null) {
    if (now - lastPing >= BEAT_MS) ping(socket);
  } else if (now - pingAt > SILENT_MS) giveUp(socket);
  else if (now - pingAt > QUIET_MS && !S.linkQuiet) { S.linkQuiet = true; changed(); }
}
setInterval(beat, TICK_MS);

// A fresh connection (leaving a room): the old one is closed and forgotten.
export function reconnect() {
  if (ws) { const old = ws; ws = null; old.close(); }
  S.wsOpen = false;
  queuedMove = sentMove = null;
  connect();
}

export function connected() {
  return Boolean(ws && S.wsOpen && ws.readyState === WebSocket.OPEN);
}

export function send(message) {
  if (ws && S.wsOpen && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify(message));
    if (message.type === "move") sentMove = message;
  } else if (message.type === "move") { queuedMove = message; toast(t("web.toast.move_waits")); }
  else if (JOINS.has(message.type)) pendingJoin = message;
  else toast(t("web.toast.not_connected"));
}

// The server's answer to a move sent: a position after it, or a refusal.
export function moveAnswered(message) {
  if (!sentMove) return;
  if (message.type === "error" ? MOVE_REFUSALS.has(message.code) : message.version > sentMove.version) sentMove = null;
}

// The move tapped while disconnected (or sent as the link went) goes once the seat is back,
// if it still means the same thing (same position, still legal). If the server had it
// already, nothing is sent; if the game moved on, it is dropped and the player told.
export function flushQueuedMove(message) {
  const queued = queuedMove;
  if (!queued) return;
  queuedMove = null;
  const last = message.last_move;
  if (last && last.version === queued.version && last.move === queued.move) return;
  if (message.version === queued.version && (message.legal ?? []).includes(queued.move)) send(queued);
  else toast(t("web.toast.move_dropped"));
}

// The server is told whether this page is hidden (a phone in the background): on its turn,
// a hidden page counts as away (a bot may stand in after the grace).
export function tellVisibility() {
  if (ws && S.wsOpen && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify({ type: "visibility", hidden: document.visibilityState === "hidden" }));
  }
}

export function enterRoom(code) {
  const token = localStorage.getItem(tokenKey(code));
  if (token) send({ type: "resume", room: code, token });
  else if (S.watching) send({ type: "watch", room: code });
}

document.addEventListener("visibilitychange", () => {
  const visible = document.visibilityState === "visible";
  if (ws && S.wsOpen && ws.readyState === WebSocket.OPEN) {
    tellVisibility();
    if (visible) ping(ws); // back from the background: is the link still there?
  } else if (visible && (!ws || ws.readyState > 1)) connect(); // reconnect at once on waking
});
