// The dialogs over the table: choosing a colour, a player or a card to give; a Wild Draw
// Four's challenge and the hand it reveals; leaving; the rules. overlay() picks the one
// to show (at most one, besides the rules).

import { cardSVG as cardMarkup, colorBadge as badgeMarkup } from "./cards.js";
import { html, raw } from "./html.js";
import { cardName, t } from "./i18n.js";
import { S, legalMoves, myTurn, pressedNext, seatName } from "./state.js";
import { replayDialog, replayOpen } from "./replay.js";
import { roundDialog, scoresDialog } from "./view_scores.js";
import { dialogShell } from "./view_shell.js";
import { mySeat } from "./view_table.js";
import { activeRules, customRuleText, customSeatPurpose } from "./words.js";

const COLORS = ["R", "Y", "G", "B"];
const cardSVG = (code) => raw(cardMarkup(code));

function colorDialog(options, titleKey) {
  const buttons = COLORS.filter((c) => options.some((o) => o.color === c)).map((c) => {
    const option = options.find((o) => o.color === c);
    return html`<button class="color-choice c-${c}" data-pick="${option.text ?? c}" data-color="${c}">
      ${raw(badgeMarkup(c, 34))}<span>${t(`common.color.${c}`)}</span></button>`;
  });
  return dialogShell(t(titleKey), html`<div class="color-grid">${buttons}</div>`, titleKey !== "web.choose_first_color", "color-dialog");
}

// Choosing a play step by step: colour, then discard colour, then seat, then a card.
function playDialog(dialog) {
  const variants = dialog.variants;
  const pick = (field) => [...new Set(variants.map((m) => m[field]))];
  if (dialog.step === "color") return colorDialog(pick("color").map((c) => ({ color: c, text: `color:${c}` })), "web.choose_color");
  if (dialog.step === "arg") return colorDialog(pick("arg").map((c) => ({ color: c, text: `arg:${c}` })), "web.choose_discard_color");
  if (dialog.step === "target") {
    const buttons = pick("target").map((seat) => {
      const count = S.game.view.hands[seat];
      return html`<button class="seat-choice" data-pick="target:${seat}">${seatName(seat)}
        <span class="muted">${t("web.cards_n", { count: Array.isArray(count) ? count.length : count })}</span></button>`;
    });
    const purpose = dialog.card === "WC" ? customSeatPurpose() : S.meta?.seat_purpose?.[dialog.card];
    // The custom card's dialog says what its rule does to the player chosen.
    const title = purpose === "swap" ? t("web.choose_swap") : dialog.card === "WC" ? t("web.choose_custom_target")
      : purpose === "draw" ? t("web.choose_draw_target") : t("web.choose_player");
    const why = dialog.card === "WC" ? html`<p class="target-purpose" data-testid="target-purpose">${customRuleText()}</p>` : "";
    return dialogShell(title, html`${why}<div class="seat-grid">${buttons}</div>`);
  }
  if (dialog.step === "gift") {
    const buttons = pick("gift").map((code) => html`<button class="card small gift-choice" data-pick="gift:${code}"
      aria-label="${cardName(code)}">${cardSVG(code)}</button>`);
    return dialogShell(t("web.choose_gift"), html`<div class="gift-grid">${buttons}</div>`);
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
  const cards = event.hand.map((code) => html`<li class="card small"><span role="img" aria-label="${cardName(code)}">${cardSVG(code)}</span></li>`);
  return dialogShell(t("web.reveal_title", { name: seatName(event.by) }),
    html`<p>${event.guilty ? t("web.reveal_guilty", { name: seatName(event.by) }) : t("web.reveal_innocent", { name: seatName(event.by) })}</p>
     <ul class="reveal-hand">${cards}</ul>
     <button class="primary" data-action="close-reveal" autofocus>${t("web.ok")}</button>`, false);
}

function leaveDialog() {
  return dialogShell(t("web.leave_title"), html`<p>${t("web.leave_text")}</p>
    <div class="row center"><button class="primary" data-action="leave-no" autofocus>${t("web.stay")}</button>
    <button data-action="leave-yes">${t("web.leave")}</button></div>`, false, "leave-dialog");
}

// The one dialog the table shows now, if any.
export function overlay() {
  const game = S.game;
  const view = game.view;
  const me = mySeat(view);
  const legal = legalMoves();
  if (S.confirmLeave) return leaveDialog();
  if (replayOpen()) return replayDialog();
  if (S.dialog) return playDialog(S.dialog);
  if (S.reveal) return revealDialog();
  if (me !== null && view.pending?.kind === "color" && myTurn()) {
    return colorDialog(legal.filter((m) => m.kind === "color").map((m) => ({ color: m.color, text: m.text })), "web.choose_first_color");
  }
  if (me !== null && view.pending?.kind === "challenge" && myTurn()) return challengeDialog(view, legal);
  if (game.status === "match_over" || (game.status === "round_over" && !pressedNext())) return roundDialog();
  if (S.showScores) return scoresDialog();
  return "";
}

function activeRulesView() {
  const lines = activeRules();
  if (!S.roomInfo) return "";
  return html`<h3>${t("web.rules_here")}</h3>${lines.length
    ? html`<ul class="active-rules">${lines.map(([name, help]) => html`<li><strong>${name}</strong>: ${help}</li>`)}</ul>`
    : html`<p>${t("web.rules_classic")}</p>`}`;
}

export function rulesDialog() {
  if (!S.showRules) return "";
  const sections = ["goal", "turn", "actions", "wild", "uno", "scoring", "house"];
  const body = [activeRulesView(), sections.map((name) => html`<h3>${t(`rules.${name}.title`)}</h3><p>${t(`rules.${name}.text`)}</p>`),
    html`<h3>${t("web.keys.title")}</h3><p data-testid="keys-help">${t("web.keys.text")}</p>`];
  return html`<div class="overlay rules-overlay"><div class="dialog rules" role="dialog" aria-modal="true" aria-labelledby="rules-title">
    <h2 id="rules-title" tabindex="-1" autofocus>${t("rules.title")}</h2>${body}
    <button class="primary" data-action="close-rules">${t("web.close")}</button></div></div>`;
}
