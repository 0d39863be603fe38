// The live region: a short line on screen that a screen reader also says.

let timer = null;

export function toast(text, loud = false) {
  const live = document.getElementById("live");
  live.textContent = text;
  live.classList.add("show");
  live.classList.toggle("loud", loud);
  clearTimeout(timer);
  timer = setTimeout(() => live.classList.remove("show"), 3500);
}
