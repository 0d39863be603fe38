// The engine's events in words: a line for the log, and for every surprise a line spoken
// by the live region and a short shake of the seat it hit — draws ("+4!"), skips,
// reverses, swaps, passed hands, catches, jump-ins, the stack total and the custom card.

import { splitCode } from "./cards.js";
import { cardName, t } from "./i18n.js";
import { S, parseMove, seatName } from "./state.js";
import { toast } from "./toast.js";
import { announcedRule } from "./words.js";

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
    case "uno": return t("web.surprise.uno", { name });
    case "catch":
      S.hits.add(event.target);
      return event.target === S.seat ? t("web.toast.caught", { name }) : t("web.log.catch", { name, target: seatName(event.target) });
    case "custom": {  // the rule in full is said and shown in the banner; the toast is short
      const target = customTarget(event, events);
      const short = target === null || target === undefined ? t("web.surprise.custom", { name })
        : t("web.surprise.custom_on", { name, target: seatName(target) });
      return { text: customText(event, events), short };
    }
    default: return null;
  }
}

export function announce(events) {
  // A move a bot made for this player (the turn timer, or away) is said as such first: its
  // own surprise ("Ann (you) reversed the direction!") would read as their own move.
  const standIn = events.find((event) => event.type === "stand_in_move" && event.seat === S.seat && S.seat !== null);
  const found = [];
  for (const event of events) {
    if (standIn && event.type === "play" && event.seat === S.seat) continue;
    const line = surprise(event, events);
    if (line) found.push(line);
    // UNO said with the card: heard too (the page shouts it over the seat, warmth.js).
    if (event.type === "play" && event.move?.endsWith(" uno")) found.push(t("web.surprise.uno", { name: seatName(event.seat) }));
  }
  if (standIn) found.unshift(standInText(events, standIn));
  const lines = found.map((line) => line.text ?? line);
  // All of them said at once (each may hit this player); shown one short line at a time.
  if (lines.length) toast(lines.join(" · "), true, found.map((line) => line.short ?? line));
}

// "The timer played for you: Red Reverse" (the room has a turn timer and the seat is not
// away), or "A bot played for you while you were away: …".
export function standInText(events, standIn) {
  const seat = standIn.seat;
  const info = S.roomInfo?.seats?.[seat];
  const timer = Boolean(S.roomInfo?.timer) && !info?.away;
  const move = events.slice(events.indexOf(standIn) + 1).find((event) => event.seat === seat
    && ["play", "draw", "pass", "challenge", "accept", "color"].includes(event.type));
  return t(timer ? "web.stand_in.timer" : "web.stand_in.away", { move: standInMove(move) });
}

function standInMove(event) {
  const color = (code) => t(`common.color.${code}`);
  switch (event?.type) {
    case "play": return event.card.startsWith("W") && event.color
      ? t("web.stand_in.played_color", { card: cardName(event.card), color: color(event.color) })
      : cardName(event.card);
    case "draw": return t("web.stand_in.drew");
    case "pass": return t("web.stand_in.kept");
    case "challenge": return t("web.stand_in.challenged");
    case "accept": return t("web.stand_in.accepted");
    case "color": return t("web.stand_in.chose", { color: color(event.color) });
    default: return t("web.stand_in.other");
  }
}

// A Wild Customizable's effect in words (with its number), naming the player it hit.
function customTarget(event, events) {
  const list = events ?? S.log;
  const at = list.indexOf(event);
  const play = [...list.slice(0, at < 0 ? list.length : at)].reverse().find((e) => e.type === "play" && e.seat === event.seat);
  return play ? parseMove(play.move).target : null;
}

export function customText(event, events) {
  const rule = announcedRule(event);
  const target = customTarget(event, events);
  const line = t("common.custom.played", { name: seatName(event.seat), rule });
  return target === null || target === undefined ? line : t("web.log.custom_target", { rule: line, name: seatName(target) });
}

export function logLine(event) {
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
    case "round_capped": return t("web.log.round_capped", { moves: event.moves });
    default: return event.type;
  }
}
