import { randomInt, timingSafeEqual } from "node:crypto";
import { chmodSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { conflict, forbidden, tooMany } from "../../platform/errors";
import type { Clock } from "../../platform/clock";

/** Letters and digits that cannot be misread for one another (no 0/O, 1/I/L). */
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/** Wrong codes one client may send before it waits out the window. */
export const MAX_WRONG_SETUP_CODES = 5;
const WINDOW_MS = 15 * 60_000;

export const SETUP_CODE_FILE = "setup-code";

/**
 * First-run setup claims the box, so `POST /setup` needs a one-time code only the person at
 * the box can read: printed to the console (and journal) at start and written to
 * `<data dir>/setup-code` (mode 0600). A web page or a neighbour on the Wi-Fi cannot claim a
 * fresh box. Setup from IRONBOX_ADMIN_* needs none.
 */
export function createSetupGate({ dataDir, clock, log }: { dataDir: string; clock: Clock; log: (m: string) => void }) {
  const file = join(dataDir, SETUP_CODE_FILE);
  let code: string | null = null;
  const wrong = new Map<string, number[]>();

  const normal = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, "");

  return {
    /** Makes the code (12 characters, about 59 bits) for a box that needs setup. */
    issue() {
      code = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
      const shown = code.match(/.{4}/g)!.join("-");
      writeFileSync(file, `${shown}\n`, { mode: 0o600 });
      chmodSync(file, 0o600); // mode applies only when the file is new
      log(`First-run setup code: ${shown} (also in ${file})`);
    },

    /** Refuses a wrong code (403); a client with 5 wrong codes in 15 minutes waits (429). */
    check(given: string, client: string) {
      if (code === null) throw conflict("This box is already set up");
      const since = clock.now().getTime() - WINDOW_MS;
      const mine = (wrong.get(client) ?? []).filter((t) => t > since);
      if (mine.length >= MAX_WRONG_SETUP_CODES) throw tooMany("Too many wrong setup codes from this device; try again in 15 minutes");
      const a = Buffer.from(normal(given));
      const b = Buffer.from(code);
      if (a.length !== b.length || !timingSafeEqual(a, b)) {
        wrong.set(client, [...mine, clock.now().getTime()]);
        throw forbidden("Setup code is wrong; read it from the box's console or the setup-code file in its data directory");
      }
    },

    /** Setup is done: the code dies and its file goes. */
    done() {
      code = null;
      rmSync(file, { force: true });
    },
  };
}

export type SetupGate = ReturnType<typeof createSetupGate>;
