// Installable: the service worker (/sw.js) keeps the page's files and shows the offline page
// without a server. Registered once the page has loaded, so that its downloads never compete
// with the page's own on a slow link. Browsers offer it only on https or this computer.

export function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  const register = () => navigator.serviceWorker.register("/sw.js").catch(() => {});
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}
