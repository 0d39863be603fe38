// What a tap, a form or a key does: moves go to the server (connection.js), everything
// else changes the store and the page is redrawn.

import { connected, enterRoom, reconnect, send } from "./connection.js";
import { builderAction, builderInput, chosenRule, refreshExplanation } from "./custom_rule.js";
import { helperAction } from "./helper.js";
import { loadLanguage, t } from "./i18n.js";
import { PRESETS, PRESET_ROOM, SWITCHES } from "./presets.js";
import { replayAction, replayOpen } from "./replay.js";
import { muted, setMuted } from "./sound.js";
import { S, changed, legalMoves, sortedHand, tokenKey, typedCode } from "./state.js";
import { toast } from "./toast.js";
import { inviteLink } from "./view_lobby.js";
import { whyText } from "./words.js";

const app = document.getElementById("app");

// A card that cannot be played was tapped: the server says why (messages.js words it);
// without a link, the page says only that it cannot be played.
function whyNot(card) {
  if (connected()) send({ type: "why", card });
  else toast(whyText(card, null));
}

function sendMove(move) {
  if (!S.game) return;
  send({ type: "move", move, version: S.game.version });
  S.dialog = null;
  changed();
}

function startPlay(card) {
  const legal = legalMoves().filter((m) => m.kind === "play" && m.card === card);
  if (!legal.length) { whyNot(card); return; }
  const wantUno = S.unoArmed && legal.some((m) => m.uno);
  const variants = legal.filter((m) => m.uno === wantUno);
  S.unoArmed = false;
  advancePlay({ kind: "play", card, variants, version: S.game.version });
}

function advancePlay(dialog) {
  const variants = dialog.variants;
  if (variants.length === 1) { sendMove(variants[0].text); return; }
  const distinct = (field) => new Set(variants.map((m) => m[field])).size > 1;
  dialog.step = distinct("color") ? "color" : distinct("arg") ? "arg" : distinct("target") ? "target"
    : distinct("gift") ? "gift" : null;
  if (dialog.step === null) { sendMove(variants[0].text); return; }
  S.dialog = dialog;
  changed();
}

function pick(value) {
  if (S.game?.view?.pending?.kind === "color" && !S.dialog) { sendMove(value); return; }
  const dialog = S.dialog;
  if (!dialog) return;
  const [field, chosenText] = value.split(":");
  const chosen = field === "target" ? Number(chosenText) : chosenText;
  dialog.variants = dialog.variants.filter((m) => m[field] === chosen);
  advancePlay(dialog);
}

function collectSettings() {
  const rules = {};
  for (const [key, value] of Object.entries(S.meta.rules)) {
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
    family: Boolean(document.getElementById("family-kind")?.checked),
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
  Object.assign(S, { code: null, roomInfo: null, game: null, seat: null, log: [], dialog: null, watching: false,
    roundOver: null, reveal: null, celebrate: null, showScores: false, showLog: false });
  history.replaceState(null, "", "/");
  reconnect();
  changed();
}

app.addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target.dataset.form;
  if (form === "create") {
    send({ type: "create", name: playerName(), settings: collectSettings(), bots: S.bots });
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

// The create form keeps what was typed across redraws (adding a bot redraws it).
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
  if (S.meta && builderInput(event.target, S.meta.custom_composer) === true) changed();
});
app.addEventListener("input", (event) => {
  if (event.target.dataset.cr === "name" || event.target.dataset.cr === "text") builderInput(event.target, S.meta.custom_composer);
  if (event.target.id === "rule-custom_count" && S.meta) refreshExplanation(app, t, S.meta.custom_composer, Number(event.target.value));
});

const SIMPLE = {
  rules: () => { S.showRules = true; },
  "close-rules": () => { S.showRules = false; },
  "more-bots": () => { S.bots.push(S.meta.default_bot_level); },
  "drop-bot": (target) => { S.bots.splice(Number(target.dataset.index), 1); },
  watch: () => { S.watching = true; send({ type: "watch", room: S.code }); },
  "add-bot": () => send({ type: "add_bot", level: document.getElementById("bot-level").value }),
  remove: (target) => send({ type: "remove", seat: Number(target.dataset.seat) }),
  unban: () => send({ type: "unban" }),
  "hand-to-bot": (target) => send({ type: "hand_to_bot", seat: Number(target.dataset.seat) }),
  start: () => send({ type: "start" }),
  copy: () => {
    navigator.clipboard?.writeText(inviteLink()).then(() => toast(t("web.copied")), () => {});
    document.getElementById("invite")?.select();
  },
  uno: () => {
    if (legalMoves().some((m) => m.kind === "uno")) sendMove("uno"); else S.unoArmed = !S.unoArmed;
  },
  // The scoreboard dialog closes with its button too.
  "close-dialog": () => { S.dialog = null; S.showScores = false; },
  "close-reveal": () => { S.reveal = null; },
  "reopen-challenge": () => { S.dialog = null; },
  "next-round": () => send({ type: "next_round", version: S.game.version }),
  rematch: () => send({ type: "rematch" }),
  scores: () => { S.showScores = !S.showScores; if (!S.showScores) S.dialog = null; },
  log: () => { S.showLog = !S.showLog; },
  preset: (target) => {
    const chosen = PRESETS[target.dataset.preset] ?? {};
    for (const key of SWITCHES) S.form[`rule-${key}`] = Boolean(chosen[key]);
    const room = PRESET_ROOM[target.dataset.preset] ?? {};
    S.form["family-kind"] = Boolean(room.family);
    S.form.fill = room.fill ?? S.meta.default_bot_level;
  },
  mute: () => setMuted(!muted()),
  emotes: () => { S.showEmotes = !S.showEmotes; },
  emote: (target) => { send({ type: "emote", emote: target.dataset.emote }); S.showEmotes = false; },
  sort: () => localStorage.setItem("uno.sort", sortedHand() ? "dealt" : "sorted"),
  leave: () => { S.confirmLeave = true; },
  "leave-no": () => { S.confirmLeave = false; },
};

app.addEventListener("click", (event) => {
  const target = event.target.closest("button, a[data-action]");
  if (!target) return;
  if (target.dataset.move) { sendMove(target.dataset.move); return; }
  if (target.dataset.card) {
    if (target.getAttribute("aria-disabled") === "true") { whyNot(target.dataset.card); return; }
    startPlay(target.dataset.card); return;
  }
  if (target.dataset.pick) { pick(target.dataset.pick); return; }
  const action = target.dataset.action;
  if (!action) return;
  if (S.meta && builderAction(target, S.meta.custom_composer)) { changed(); return; }
  if (action === "home") { event.preventDefault(); leaveRoom(); return; }
  if (action === "leave-yes") { S.confirmLeave = false; leaveRoom(); return; }
  if (action === "lang") { loadLanguage(target.dataset.lang).then(changed); return; }
  if (helperAction(action) || replayAction(target)) { changed(); return; }
  SIMPLE[action]?.(target);
  changed();
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
    if (replayOpen()) replayAction({ dataset: { action: "replay-close" } });
    else if (S.showRules) S.showRules = false;
    else if (S.confirmLeave) S.confirmLeave = false;
    else if (S.dialog) S.dialog = null;
    else if (S.showScores) S.showScores = false;
    else if (S.reveal) S.reveal = null;
    changed();
  } else if ((event.key === "u" || event.key === "U") && S.game?.view) {
    app.querySelector("[data-action=uno]")?.click();
  } else if ((event.key === "d" || event.key === "D") && S.game?.view) {
    if (legalMoves().some((m) => m.kind === "draw")) sendMove("draw");
  }
});
