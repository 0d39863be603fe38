// The browser client of unogame: lobby, game table, dialogs. No build step, no library.
// The server is authoritative: this page shows the view it receives and sends moves in
// the project's notation together with the version of the position they were made on.
//
// The modules: state.js (the one store), messages.js (the server's messages reduced into
// it), connection.js (the WebSocket), actions.js (taps, forms, keys), view.js with the
// view_*.js regions (drawn with html.js's escaping template only), i18n.js, sound.js.

import "./actions.js";
import { connect } from "./connection.js";
import { mountPatterns } from "./html.js";
import { loadLanguage, pickLanguage } from "./i18n.js";
import { onMessage } from "./messages.js";
import { registerWorker } from "./pwa.js";
import { S, onChange } from "./state.js";
import { afterRender, render } from "./view.js";
import { keepAwake } from "./wakelock.js";

mountPatterns();
onChange(render);
afterRender(() => keepAwake(Boolean(S.game?.view) && S.game.status !== "match_over" && S.code !== null));

async function main() {
  const meta = fetch("/api/meta").then((response) => response.json());  // with the language, not after it
  await loadLanguage(pickLanguage());
  S.meta = await meta;
  const match = location.pathname.match(/^\/r\/([A-Za-z0-9]{4,8})$/);
  if (match) S.code = match[1].toUpperCase();
  render();
  connect(onMessage);
}

main();
registerWorker();
