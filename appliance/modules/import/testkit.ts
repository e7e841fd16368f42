// Test helpers for the import: a box with the demo data served on a loopback port as the
// "old system", an empty box as the target, and the import run against them.
import { getBoxSecret } from "../auth/secrets";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { importCaller, type ImportOptions, runImport } from "./importer";

export interface Served {
  url: string;
  stop(): void;
}

/** Serves a box's app over real HTTP on 127.0.0.1 (an ephemeral port). */
export function serve(box: TestBox): Served {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => box.app.handle(req) });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

/** Imports from `url` into `target` with the demo box's HQ login. */
export async function importInto(target: TestBox, url: string, extra: Partial<ImportOptions> = {}) {
  const db = target.database.db;
  return runImport(
    { db, clock: target.clock, secret: await getBoxSecret(db), caller: await importCaller(db), databaseFile: target.database.file ?? null },
    { from: url, user: ADMIN.user, password: ADMIN.password, pin: ADMIN.pin, retryDelayMs: 0, ...extra },
  );
}

export { ADMIN, testBox };
