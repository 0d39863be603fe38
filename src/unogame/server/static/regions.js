// A region of the page: drawn by a function of the store into html`` markup, and brought
// up to date only when that markup changed — then by patching the elements in place
// (morph), so that what did not change stays the same element: a card under the finger,
// the focused button, a scrolled list. Children with a data-key are matched by key.

import { piece, raw, toNodes } from "./html.js";

export class Region {
  constructor(name, draw) {
    this.name = name;
    this.draw = draw;
    this.reset();
  }

  reset() {
    this.node = document.createComment(this.name);
    this.markup = "";
  }

  // Returns true when the region changed.
  update() {
    const markup = piece(this.draw()).trim();
    if (markup === this.markup) return false;
    this.markup = markup;
    const fresh = markup ? toNodes(raw(markup)).find((node) => node.nodeType === Node.ELEMENT_NODE) : null;
    this.node = morph(this.node, fresh ?? document.createComment(this.name));
    return true;
  }
}

// Makes `old` look like `fresh`, keeping every element that can stay; returns the node
// now in the page.
export function morph(old, fresh) {
  if (old.nodeType !== fresh.nodeType || old.nodeName !== fresh.nodeName) {
    old.replaceWith(fresh);
    return fresh;
  }
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
    return old;
  }
  for (const { name } of [...old.attributes]) if (!fresh.hasAttribute(name)) old.removeAttribute(name);
  for (const { name, value } of [...fresh.attributes]) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  morphChildren(old, fresh);
  return old;
}

function keyOf(node) {
  return node.nodeType === Node.ELEMENT_NODE ? node.getAttribute("data-key") : null;
}

function morphChildren(old, fresh) {
  const keyed = new Map();
  for (const child of old.children) if (keyOf(child) !== null) keyed.set(keyOf(child), child);
  let cursor = old.firstChild;
  for (const node of [...fresh.childNodes]) {
    const key = keyOf(node);
    let match = null;
    if (key !== null) {
      match = keyed.get(key) ?? null;
      keyed.delete(key);
    } else if (cursor && keyOf(cursor) === null) match = cursor;
    if (!match) { old.insertBefore(node, cursor); continue; }
    if (match === cursor) cursor = cursor.nextSibling;
    else old.insertBefore(match, cursor);
    morph(match, node);
  }
  while (cursor) {
    const next = cursor.nextSibling;
    cursor.remove();
    cursor = next;
  }
}
