// The room's rules and the engine's refusals in the reader's language.

import { describeRule } from "./custom_rule.js";
import { helperOn, refusalKey, simpleParams } from "./helper.js";
import { cardName, has, t } from "./i18n.js";
import { S, seatName } from "./state.js";

export function ruleText(key, value) {
  if (key === "custom_rule") return `${t("common.rule.custom_rule")}: ${customRuleText()}`;
  if (typeof value === "boolean") return `${t(`common.rule.${key}`)}${value ? "" : ` (${t("web.off")})`}`;
  return `${t(`common.rule.${key}`)}: ${value}`;
}

// The room's Wild Customizable rule in words: a preset's explanation, or a family's rule
// by its name, explanation and text (the name and text are a person's: escaped as text).
export function customRuleText() {
  const rules = S.roomInfo?.rules ?? {};
  const rule = rules.custom_rule ?? "none";
  const explained = describeRule(rule, t, S.meta?.custom_composer, rules.custom_count ?? 2);
  if (typeof rule === "string") return explained;
  return `${rule.name}: ${explained}${rule.text ? ` — “${rule.text}”` : ""}`;
}

// A Wild Customizable's announcement (the custom event) in words.
export function announcedRule(event) {
  if (!event.name) return describeRule(event.rule, t, S.meta?.custom_composer, S.roomInfo?.rules?.custom_count ?? 2);
  const explained = describeRule({ steps: event.steps }, t, S.meta?.custom_composer);
  return `${event.name}: ${explained}${event.text ? ` — “${event.text}”` : ""}`;
}

// What the seat chosen for a Wild Customizable is for under the room's rule.
export function customSeatPurpose() {
  const rule = S.roomInfo?.rules?.custom_rule;
  if (!rule || typeof rule === "string") return S.meta?.seat_purpose?.WC;
  const chosen = new Set(rule.steps.filter((step) => step.who === "chosen").map((step) => step.what));
  return chosen.size === 1 && chosen.has("swap") ? "swap" : "chosen";
}

// The house rules switched on in this room, each with a line saying what it does.
export function activeRules() {
  const rules = S.roomInfo?.rules ?? {};
  const lines = [];
  for (const [key, value] of Object.entries(rules)) {
    if (value === true && has(`web.rule_help.${key}`)) lines.push([ruleText(key, value), t(`web.rule_help.${key}`)]);
  }
  if (rules.custom_rule && rules.custom_rule !== "none") lines.push([t("common.rule.custom_rule"), customRuleText()]);
  if (S.roomInfo?.family) {  // kind to children: bots wait before catching (a room setting)
    const seconds = S.roomInfo.catch_grace;
    lines.push([t("web.family_short"), t("web.family_kind_help", { seconds })]);
  }
  return lines;
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

// In the player's words, never ending in the rule's number ("(R4.2)" means nothing to a
// family); with the children's helper on, in simple words.
export function moveRefusalText(reason) {
  const key = refusalKey(reason.code);
  if (!has(key)) return reason.text;
  const params = simpleParams(reason, Object.fromEntries(Object.entries(reason.params ?? {}).map(([k, v]) => [k, refusalParam(k, v)])));
  return t(key, params);
}

// Why a card cannot be played, as the server answers when it is tapped (the engine's code,
// rule and parameters, without its English text and without the card): worded from the
// page's own tables; no reason (or none the page can word): "cannot be played".
export function whyText(card, reason) {
  if (!reason || !has(refusalKey(reason.code))) return t("web.not_playable", { card: cardName(card) });
  return moveRefusalText({ ...reason, params: { card, ...reason.params } });
}
