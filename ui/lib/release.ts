import { signal } from "@preact/signals-react";

/**
 * Upgrades an open tablet survives (issue 23). The build writes its id into index.html
 * (`<meta name="ironbox-build">`) and build.json; the box sends the id of the UI it serves
 * with every API answer (`X-Ironbox-UI`). A tablet opened before an upgrade still runs the old
 * code, which would ask for code-split chunks the new release no longer has; once an answer
 * names another build, the tablet reloads at the next safe moment: when the person moves to
 * another screen (whatever they were doing there is saved by then), or at once while it sits on
 * home. Never in the middle of a ticket: the counter saves each line as it goes, so leaving it
 * is the moment.
 */
export const RELEASE_HEADER = "x-ironbox-ui";

const mine = typeof document === "undefined" ? null : (document.querySelector('meta[name="ironbox-build"]')?.getAttribute("content") ?? null);

/** True once the box serves a UI build other than the one this page runs. */
export const newReleaseInstalled = signal(false);

/** Called with each API answer's header. A box that names no build (an API-only test) changes nothing. */
export function noteServedBuild(served: string | null): void {
  if (!mine || !served || served === mine || newReleaseInstalled.value) return;
  console.info(`Ironbox was upgraded (this page runs ${mine}, the box serves ${served}); the page reloads at the next safe moment`);
  newReleaseInstalled.value = true;
}

const RELOAD_KEY = "ironbox.reloadedFor";

/** Reloads the page for the new release, once per release (a box that keeps naming another build never loops). */
export function reloadForNewRelease(reason: string): void {
  const key = `${mine}`;
  try {
    if (sessionStorage.getItem(RELOAD_KEY) === key) return;
    sessionStorage.setItem(RELOAD_KEY, key);
  } catch {
    // No session storage: reload anyway; the new page runs the new build and stops here.
  }
  console.info(`Reloading for the new release: ${reason}`);
  window.location.reload();
}

/**
 * A code-split chunk that no longer exists (the release it belonged to was replaced): the only
 * way on is the new release, so reload (once) instead of leaving a blank panel.
 */
export function importOrReload<T>(load: () => Promise<T>): Promise<T> {
  return load().catch((e) => {
    reloadForNewRelease(`a part of the old release could not be loaded (${e instanceof Error ? e.message : String(e)})`);
    throw e;
  });
}
