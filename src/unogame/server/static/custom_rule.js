// The Wild Customizable rule builder of the room setup, and a rule in words (issue 14).
//
// A family picks a preset or builds its own rule: up to four steps, each who x what x how
// many, plus a name and a text (engine/custom.py, DECISIONS.md D16-D21). The builder is
// drawn with the page's html`` templates (passed in), so a rule's name and text, which a
// person typed, only ever reach the page as escaped text. The server checks the rule and
// says why it refuses one (common.custom_error.KEY).

export const OWN = "__own__";

// What the builder holds while the setup form is open.
export const builder = { choice: "none", name: "", text: "", steps: [] };

// The one-line explanation of a rule (a preset name, or a family's rule object); a
// preset's counted steps take N from the rules' custom_count.
export function describeRule(rule, t, composer, count = 2) {
  if (typeof rule === "string") {
    const steps = composer?.presets?.[rule];
    if (!steps) return t(`common.custom.${rule}`);
    if (!steps.length) return t("common.custom.none");
    return joinSteps(steps.map((step) => ({ ...step, count: step.count ?? count })), t);
  }
  if (!rule.steps.length) return capital(t("common.step.table"));
  return joinSteps(rule.steps, t);
}

function joinSteps(steps, t) {
  return capital(steps.map((step) => stepText(step, t)).join(t("common.step.then")));
}

function stepText(step, t) {
  const count = step.count ?? 1;
  const key = `common.step.${step.what}.${step.who}` + (step.what === "skip" && count === 1 ? ".one" : "");
  return t(key, { count });
}

function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

// The rule the setup sends as rules.custom_rule.
export function chosenRule() {
  if (builder.choice !== OWN) return builder.choice;
  return {
    name: builder.name.trim(), text: builder.text.trim(),
    steps: builder.steps.map((step) => ({ who: step.who, what: step.what, count: step.count })),
  };
}

// Why the server refused a rule, in the reader's language (the actions and players in words).
export function refusalText(reason, fields, t) {
  const words = { ...fields };
  if (words.what) words.what = t(`common.what.${words.what}`);
  if (words.who) words.who = t(`common.who.${words.who}`);
  if (words.allowed) words.allowed = String(words.allowed).split(", ").map((who) => t(`common.who.${who}`)).join(", ");
  if (words.field === "name" || words.field === "text") words.field = t(`common.custom.${words.field}`);
  return t(`common.custom_error.${reason}`, words);
}

// The builder's markup: a preset list (with "a rule of our own") and, for an own rule,
// its name, text, steps and explanation.
export function builderView(html, t, composer, count) {
  const presets = Object.keys(composer.presets);
  const options = [...presets, OWN].map((name) => html`<option value="${name}" ${builder.choice === name ? "selected" : ""}>${
    name === OWN ? t("common.custom.composed") : t(`common.custom.${name}`)}</option>`);
  const own = builder.choice === OWN;
  const explain = describeRule(own ? chosenRule() : builder.choice, t, composer, count);
  return html`<fieldset class="rule-builder" data-testid="rule-builder"><legend>${t("common.rule.custom_rule")}</legend>
    <label class="field">${t("common.custom.build")}<select id="rule-custom_rule" data-cr="choice" data-focus="cr-choice">${options}</select></label>
    ${own ? ownRuleView(html, t, composer) : ""}
    <p class="rule-explain" aria-live="polite"><strong>${t("common.custom.explain")}:</strong>
      <span data-testid="rule-explain">${explain}</span></p>
  </fieldset>`;
}

function ownRuleView(html, t, composer) {
  const steps = builder.steps.map((step, index) => stepView(html, t, composer, step, index));
  const more = builder.steps.length < composer.max_steps
    ? html`<button type="button" class="small" data-action="cr-add" data-focus="cr-add">+ ${t("common.custom.add_step")}</button>` : "";
  return html`<div class="grid2">
      <label class="field">${t("common.custom.name")}<input id="cr-name" data-cr="name" data-focus="cr-name" maxlength="${composer.max_name}" value="${builder.name}"></label>
      <label class="field">${t("common.custom.text")}<input id="cr-text" data-cr="text" data-focus="cr-text" maxlength="${composer.max_text}" value="${builder.text}"></label>
    </div>
    <ol class="rule-steps">${steps}</ol>${more}`;
}

function stepView(html, t, composer, step, index) {
  const number = index + 1;
  const whats = composer.what.map((what) => html`<option value="${what}" ${what === step.what ? "selected" : ""}>${t(`common.what.${what}`)}</option>`);
  const whos = composer.allowed_who[step.what].map((who) => html`<option value="${who}" ${who === step.who ? "selected" : ""}>${t(`common.who.${who}`)}</option>`);
  const range = composer.count_range[step.what];
  const count = range ? html`<label class="field small">${t("common.custom.count")}
      <input type="number" data-cr="count" data-step="${index}" data-focus="cr-count-${index}" min="${range[0]}" max="${range[1]}" value="${step.count}"
        aria-label="${t("common.custom.step", { number })}: ${t("common.custom.count")}"></label>` : "";
  return html`<li class="rule-step" data-testid="rule-step">
    <label class="field small">${t("common.custom.who")}<select data-cr="who" data-step="${index}" data-focus="cr-who-${index}"
      aria-label="${t("common.custom.step", { number })}: ${t("common.custom.who")}">${whos}</select></label>
    <label class="field small">${t("common.custom.what")}<select data-cr="what" data-step="${index}" data-focus="cr-what-${index}"
      aria-label="${t("common.custom.step", { number })}: ${t("common.custom.what")}">${whats}</select></label>
    ${count}
    <button type="button" class="ghost small" data-action="cr-remove" data-step="${index}"
      aria-label="${t("common.custom.remove_step", { number })}">✕</button></li>`;
}

// A change in the builder (select or input with data-cr); true when the page must redraw.
export function builderInput(target, composer) {
  const field = target.dataset.cr;
  if (!field) return false;
  if (field === "choice") {
    builder.choice = target.value;
    if (target.value === OWN && !builder.steps.length) builder.steps.push(newStep(composer, "draw"));
    return true;
  }
  if (field === "name" || field === "text") { builder[field] = target.value; return "explain"; }
  const step = builder.steps[Number(target.dataset.step)];
  if (!step) return false;
  if (field === "what") {
    step.what = target.value;
    if (!composer.allowed_who[step.what].includes(step.who)) step.who = composer.allowed_who[step.what][0];
    const range = composer.count_range[step.what];
    step.count = range ? Math.min(Math.max(step.count, range[0]), range[1]) : 1;
  } else if (field === "who") step.who = target.value;
  else if (field === "count") step.count = Number(target.value);
  return true;
}

// A builder button (data-action cr-add / cr-remove); true when it was one.
export function builderAction(target, composer) {
  const action = target.dataset.action;
  if (action === "cr-add" && builder.steps.length < composer.max_steps) {
    builder.steps.push(newStep(composer, "skip"));
    return true;
  }
  if (action === "cr-remove") {
    builder.steps.splice(Number(target.dataset.step), 1);
    return true;
  }
  return false;
}

function newStep(composer, what) {
  return { what, who: composer.allowed_who[what][0], count: 1 };
}

// The explanation again after N (custom_count) changed, without redrawing the form.
export function refreshExplanation(root, t, composer, count) {
  const line = root.querySelector("[data-testid=rule-explain]");
  if (line) line.textContent = describeRule(builder.choice === OWN ? chosenRule() : builder.choice, t, composer, count);
}
