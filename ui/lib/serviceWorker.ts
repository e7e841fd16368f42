/**
 * Registers the service worker (ui/sw.ts) that keeps the app shell on the tablet. Spec §8:
 * registration errors are logged, and an offline message is logged. Browsers allow service
 * workers only in a secure context (HTTPS, or localhost): on plain http://192.168… this logs why
 * it is off and the UI works as before.
 */
export function registerServiceWorker(): void {
  window.addEventListener("offline", () => console.warn("Offline: this tablet has lost its network connection"));
  if (!("serviceWorker" in navigator)) {
    console.info("Service worker: not available in this tab (it needs a secure connection; see /setup-tablet)");
    return;
  }
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error) => console.error("Service worker registration failed:", error));
  });
}
