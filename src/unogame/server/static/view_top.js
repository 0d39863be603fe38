// The top bar: home, the room's code, the connection, sound, rules and language.

import { html } from "./html.js";
import { lang, t } from "./i18n.js";
import { muted } from "./sound.js";
import { S, spacedCode } from "./state.js";

const ICONS = {
  cw: "M12 4a8 8 0 1 1-7.5 5.2M4 4v5h5",
  ccw: "M12 4a8 8 0 1 0 7.5 5.2M20 4v5h-5",
  sound: "M4 9h4l5-4v14l-5-4H4zM16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11",
  mute: "M4 9h4l5-4v14l-5-4H4zM16 9l5 6M21 9l-5 6",
};

export function icon(name, size = 22) {
  return html`<svg viewBox="0 0 24 24" width="${size}" height="${size}" aria-hidden="true"><path d="${ICONS[name]}"
    fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
}

export function topBar() {
  const other = lang() === "th" ? "en" : "th";
  const connection = S.code && (!S.wsOpen || S.linkQuiet) ? html`<span class="offline" role="status">${t("web.reconnecting")}</span>` : "";
  return html`<header class="topbar">
    <a class="logo" href="/" data-action="home" aria-label="UNO: ${t("web.home")}">UNO</a>
    ${S.code ? html`<span class="room-chip" aria-label="${t("web.room_code")}">${spacedCode(S.code)}</span>` : ""}
    ${connection}
    <span class="spacer"></span>
    ${S.code ? html`<button class="ghost sound-toggle" data-action="mute" data-focus="mute" aria-pressed="${String(muted())}"
      aria-label="${muted() ? t("web.sound_off") : t("web.sound_on")}">${icon(muted() ? "mute" : "sound")}</button>` : ""}
    <button class="ghost" data-action="rules" data-focus="rules">${t("web.rules")}</button>
    <button class="ghost lang" data-action="lang" data-lang="${other}" data-focus="lang"
      aria-label="${other === "th" ? "ไทย" : "English"}: ${t("web.switch_language")}">${other === "th" ? "ไทย" : "English"}</button>
  </header>`;
}
