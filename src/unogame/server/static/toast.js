// What the page tells its player in passing. The live region (#live) says each message to
// a screen reader at once and in full; the eye gets a short toast (#toast) laid over the
// status line, just above the hand: never over the other players or the cards. Toasts are
// queued, each shown for a moment; an answer to a tap (not loud) goes first.

const queue = [];
let box = null;
let timer = null;
let showing = false;
const SHOW_MS = 3000;
const QUEUED_MS = 1800; // shorter while more wait
const MAX_QUEUED = 4;

function toastBox() {
  if (!box) {
    box = document.createElement("div");
    box.id = "toast";
    box.className = "toast";
    box.setAttribute("aria-hidden", "true"); // #live says it
    document.body.append(box);
  }
  return box;
}

// text: the whole message (said in full); short: the lines shown, one toast each.
export function toast(text, loud = false, short = null) {
  document.getElementById("live").textContent = text;
  const items = (short ?? [text]).map((line) => ({ text: line, loud }));
  if (loud) queue.push(...items);
  else queue.unshift(...items);
  while (queue.length > MAX_QUEUED) queue.shift();
  if (!showing || !loud) { clearTimeout(timer); next(); }
}

function next() {
  const element = toastBox();
  const item = queue.shift();
  if (!item) { showing = false; element.classList.remove("show"); return; }
  showing = true;
  element.textContent = item.text;
  element.classList.toggle("loud", item.loud);
  place(element);
  element.classList.add("show");
  timer = setTimeout(next, queue.length ? QUEUED_MS : SHOW_MS);
}

function visible(rect) {
  return rect && rect.height > 0 && rect.top >= 0 && rect.bottom <= window.innerHeight;
}

// Over the status line when it is on screen and clear of the hand; else over the piles in
// the middle of the table; else just above the hand's dock; else (no table) at the top.
function place(element) {
  element.classList.remove("placed");
  Object.assign(element.style, { top: "", bottom: "", left: "", width: "" });
  const status = document.querySelector(".game > .status")?.getBoundingClientRect();
  const piles = document.querySelector(".game .ring > .table")?.getBoundingClientRect();
  const dock = document.querySelector(".game > .dock")?.getBoundingClientRect();
  const clear = (rect) => rect && (!dock || rect.bottom <= dock.top || rect.left >= dock.right || rect.right <= dock.left);
  const over = [status, piles].find((rect) => visible(rect) && clear(rect));
  if (over) {
    element.classList.add("placed");
    Object.assign(element.style, { top: `${over.top}px`, left: `${over.left}px`, width: `${over.width}px` });
  } else if (dock && dock.top > 40 && dock.top < window.innerHeight) {
    element.classList.add("placed");
    Object.assign(element.style, { top: "auto", bottom: `${window.innerHeight - dock.top + 4}px`, left: `${dock.left}px`, width: `${dock.width}px` });
  }
}
