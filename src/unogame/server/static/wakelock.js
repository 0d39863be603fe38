// Keep the screen awake while a game is on, where the browser can (Screen Wake Lock):
// asked for when the game starts, let go when it ends or the page leaves the room, and
// asked for again when the page is shown again (the browser lets it go when hidden).

let lock = null;
let asking = false;
let wanted = false;

async function ask() {
  if (!wanted || lock || asking || !navigator.wakeLock || document.visibilityState !== "visible") return;
  asking = true;
  try {
    const sentinel = await navigator.wakeLock.request("screen");
    sentinel.addEventListener("release", () => { if (lock === sentinel) lock = null; });
    lock = sentinel;
    if (!wanted) release();
  } catch {
    lock = null; // refused (no permission, battery saver): the game goes on without it
  } finally {
    asking = false;
  }
}

function release() {
  const sentinel = lock;
  lock = null;
  sentinel?.release().catch(() => {});
}

// Called after each render with whether a game is on.
export function keepAwake(playing) {
  if (playing === wanted) return;
  wanted = playing;
  if (playing) ask(); else release();
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") ask();
});
