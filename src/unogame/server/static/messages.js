// The server's messages reduced into the store, with their effects (sounds, lines).

import { flushQueuedMove, moveAnswered, tellVisibility } from "./connection.js";
import { onHint } from "./helper.js";
import { refusalText } from "./custom_rule.js";
import { announce } from "./events.js";
import { has, t } from "./i18n.js";
import { play as playSound, soundFor } from "./sound.js";
import { S, changed, seatName, tokenKey } from "./state.js";
import { onReplay, replayFailed } from "./replay.js";
import { toast } from "./toast.js";
import { mergeUpdate } from "./update.js";
import { warmUp } from "./warmth.js";
import { moveRefusalText, whyText } from "./words.js";

const EMOTES = ["hi", "nice", "wow", "oops", "hurry", "gg"];

export function onMessage(message) {
  switch (message.type) {
    case "joined":
      S.code = message.room;
      S.seat = message.seat;
      if (message.token) localStorage.setItem(tokenKey(message.room), message.token);
      if (location.pathname !== `/r/${message.room}`) history.replaceState(null, "", `/r/${message.room}`);
      S.homeError = null;
      if (document.visibilityState === "hidden") tellVisibility(); // a new connection is visible
      break;
    case "room":
      S.roomInfo = message;
      S.seat = message.you;
      break;
    case "state": {
      // A game (or a rematch) starting under our eyes comes as a whole state: its first
      // card's surprises (a Draw Two turned up...) are announced as any other's.
      const opening = S.game !== null && message.view && (!S.game.view || S.game.status === "match_over");
      moveAnswered(message);
      S.hits = new Set();
      S.game = message;
      setCountdowns(message);
      S.log = message.log.slice();
      S.roundOver = [...S.log].reverse().find((e) => e.type === "round_over") ?? null;
      S.announce = null;
      for (const event of S.log) if (["custom", "play", "pass", "draw"].includes(event.type)) onEvent(event, false);
      S.dialog = null;
      trackChanges(true);
      if (opening) {
        const dealt = S.log.map((event) => event.type).lastIndexOf("deal");
        if (dealt >= 0) announce(S.log.slice(dealt));
      }
      flushQueuedMove(message);
      break;
    }
    case "update": {
      message = mergeUpdate(message, S.game);
      moveAnswered(message);
      S.game = message;
      setCountdowns(message);
      S.hits = new Set();
      warmUp(message.events);  // before the redraw: where the cards start
      announce(message.events);
      const sound = soundFor(message.events, S.seat);
      if (sound) playSound(sound);
      for (const event of message.events) onEvent(event, true);
      S.log.push(...message.events);
      if (S.log.length > 400) S.log.splice(0, S.log.length - 400);
      if (S.dialog?.kind === "play") keepPlayDialog();
      trackChanges(false);
      break;
    }
    case "emote":
      // A reaction from a player: a bubble on their seat for a few seconds and a line.
      if (!EMOTES.includes(message.emote)) return;
      toast(`${seatName(message.seat)}: ${t(`web.emote.${message.emote}`)}`);
      S.bubbles.set(message.seat, t(`web.emote.${message.emote}`));
      setTimeout(() => { S.bubbles.delete(message.seat); changed(); }, 3000);
      break;
    case "why":  // the reason asked for when a card that cannot be played was tapped
      // (none: the position moved on and the card can be played now)
      if (message.refusal) toast(whyText(message.card, message.refusal));
      break;
    case "hint":
      onHint(message);
      break;
    case "replay":
      onReplay(message);
      break;
    case "removed":
      localStorage.removeItem(tokenKey(S.code));
      toast(t("web.toast.removed"));
      break;
    case "error":
      moveAnswered(message);
      onError(message);
      break;
    default:
      break;
  }
  changed();
}

export { EMOTES };

// The turn timer and the scoreboard's countdown: the server says how many seconds are
// left; the page counts down from when it heard so.
function setCountdowns(message) {
  const now = Date.now();
  S.timerEnd = message.timer_left == null ? null : now + message.timer_left * 1000;
  S.nextRoundEnd = message.next_round_left == null ? null : now + message.next_round_left * 1000;
}

function onEvent(event, live) {
  // A Wild Customizable's rule is shown until the next turn starts.
  if (event.type === "play" || event.type === "pass" || (event.type === "draw" && event.reason === "turn")) S.announce = null;
  if (event.type === "custom") S.announce = event;
  if (event.type === "round_over") {
    S.roundOver = event;
    // A short celebration on the winner's own page (heard: the win sound of soundFor).
    if (live && event.winner === S.seat) S.celebrate = { seat: event.winner, match: S.game?.status === "match_over", at: Date.now() };
  }
  if (event.type === "challenge" && event.hand) S.reveal = event;
  // A catch of this player is announced with the penalty it brings (events.js): a toast
  // here would cover the "+2" line.
  if (event.type === "deal") { S.roundOver = null; S.celebrate = null; }
}

// A bot's UNO or catch changes the version while someone picks a colour: the choice
// stays open as long as the same plays are still legal.
function keepPlayDialog() {
  const legal = new Set(S.game.legal);
  const still = S.dialog.variants.filter((m) => legal.has(m.text));
  if (still.length) { S.dialog.variants = still; S.dialog.version = S.game.version; }
  else S.dialog = null;
}

function onError(message) {
  if (message.code === "bad_token") {
    localStorage.removeItem(tokenKey(S.code));
    S.seat = null;
    toast(t("web.error.bad_token"));
    return;
  }
  if (message.code === "room_gone") {  // lost from the server's storage: home, and say so
    if (S.code) localStorage.removeItem(tokenKey(S.code));
    Object.assign(S, { code: null, roomInfo: null, game: null, seat: null, log: [], dialog: null,
      watching: false, roundOver: null, reveal: null, celebrate: null, showScores: false, showLog: false });
    history.replaceState(null, "", "/");
    S.homeError = t("web.error.room_gone");
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
  if (["no_replay", "replay_limited", "replay_busy"].includes(message.code)) replayFailed(message.code);
  if (message.refusal) { toast(moveRefusalText(message.refusal)); return; }
  if (message.code === "bad_rule") {  // the Wild Customizable rule: why, in the reader's language
    S.homeError = refusalText(message.reason, message.fields ?? {}, t);
    toast(S.homeError);
    return;
  }
  // fields: what the words name (a start refused for a family rule: how many players it needs)
  toast(has(`web.error.${message.code}`) ? t(`web.error.${message.code}`, message.fields ?? {}) : message.message);
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
