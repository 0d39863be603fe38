// Cards drawn as SVG by this project. Every colour has its own symbol (circle, triangle,
// square, diamond) and background pattern, so cards read without colour vision.

export const COLOR_FILL = { R: "#d32f2f", Y: "#f2b705", G: "#1b8a3f", B: "#1e5bb8" };
const INK = { R: "#b71c1c", Y: "#8a6100", G: "#0d5e27", B: "#123f85" };

// The shared <defs>: one pattern per colour (inserted once into the page).
export const PATTERN_DEFS = `
<svg width="0" height="0" class="svg-defs" aria-hidden="true" focusable="false">
  <defs>
    <pattern id="pat-R" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="3" height="8" fill="rgba(255,255,255,0.22)"/></pattern>
    <pattern id="pat-Y" width="8" height="8" patternUnits="userSpaceOnUse">
      <circle cx="4" cy="4" r="1.6" fill="rgba(255,255,255,0.35)"/></pattern>
    <pattern id="pat-G" width="8" height="8" patternUnits="userSpaceOnUse">
      <rect width="8" height="2.5" fill="rgba(255,255,255,0.22)"/></pattern>
    <pattern id="pat-B" width="9" height="9" patternUnits="userSpaceOnUse">
      <path d="M0 4.5H9M4.5 0V9" stroke="rgba(255,255,255,0.25)" stroke-width="1.4"/></pattern>
  </defs>
</svg>`;

// A colour's symbol as an SVG shape centred at (x, y) with radius r.
export function shape(color, x, y, r, fill = "#fff", stroke = "none") {
  const common = `fill="${fill}" stroke="${stroke}" stroke-width="${r / 4}"`;
  if (color === "R") return `<circle cx="${x}" cy="${y}" r="${r}" ${common}/>`;
  if (color === "Y") {
    return `<polygon points="${x},${y - r} ${x + r * 1.05},${y + r * 0.8} ${x - r * 1.05},${y + r * 0.8}" ${common}/>`;
  }
  if (color === "G") {
    return `<rect x="${x - r * 0.85}" y="${y - r * 0.85}" width="${r * 1.7}" height="${r * 1.7}" ${common}/>`;
  }
  return `<polygon points="${x},${y - r * 1.1} ${x + r},${y} ${x},${y + r * 1.1} ${x - r},${y}" ${common}/>`;
}

// A standalone SVG of one colour symbol (for colour buttons and the colour to match).
export function colorBadge(color, size = 22) {
  return `<svg class="badge" viewBox="0 0 24 24" width="${size}" height="${size}" aria-hidden="true">
    <rect x="1" y="1" width="22" height="22" rx="5" fill="${COLOR_FILL[color]}"/>
    <rect x="1" y="1" width="22" height="22" rx="5" fill="url(#pat-${color})"/>
    ${shape(color, 12, 12, 6)}</svg>`;
}

function skipIcon(x, y, r, ink) {
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${ink}" stroke-width="${r / 3.2}"/>
    <line x1="${x - r * 0.7}" y1="${y + r * 0.7}" x2="${x + r * 0.7}" y2="${y - r * 0.7}" stroke="${ink}" stroke-width="${r / 3.2}"/>`;
}

function reverseIcon(x, y, r, ink) {
  const w = r / 3;
  return `<g fill="none" stroke="${ink}" stroke-width="${w}" stroke-linecap="round" stroke-linejoin="round">
    <path d="M${x - r} ${y - r * 0.3} H${x + r * 0.8} M${x + r * 0.3} ${y - r * 0.8} L${x + r * 0.8} ${y - r * 0.3} L${x + r * 0.3} ${y + r * 0.2}"/>
    <path d="M${x + r} ${y + r * 0.4} H${x - r * 0.8} M${x - r * 0.3} ${y - r * 0.1} L${x - r * 0.8} ${y + r * 0.4} L${x - r * 0.3} ${y + r * 0.9}"/></g>`;
}

function swapIcon(x, y, r, ink) {
  return `<g fill="none" stroke="${ink}" stroke-width="${r / 3.5}" stroke-linecap="round" stroke-linejoin="round">
    <path d="M${x - r} ${y - r * 0.5} C${x - r * 0.3} ${y - r * 1.3} ${x + r * 0.5} ${y - r * 1.1} ${x + r} ${y - r * 0.3} M${x + r * 0.45} ${y - r * 0.35} L${x + r} ${y - r * 0.3} L${x + r * 1.05} ${y - r * 0.9}"/>
    <path d="M${x + r} ${y + r * 0.5} C${x + r * 0.3} ${y + r * 1.3} ${x - r * 0.5} ${y + r * 1.1} ${x - r} ${y + r * 0.3} M${x - r * 0.45} ${y + r * 0.35} L${x - r} ${y + r * 0.3} L${x - r * 1.05} ${y + r * 0.9}"/></g>`;
}

function starIcon(x, y, r, ink) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 ? r * 0.45 : r;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push(`${(x + radius * Math.cos(angle)).toFixed(2)},${(y + radius * Math.sin(angle)).toFixed(2)}`);
  }
  return `<polygon points="${points.join(" ")}" fill="${ink}"/>`;
}

// The face of a card: its centre symbol and its corner label.
function face(rank, x, y, r, ink) {
  if (rank === "S") return skipIcon(x, y, r, ink);
  if (rank === "R") return reverseIcon(x, y, r, ink);
  if (rank === "WS") return swapIcon(x, y, r, ink);
  if (rank === "WC") return starIcon(x, y, r * 1.1, ink);
  const text = rank === "W" ? "" : rank === "W+4" ? "+4" : rank;
  const size = text.length > 1 ? r * 1.45 : r * 2;
  return `<text x="${x}" y="${y}" font-size="${size}" font-weight="800" text-anchor="middle"
    dominant-baseline="central" fill="${ink}" font-family="DejaVu Sans, Arial, sans-serif">${text}</text>`;
}

function cornerLabel(rank) {
  return { S: "⊘", R: "⇄", W: "W", "W+4": "+4", WS: "WS", WC: "WC" }[rank] ?? rank;
}

export function splitCode(code) {
  if (code.startsWith("W")) return { color: null, rank: code };
  return { color: code[0], rank: code.slice(1) };
}

// The whole card as an SVG string (60 x 90 units).
export function cardSVG(code) {
  const { color, rank } = splitCode(code);
  const wild = color === null;
  const bg = wild ? "#1d1d1f" : COLOR_FILL[color];
  const ink = wild ? "#1d1d1f" : INK[color];
  let oval;
  if (wild) {
    const quad = ["R", "Y", "G", "B"].map((c, i) => {
      const a0 = (i * Math.PI) / 2 - Math.PI;
      const a1 = a0 + Math.PI / 2;
      const p = (a) => `${(30 + 19 * Math.cos(a)).toFixed(2)},${(45 + 27 * Math.sin(a)).toFixed(2)}`;
      return `<path d="M30,45 L${p(a0)} A19,27 0 0 1 ${p(a1)} Z" fill="${COLOR_FILL[c]}"/>
              <path d="M30,45 L${p(a0)} A19,27 0 0 1 ${p(a1)} Z" fill="url(#pat-${c})"/>`;
    }).join("");
    const inner = rank === "W" ? "" :
      `<circle cx="30" cy="45" r="12" fill="#fff"/>${face(rank, 30, 45, 8, ink)}`;
    oval = `<g transform="rotate(20 30 45)">${quad}</g>${inner}`;
  } else {
    oval = `<ellipse cx="30" cy="45" rx="19" ry="28" transform="rotate(20 30 45)" fill="#fff"/>
      ${face(rank, 30, 45, 12, ink)}`;
  }
  const corner = cornerLabel(rank);
  const cornerSize = corner.length > 1 ? 8 : 11;
  const symbol = wild ? "" : shape(color, 9, 24, 3.4);
  const symbol2 = wild ? "" : shape(color, 51, 66, 3.4);
  return `<svg viewBox="0 0 60 90" class="card-svg" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="58" height="88" rx="7" fill="${bg}" stroke="#fff" stroke-width="2"/>
    ${wild ? "" : `<rect x="1" y="1" width="58" height="88" rx="7" fill="url(#pat-${color})"/>`}
    ${oval}
    <text x="9" y="12" font-size="${cornerSize}" font-weight="800" text-anchor="middle" dominant-baseline="central"
      fill="#fff" font-family="DejaVu Sans, Arial, sans-serif">${corner}</text>${symbol}
    <g transform="rotate(180 30 45)"><text x="9" y="12" font-size="${cornerSize}" font-weight="800"
      text-anchor="middle" dominant-baseline="central" fill="#fff"
      font-family="DejaVu Sans, Arial, sans-serif">${corner}</text></g>${symbol2}
  </svg>`;
}

export function backSVG() {
  return `<svg viewBox="0 0 60 90" class="card-svg" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="58" height="88" rx="7" fill="#262626" stroke="#fff" stroke-width="2"/>
    <ellipse cx="30" cy="45" rx="20" ry="30" transform="rotate(20 30 45)" fill="#c62828"/>
    <text x="30" y="46" font-size="15" font-weight="900" text-anchor="middle" dominant-baseline="central"
      fill="#ffd54f" transform="rotate(-15 30 45)" font-family="DejaVu Sans, Arial, sans-serif">UNO</text>
  </svg>`;
}
