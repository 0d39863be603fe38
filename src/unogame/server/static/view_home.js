// The home page (join a room, set one up) and a room link's "take a seat or watch".

import { builderView } from "./custom_rule.js";
import { html } from "./html.js";
import { levelName, t } from "./i18n.js";
import { PRESETS, SWITCHES, presetOf } from "./presets.js";
import { S, spacedCode } from "./state.js";

export function homeScreen() {
  const meta = S.meta;
  if (!meta) return html`<main class="home"><p>${t("web.loading")}</p></main>`;
  const rules = meta.rules;
  const switches = Object.fromEntries(SWITCHES.map((key) => [key, S.form[`rule-${key}`] ?? rules[key]]));
  const current = presetOf(switches);
  const presets = Object.keys(PRESETS).map((name) => html`<button type="button" class="small" data-action="preset"
    data-preset="${name}" aria-pressed="${String(current === name)}">${t(`web.preset.${name}`)}</button>`);
  const numbers = [["hand_size", 1, 20], ["target_score", 1, 5000], ["uno_penalty", 0, 20], ["custom_count", 1, 20]];
  const name = (localStorage.getItem("uno.name") || "");
  const levelOptions = (selected) => meta.bot_levels.map((level) =>
    html`<option value="${level}" ${level === selected ? "selected" : ""}>${levelName(level)}</option>`);
  return html`<main class="home">
    <h1 class="title">${t("web.title")}</h1>
    <p class="tagline">${t("web.tagline")}</p>
    ${S.homeError ? html`<p class="error" role="alert">${(S.homeError)}</p>` : ""}
    <section class="panel">
      <label class="field">${t("web.your_name")}
        <input id="player-name" maxlength="24" value="${name}" autocomplete="nickname" data-focus="name"></label>
    </section>
    <section class="panel" aria-labelledby="join-h">
      <h2 id="join-h">${t("web.join_room")}</h2>
      <form class="row" data-form="join">
        <input id="join-code" maxlength="10" placeholder="${t("web.code_placeholder")}" aria-label="${t("web.room_code")}"
          autocapitalize="characters" data-focus="join-code">
        <button type="submit" class="primary">${t("web.join")}</button>
      </form>
    </section>
    <section class="panel" aria-labelledby="create-h">
      <h2 id="create-h">${t("web.create_room")}</h2>
      <form data-form="create" class="create">
        <label class="field">${t("web.room_name")}<input id="room-name" maxlength="24" value="${(t("web.default_room"))}"></label>
        <div class="grid2">
          <label class="field">${t("web.seats")}<input id="seats" type="number" min="${meta.min_seats}" max="${meta.max_seats}" value="4"></label>
          <label class="field">${t("web.timer")}<select id="timer">
            ${[0, 15, 30, 60, 120].map((s) => html`<option value="${s}">${s ? t("web.timer_seconds", { seconds: s }) : t("web.timer_off")}</option>`)}
          </select></label>
          <label class="field">${t("web.grace")}<select id="grace">
            ${[10, 20, 30, 60, 120].map((s) => html`<option value="${s}" ${s === 20 ? "selected" : ""}>${t("web.timer_seconds", { seconds: s })}</option>`)}
          </select></label>
          <label class="field">${t("web.fill")}<select id="fill">
            ${meta.bot_levels.map((level) => html`<option value="${level}" ${level === (S.form.fill ?? meta.default_bot_level) ? "selected" : ""}>${t("web.fill_bots", { level: levelName(level) })}</option>`)}
            <option value="">${t("web.fill_empty")}</option>
          </select></label>
        </div>
        <fieldset><legend>${t("web.bots")}</legend>
          <ul class="bot-list">${S.bots.map((level, i) => html`<li>${t("web.bot_n", { number: i + 1 })}
            <select data-bot="${i}" aria-label="${t("web.bot_level")}">${levelOptions(level)}</select>
            <button type="button" class="ghost small" data-action="drop-bot" data-index="${i}" aria-label="${t("web.remove")}">✕</button></li>`)}</ul>
          <button type="button" class="small" data-action="more-bots" data-focus="more-bots">+ ${t("web.add_bot")}</button>
        </fieldset>
        <fieldset><legend>${t("web.presets")}</legend><div class="presets">${presets}</div>
          <p class="muted">${current ? t(`web.preset_help.${current}`) : t("web.preset_own")}</p>
          <label class="check"><input type="checkbox" id="family-kind" ${S.form["family-kind"] ? "checked" : ""}>
            ${t("web.family_kind", { seconds: meta.family_catch_grace ?? 3.5 })}</label></fieldset>
        <details id="house-rules" ${rulesOpen() ? "open" : ""}><summary>${t("web.house_rules")}</summary>
          <div class="rules-form">
          ${SWITCHES.map((key) => html`<label class="check"><input type="checkbox" id="rule-${key}" ${rules[key] ? "checked" : ""}> ${t(`common.rule.${key}`)}</label>`)}
          <div class="grid2">${numbers.map(([key, lo, hi]) => html`<label class="field">${t(`common.rule.${key}`)}
            <input type="number" id="rule-${key}" min="${lo}" max="${hi}" value="${rules[key]}"></label>`)}</div>
          ${builderView(html, t, meta.custom_composer, Number(S.form["rule-custom_count"] ?? rules.custom_count))}
          </div>
        </details>
        <button type="submit" class="primary big">${t("web.create")}</button>
      </form>
    </section>
  </main>`;
}

export function joinScreen() {
  const name = (localStorage.getItem("uno.name") || "");
  return html`<main class="home">
    <h1 class="title">${t("web.title")}</h1>
    <section class="panel">
      <h2>${t("web.join_named", { code: spacedCode(S.code) })}</h2>
      <form data-form="join-named">
        <label class="field">${t("web.your_name")}<input id="player-name" maxlength="24" value="${name}" data-focus="name"></label>
        <div class="row"><button type="submit" class="primary">${t("web.take_seat")}</button>
        <button type="button" data-action="watch">${t("web.watch")}</button></div>
      </form>
    </section></main>`;
}

// The setup form keeps what was typed when it is drawn again (a preset, a bot added).
export function restoreForm() {
  for (const [id, value] of Object.entries(S.form)) {
    const input = document.getElementById(id);
    if (!input || input.readOnly) continue;
    if (input.type === "checkbox") input.checked = value; else input.value = value;
  }
}

// Open as the page shows it: a tap on the summary opens it at once, but says so (the toggle
// event) only in a later task, after a redraw it caused may already have run.
function rulesOpen() {
  return document.getElementById("house-rules")?.open ?? S.rulesOpen;
}
