// The round's end and the match's: who won with which cards, the scoreboard (this match's
// rounds and the matches this room played before), and a short celebration for the winner.

import { cardSVG as cardMarkup } from "./cards.js";
import { html, raw } from "./html.js";
import { cardName, t } from "./i18n.js";
import { replayButton } from "./replay.js";
import { S, displayName, seatName } from "./state.js";
import { dialogShell } from "./view_shell.js";
import { nextRoundCountdown } from "./view_table.js";

export function roundDialog() {
  const event = S.roundOver;
  const game = S.game;
  const view = game.view;
  const over = game.status === "match_over";
  const host = S.roomInfo && S.seat === S.roomInfo.host;
  const body = [];
  if (event) {
    const rows = event.hands.map((hand, seat) => html`<tr${seat === event.winner ? raw(' class="winner"') : ""}>
      <th scope="row">${seatName(seat)}</th>
      <td><ul class="tiny-hand">${hand.map((code) => html`<li><span role="img" aria-label="${cardName(code)}">${raw(cardMarkup(code))}</span></li>`)}</ul></td>
      <td class="num">${event.points[seat]}</td><td class="num">${event.scores[seat]}</td></tr>`);
    const gained = event.points.reduce((a, b) => a + b, 0);
    const won = gained === 1 ? "web.round_winner_one" : "web.round_winner";  // "1 point"
    body.push(html`<p>${t(won, { name: seatName(event.winner), points: gained })}</p>
      <table class="round-table"><thead><tr><th>${t("web.player")}</th><th>${t("web.cards_left")}</th>
      <th>${t("web.hand_points")}</th><th>${t("web.total")}</th></tr></thead><tbody>${rows}</tbody></table>
      ${replayButton(S.roomInfo?.game_no, game.results.length)}`);
  }
  if (over) {
    const ending = view.game_winner === null || view.game_winner === undefined
      ? html`<p class="match-winner">${t("web.match_no_winner")}</p>`  // the round cap (L1)
      : html`<p class="match-winner celebrate">${t("web.match_winner", { name: seatName(view.game_winner) })}</p>`;
    body.unshift(html`${ending}${standingsView()}`);  // who won, first: the round's details after
    body.push(html`${scoreTable()}${pastMatches()}`);
    body.push(host ? html`<button class="primary big" data-action="rematch" autofocus>${t("web.rematch")}</button>`
      : html`<p class="muted">${t("web.wait_rematch")}</p>`);
  } else if (S.seat !== null) {
    body.push(html`<button class="primary big" data-action="next-round" autofocus>${t("web.next_round")}</button>
      <p class="muted">${nextRoundCountdown()}</p>`);
  } else {
    body.push(html`<p class="muted">${t("web.wait_players_next")} ${nextRoundCountdown()}</p>`);
  }
  return dialogShell(over ? t("web.match_over") : t("web.round_over"), body, false, "round-dialog");
}

function scoreTable() {
  const results = S.game?.results ?? [];
  const n = S.game.view.players;
  const head = Array.from({ length: n }, (_, seat) => html`<th scope="col">${seatName(seat)}</th>`);
  const rows = results.map((result, index) => html`<tr><th scope="row">${t("web.round_n", { number: index + 1 })}${replayButton(S.roomInfo?.game_no, index + 1)}</th>
    ${result.scores.map((score, seat) => html`<td class="num ${seat === result.winner ? "winner" : ""}">${score}</td>`)}</tr>`);
  return html`<div class="table-scroll"><table class="score-table"><thead><tr><th></th>${head}</tr></thead><tbody>${rows.length ? rows :
    html`<tr><td colspan="${n + 1}">${t("web.no_rounds")}</td></tr>`}</tbody></table></div>
    <p class="muted">${t("web.target", { points: S.roomInfo?.rules?.target_score ?? S.meta?.rules?.target_score ?? 500 })}</p>`;
}

export function scoresDialog() {
  return dialogShell(t("web.scoreboard"), [standingsView(), scoreTable(), pastMatches()], "close", "scores-dialog");
}

// Wins per player across the room's matches (the server keeps them with the room).
function standingsView() {
  const rows = S.roomInfo?.standings ?? [];
  if (!rows.length) return "";
  const items = rows.map((row) => {
    const name = displayName({ kind: row.bot ? "bot" : "human", name: row.name });
    return html`<li>${row.wins === 1 ? t("web.standings_win", { name }) : t("web.standings_wins", { name, count: row.wins })}</li>`;
  });
  return html`<h3 class="past-title">${t("web.standings")}</h3><ol class="standings" data-testid="standings">${items}</ol>`;
}

// The matches this room played before "Play again": their scoreboards stay.
function pastMatches() {
  const matches = S.roomInfo?.matches ?? [];
  if (!matches.length) return "";
  const blocks = [...matches].reverse().map((match, index) => {
    const names = match.names ?? [];
    const head = names.map((name, seat) => html`<th scope="col">${displayName({ ...(S.roomInfo.seats[seat] ?? {}), name })}</th>`);
    const rows = match.results.map((result, round) => html`<tr><th scope="row">${t("web.round_n", { number: round + 1 })}${replayButton(match.game_no, round + 1)}</th>
      ${result.scores.map((score, seat) => html`<td class="num ${seat === result.winner ? "winner" : ""}">${score}</td>`)}</tr>`);
    const winner = match.winner === null || match.winner === undefined ? "" : names[match.winner] ?? "";
    return html`<details class="past-match" ${index === 0 ? "open" : ""}><summary>${t("web.past_match", { number: matches.length - index })}
      ${winner ? html` · ${t("web.past_winner", { name: winner })}` : ""}</summary>
      <div class="table-scroll"><table class="score-table"><thead><tr><th></th>${head}</tr></thead><tbody>${rows}</tbody></table></div></details>`;
  });
  return html`<h3 class="past-title">${t("web.past_matches")}</h3>${blocks}`;
}

const CELEBRATION_MS = 3200;
const PIECES = 12;

// Confetti and a line for the winner, for a few seconds; it catches no taps. With
// reduced motion (style.css) the line stays still and the confetti is not drawn.
export function celebration() {
  const won = S.celebrate;
  if (!won || Date.now() - won.at > CELEBRATION_MS) return "";
  const pieces = Array.from({ length: PIECES }, (_, i) => html`<i class="confetti c${i % 6}" aria-hidden="true"></i>`);
  return html`<div class="celebration ${won.match ? "match" : "round"}" data-key="won-${won.at}" data-seat="${won.seat}" role="status">
    ${pieces}<p class="celebration-text">${t(won.match ? "web.celebrate.match" : "web.celebrate.round")}</p></div>`;
}

export { CELEBRATION_MS };
