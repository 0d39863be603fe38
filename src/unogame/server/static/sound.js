// Sounds of the game, synthesized in the page with Web Audio (nothing is fetched), with
// a mute switch the browser remembers.

const KEY = "uno.muted";
let context = null;

export function muted() { return localStorage.getItem(KEY) === "1"; }

export function setMuted(value) { localStorage.setItem(KEY, value ? "1" : "0"); }

// Each sound: notes as [frequency Hz, start s, length s], a wave shape and a loudness.
const SOUNDS = {
  play: { wave: "triangle", gain: 0.18, notes: [[660, 0, 0.08]] },
  draw: { wave: "sine", gain: 0.15, notes: [[330, 0, 0.07], [262, 0.08, 0.09]] },
  uno: { wave: "square", gain: 0.1, notes: [[784, 0, 0.1], [1046, 0.11, 0.16]] },
  plus4: { wave: "sawtooth", gain: 0.09, notes: [[220, 0, 0.12], [196, 0.13, 0.12], [175, 0.26, 0.2]] },
  win: { wave: "triangle", gain: 0.16, notes: [[523, 0, 0.12], [659, 0.13, 0.12], [784, 0.26, 0.12], [1046, 0.4, 0.3]] },
};

export function play(name) {
  const sound = SOUNDS[name];
  if (!sound || muted()) return;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return;
  // Before the first tap a browser keeps a new context silent for good (nothing resumes
  // it), and making one blocks a phone for ~0.1 s: a page opened at a table waits.
  if (!context && navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
  try {
    context = context ?? new Audio();
    const now = context.currentTime;
    for (const [frequency, start, length] of sound.notes) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = sound.wave;
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(sound.gain, now + start);
      gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
      osc.connect(gain).connect(context.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  } catch {
    // A browser that refuses audio (no user gesture yet) plays nothing.
  }
}

// Which sound a batch of events makes for this seat (the loudest one only).
export function soundFor(events, seat) {
  let chosen = null;
  const rank = { play: 1, draw: 2, uno: 3, plus4: 4, win: 5 };
  const pick = (name) => { if (!chosen || rank[name] > rank[chosen]) chosen = name; };
  for (const event of events) {
    if (event.type === "play") pick(event.card === "W+4" ? "plus4" : "play");
    else if (event.type === "draw" && event.seat === seat) pick("draw");
    else if (event.type === "uno") pick("uno");
    else if (event.type === "round_over") pick("win");
  }
  return chosen;
}
