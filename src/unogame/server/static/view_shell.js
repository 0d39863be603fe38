// The frame of every dialog over the table.

import { html } from "./html.js";
import { t } from "./i18n.js";

// closable: "cancel" for a choice that can be called off, "close" for a dialog that only
// shows something, false for none.
export function dialogShell(title, body, closable = "cancel", extraClass = "") {
  const label = closable === "close" ? t("web.close") : t("web.cancel");
  return html`<div class="overlay"><div class="dialog ${extraClass}" role="dialog" aria-modal="true" aria-labelledby="dialog-title">
    <h2 id="dialog-title">${title}</h2>${body}
    ${closable ? html`<button class="ghost close" data-action="close-dialog">${label}</button>` : ""}</div></div>`;
}
