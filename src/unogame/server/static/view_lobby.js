// The lobby: the room's code, invite link and QR code; the seats and the host's controls.

import { helperToggle } from "./helper.js";
import { html } from "./html.js";
import { levelName, t } from "./i18n.js";
import { S, displayName, spacedCode } from "./state.js";
import { ruleText } from "./words.js";

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

export function inviteLink() {
  // Opened on the server's own machine: give phones the network address instead.
  const local = LOOPBACK.includes(location.hostname);
  const base = local && S.meta?.lan_url ? S.meta.lan_url : location.origin;
  return `${base}/r/${S.code}`;
}

// A link to this computer itself (127.0.0.1): no phone can open it.
function linkIsLocalOnly(link) {
  return LOOPBACK.includes(new URL(link).hostname);
}

// Why the QR code is missing: the server listens on this computer only (restart it with
// --lan), or on every network while this computer is on none.
function unreachable() {
  if (S.meta?.lan_problem === "no_network") return html`<p class="local-only" role="note">${t("web.lan_none")}</p>`;
  const port = location.port && location.port !== "8000" ? ` --port ${location.port}` : "";
  return html`<p class="local-only" role="note">${t("web.local_only")}
          <code>uno serve --lan${port}</code></p>`;
}

export function sharePanel() {
  const info = S.roomInfo;
  if (!info) return html`<p>${t("web.loading")}</p>`;
  const link = inviteLink();
  return html`<section class="panel share">
      <h1>${(info.name)}</h1>
      <p class="code-label">${t("web.room_code")}</p>
      <div class="big-code" data-testid="room-code">${spacedCode(info.room)}</div>
      ${linkIsLocalOnly(link) ? unreachable()
        : html`<img class="qr" src="/api/qr.svg?data=${encodeURIComponent(link)}" alt="${t("web.qr_alt")}" width="164" height="164">`}
      <div class="row link-row"><input readonly value="${(link)}" aria-label="${t("web.invite_link")}" id="invite">
        <button data-action="copy" class="small">${t("web.copy")}</button></div>
    </section>`;
}

export function seatsPanel() {
  const info = S.roomInfo;
  if (!info) return "";
  const host = S.seat === info.host;
  const seats = info.seats.map((seat, i) => html`<li class="seat-row" data-key="seat-${i}">
      <span class="dot ${seat.connected ? "on" : ""}" aria-hidden="true"></span>
      <span class="seat-name">${(displayName(seat))}${i === S.seat ? html` <em>(${t("web.you")})</em>` : ""}${i === info.host ? html` <span class="tag">${t("web.host")}</span>` : ""}</span>
      ${seat.kind === "bot" ? html`<span class="tag bot">${t("web.bot")} · ${levelName(seat.level)}</span>` : ""}
      ${host && i !== info.host ? html`<button class="ghost small" data-action="remove" data-seat="${i}" aria-label="${t("web.remove_named", { name: (displayName(seat)) })}">✕</button>` : ""}
    </li>`);
  const free = info.capacity - info.seats.length;
  const empty = Array.from({ length: free }, () => html`<li class="seat-row empty">${t("web.empty_seat")}</li>`);
  const chosen = info.family ? "easy" : S.meta?.default_bot_level;  // a family room: easy bots
  const levels = (S.meta?.bot_levels ?? []).map((level) =>
    html`<option value="${level}" ${level === chosen ? "selected" : ""}>${levelName(level)}</option>`);
  const rules = Object.entries(info.rules);
  return html`<section class="panel">
      <h2>${t("web.players", { count: info.seats.length, capacity: info.capacity })}</h2>
      <ul class="seats">${seats}${empty}</ul>${helperToggle()}
      ${info.spectators ? html`<p class="muted">${t("web.spectators", { count: info.spectators })}</p>` : ""}
      ${rules.length ? html`<p class="muted">${t("web.house_rules")}: ${rules.map(([k, v]) => ruleText(k, v)).join(" · ")}</p>` : ""}
      ${info.family ? html`<p class="family-note" data-testid="family-note">${t("web.family_kind", { seconds: info.catch_grace })}</p>` : ""}
      <p class="muted">${info.fill ? t("web.lobby_fill", { level: levelName(info.fill) }) : t("web.lobby_no_fill")}
        ${t("web.lobby_grace", { seconds: info.grace ?? 20 })}</p>
      ${host ? html`<div class="row">
          <select id="bot-level" aria-label="${t("web.bot_level")}">${levels}</select>
          <button data-action="add-bot" data-focus="add-bot" ${free ? "" : "disabled"}>+ ${t("web.add_bot")}</button></div>
        ${info.removed ? html`<button class="ghost small" data-action="unban">${t("web.let_back", { count: info.removed })}</button>` : ""}
        <button class="primary big" data-action="start" data-focus="start" ${info.seats.length >= 2 || (info.fill && info.capacity >= 2) ? "" : "disabled"}>${t("web.start")}</button>`
      : html`<p class="waiting">${S.seat === null ? t("web.watching") : t("web.wait_host")}</p>`}
    </section>`;
}
