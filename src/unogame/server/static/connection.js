// The WebSocket to the server: reconnects by itself, always back into its seat first
// (resume), and keeps a move tapped while disconnected until the seat is resumed.

import { t } from "./i18n.js";
import { S, changed, tokenKey } from "./state.js";
import { toast } from "./toast.js";

const JOINS = new Set(["create", "join", "watch", "resume"]);
let ws = null;
let retry = 0;
let pendingJoin = null; // a create/join/watch to send once connected
let queuedMove = null; // a move tapped while disconnected: sent after the seat is resumed
let handler = () => {};

export function connect(onMessage = handler) {
  handler = onMessage;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  ws = socket;
  socket.onopen = () => {
    S.wsOpen = true;
    retry = 0;
    // Back into our seat first: a move or a join sent before that would be refused.
    if (S.code && (localStorage.getItem(tokenKey(S.code)) || S.watching)) { pendingJoin = null; enterRoom(S.code); }
    else if (pendingJoin) { send(pendingJoin); pendingJoin = null; }
    changed();
  };
  socket.onmessage = (event) => handler(JSON.parse(event.data));
  socket.onclose = () => {
    if (ws !== socket) return;
    S.wsOpen = false;
    changed();
    const delay = Math.min(5000, 300 * 2 ** retry++);
    setTimeout(() => { if (ws === socket) connect(); }, delay);
  };
}

// A fresh connection (leaving a room): the old one is closed and forgotten.
export function reconnect() {
  if (ws) { const old = ws; ws = null; old.close(); }
  S.wsOpen = false;
  connect();
}

export function send(message) {
  if (ws && S.wsOpen) ws.send(JSON.stringify(message));
  else if (message.type === "move") { queuedMove = message; toast(t("web.toast.move_waits")); }
  else if (JOINS.has(message.type)) pendingJoin = message;
  else toast(t("web.toast.not_connected"));
}

// The move tapped while disconnected goes once the seat is back, if it still means the
// same thing (same position, still legal); otherwise it is dropped, and the player told.
export function flushQueuedMove(message) {
  const queued = queuedMove;
  if (!queued) return;
  queuedMove = null;
  if (message.version === queued.version && (message.legal ?? []).includes(queued.move)) send(queued);
  else toast(t("web.toast.move_dropped"));
}

export function enterRoom(code) {
  const token = localStorage.getItem(tokenKey(code));
  if (token) send({ type: "resume", room: code, token });
  else if (S.watching) send({ type: "watch", room: code });
}

// Reconnect at once when a phone wakes up.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && (!ws || ws.readyState > 1)) connect();
});
