import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
/** Templates nobody has used for this long are removed when a new one is made (other checkouts' included). */
const STALE_MS = 6 * 3_600_000;

/**
 * A fingerprint of everything a template's data can depend on: the appliance's, the
 * database's and the drivers' sources (tests left out), the lockfile and Bun's version. A
 * template made by other code is never reused: a changed migration or demo makes a new one.
 */
export function sourcesHash(root = ROOT): string {
  const h = createHash("sha256").update(Bun.version);
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, e.name);
      const rel = relative(root, path);
      if (e.isDirectory()) {
        if (e.name !== "node_modules" && rel !== join("appliance", "test")) walk(path);
      } else if (/\.(ts|tsx|sql|json)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
        h.update(`${rel}\0`).update(readFileSync(path)).update("\0");
      }
    }
  };
  for (const d of ["appliance", "db", "drivers"]) if (existsSync(join(root, d))) walk(join(root, d));
  for (const f of ["package.json", "bun.lock"]) if (existsSync(join(root, f))) h.update(`${f}\0`).update(readFileSync(join(root, f)));
  return h.digest("hex").slice(0, 16);
}

let sources: string | null = null;
const made = new Map<string, Promise<string>>();

/**
 * A data folder made once by `build` for this key and these sources, shared by every test file
 * and process on the machine. `bun test --parallel` runs each file in a fresh module registry
 * and global scope, so a template kept in memory was made again in every file (the demo, tens
 * of seconds under load, in each of ~40 files). The folder is built aside and renamed into
 * place, so a reader never sees half of one; when two processes build the same one, the
 * first rename wins and the other's copy (the same data) is dropped. Boxes copy it, never
 * open it.
 */
export function sharedTemplate(key: string, build: (dir: string) => Promise<void>, root = join(tmpdir(), "ironbox-test-templates")): Promise<string> {
  sources ??= sourcesHash();
  const dir = join(root, `${sources}-${createHash("sha256").update(key).digest("hex").slice(0, 16)}`);
  let ready = made.get(dir);
  if (!ready) {
    ready = (async () => {
      if (!existsSync(dir)) {
        mkdirSync(root, { recursive: true });
        const work = mkdtempSync(join(root, ".building-"));
        try {
          await build(work);
          renameSync(work, dir);
        } catch (e) {
          rmSync(work, { recursive: true, force: true });
          if (!existsSync(dir)) throw e;
        }
        prune(root, dir);
      }
      const now = new Date();
      utimesSync(dir, now, now);
      return dir;
    })();
    made.set(dir, ready);
    ready.catch(() => made.delete(dir));
  }
  return ready;
}

/** Forgets what this process has made, as a new test file's fresh module scope does (for tests). */
export function forgetTemplates(): void {
  made.clear();
}

function prune(root: string, keep: string) {
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (path === keep) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {}
  }
}
