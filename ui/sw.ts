/**
 * The service worker (issue 16), bundled by scripts/build-ui.ts with serwist; the build injects
 * the precache list of ui/dist (HTML, JS, CSS, fonts, icons, manifest) into __SW_MANIFEST.
 *
 * The app shell comes from the cache, so a tablet opens the UI at once and, when the box is
 * away, still shows the screen with its "The box is not answering" banner instead of the
 * browser's error page: every page load (deep links too) gets the cached index.html.
 * Nothing else is cached: there is no runtime caching at all, so /api/ answers (customers,
 * tickets, personal data) always go to the box and are never stored on the tablet.
 */
import { type PrecacheEntry, Serwist } from "serwist";

declare const self: typeof globalThis & { __SW_MANIFEST: (PrecacheEntry | string)[] };

new Serwist({
  precacheEntries: self.__SW_MANIFEST,
  precacheOptions: {
    cleanupOutdatedCaches: true,
    navigateFallback: "/index.html",
    // Served by the box itself, never from the shell: the API and the CA download.
    navigateFallbackDenylist: [/^\/api\//, /^\/ca\.crt$/],
  },
  // A new release takes over at once (the shell is small and the API stays the same).
  skipWaiting: true,
  clientsClaim: true,
  disableDevLogs: true,
}).addEventListeners();
