// The page's language: the strings the server gives for it (/api/i18n/LANG) and t().

import { splitCode } from "./cards.js";

const current = { lang: "en", strings: {} };

export function lang() { return current.lang; }

export function has(key) { return key in current.strings; }

export function t(key, fields = {}) {
  let text = current.strings[key] ?? key;
  for (const [name, value] of Object.entries(fields)) text = text.replaceAll(`{${name}}`, value);
  return text;
}

/** A bot level's label; a level the operator named (uno serve --bot-level) by its name. */
export function levelName(level) {
  return current.strings[`common.level.${level}`] ?? level;
}

export function cardName(code) {
  const { color, rank } = splitCode(code);
  if (color === null) return t(`common.card.${rank}`);
  const colorName = t(`common.color.${color}`);
  if (/^[0-9]$/.test(rank)) return t("common.card.number", { color: colorName, number: rank });
  return t(`common.card.${rank}`, { color: colorName });
}

export async function loadLanguage(name) {
  const response = await fetch(`/api/i18n/${name}`);
  current.strings = await response.json();
  current.lang = name;
  document.documentElement.lang = name;
  localStorage.setItem("uno.lang", name);
  document.title = t("web.title");
}

export function pickLanguage() {
  const saved = localStorage.getItem("uno.lang");
  if (saved === "en" || saved === "th") return saved;
  const wanted = (navigator.languages || [navigator.language || "en"]).map((l) => l.toLowerCase());
  return wanted.some((l) => l.startsWith("th")) ? "th" : "en";
}
