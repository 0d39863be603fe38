// The page's layout: which regions each screen has, and bringing them up to date after
// the store changed. A region is redrawn only when its markup changed (regions.js).

import { t } from "./i18n.js";
import { Region } from "./regions.js";
import { S, screenOf, secondsLeft } from "./state.js";
import { hintLine } from "./helper.js";
import { rulesDialog, overlay } from "./view_dialogs.js";
import { dock } from "./view_hand.js";
import { homeScreen, joinScreen, restoreForm } from "./view_home.js";
import { seatsPanel, sharePanel } from "./view_lobby.js";
import { CELEBRATION_MS, celebration } from "./view_scores.js";
import { announceBanner, emoteBar, gameNav, logView, ring, statusLine } from "./view_table.js";
import { topBar } from "./view_top.js";

const app = document.getElementById("app");
const topRegion = new Region("topbar", topBar);
const rulesRegion = new Region("rules", rulesDialog);

// main: the class of the <main> this page makes for the screen's regions; null when the
// screen's one region draws its own <main>.
const SCREENS = {
  home: { main: null, regions: [new Region("home", homeScreen)] },
  join: { main: null, regions: [new Region("join", joinScreen)] },
  lobby: { main: () => "lobby", regions: [new Region("share", sharePanel), new Region("seats", seatsPanel)] },
  game: {
    main: () => `game seats-${S.game.view.players > 6 ? "many" : "few"}`,
    regions: [new Region("ring", ring), new Region("status", statusLine), new Region("announce", announceBanner),
      new Region("hint", hintLine),
      new Region("dock", dock), new Region("nav", gameNav), new Region("emotes", emoteBar), new Region("log", logView),
      new Region("overlay", overlay), new Region("celebration", celebration)],
  },
};

let current = null;
let holder = null; // the screen's <main>, or null
const redraws = []; // listeners told after each render (wake lock)

export function afterRender(listener) { redraws.push(listener); }

function enter(name) {
  const old = current && SCREENS[current];
  if (old) {
    if (holder) holder.remove();
    else for (const region of old.regions) region.node.remove();
  }
  const screen = SCREENS[name];
  for (const region of screen.regions) region.reset();
  holder = screen.main ? document.createElement("main") : null;
  if (holder) holder.append(...screen.regions.map((region) => region.node));
  if (!topRegion.node.isConnected) app.replaceChildren(topRegion.node, rulesRegion.node);
  const nodes = holder ? [holder] : screen.regions.map((region) => region.node);
  for (const node of nodes) app.insertBefore(node, rulesRegion.node);
  current = name;
  // A new screen opens at its top (the Start button was pressed far down the lobby).
  window.scrollTo(0, 0);
}

let celebrated = null;

export function render() {
  if (S.celebrate && Date.now() - S.celebrate.at > CELEBRATION_MS) S.celebrate = null;
  const focused = document.activeElement?.dataset?.focus;
  const name = screenOf();
  if (name !== current) enter(name);
  topRegion.update();
  const screen = SCREENS[name];
  if (holder && holder.className !== screen.main()) holder.className = screen.main();
  let formChanged = false;
  for (const region of screen.regions) formChanged = region.update() || formChanged;
  rulesRegion.update();
  if (name === "home" && formChanged) restoreForm();
  if (focused && !app.contains(document.activeElement)) {
    app.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
  }
  const dialog = app.querySelector("[role=dialog]");
  const first = app.querySelector("[role=dialog] [autofocus], [role=dialog] button");
  if (first && !dialog.contains(document.activeElement)) first.focus();
  if (S.celebrate && celebrated !== S.celebrate.at) {  // taken down when its time is up
    celebrated = S.celebrate.at;
    setTimeout(render, CELEBRATION_MS + 50);
  }
  for (const listener of redraws) listener();
}

// The turn timer and the next round's countdown: only their text changes, twice a second.
setInterval(() => {
  for (const element of app.querySelectorAll("[data-countdown]")) {
    const left = secondsLeft(element.dataset.countdown === "turn" ? S.timerEnd : S.nextRoundEnd);
    const text = left === null ? null : t(element.dataset.text, { seconds: left });
    if (text !== null && element.textContent !== text) element.textContent = text;
  }
}, 500);
