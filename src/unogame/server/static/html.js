// The one way markup is written: html`...` templates. A value put into one is escaped
// unless it is markup made by another html`...` template (or raw(), for this project's
// own card drawings), so text from a person (a name) can never become markup. toNodes()
// is the only place markup becomes elements.

import { PATTERN_DEFS } from "./cards.js";

export class Html {
  constructor(text) { this.text = text; }
}

export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function raw(markup) { return new Html(String(markup)); }

export function piece(value) {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(piece).join("");
  if (value === null || value === undefined || value === false) return "";
  return esc(value);
}

export function html(strings, ...values) {
  let out = strings[0];
  values.forEach((value, i) => { out += piece(value) + strings[i + 1]; });
  return new Html(out);
}

// The elements a piece of html`` markup makes (a template parses without running anything).
export function toNodes(value) {
  const template = document.createElement("template");
  template.innerHTML = piece(value);
  return [...template.content.childNodes];
}

// The card drawings' shared patterns, once at the top of the page.
export function mountPatterns() {
  document.body.prepend(...toNodes(raw(PATTERN_DEFS)));
}
