import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BESIDE_BY_BASE_URL, BESIDE_OWN_BOXES, BESIDE_SPECS } from "../../ui/e2e/pages/lanes";

/**
 * The browser specs' lanes (playwright.config.ts) run at the same time, so a spec in "beside"
 * must share no box and no port with the "demo" lane (docs/decisions/suite-time.md). What a
 * spec's source can show of that is checked here, before two specs meet on one port at run time.
 */
const DIR = join(import.meta.dir, "..", "..", "ui", "e2e");
const specs = readdirSync(DIR)
  .filter((f) => f.endsWith(".e2e.ts"))
  .map((f) => f.replace(/\.e2e\.ts$/, ""));
/** A spec's source without its imports (naming MAIN_PORT there uses nothing). */
const source = (name: string) => readFileSync(join(DIR, `${name}.e2e.ts`), "utf8").replace(/^import [\s\S]*?from "[^"]*";$/gm, "");
/** The config's own ports: the demo box, the SMS stand-in, the empty box, the second demo box. */
const CONFIG_OFFSETS = new Set([0, 1, 2, 16]);
/** The offsets of the block a spec's source names (`MAIN_PORT + n`). */
const offsets = (text: string) => new Set([...text.matchAll(/MAIN_PORT \+ (\d+)/g)].map((m) => Number(m[1])));
/** Ways a spec reaches the config's demo or empty box other than through its baseURL. */
const CONFIG_BOX = [
  // the demo box's port in a URL or passed on (MAIN_PORT + n is a port of the spec's own; a
  // file named by the run's port is no box)
  /:\$\{MAIN_PORT\}|[(=,]\s*MAIN_PORT\s*[),;]/,
  /EMPTY_(BOX|PORT)/,
  /e2e-data\/main-/, // the demo box's data dir (stand-in devices)
  /(localhost|127\.0\.0\.1):\d/, // a fixed port
];

describe("the browser specs' lanes", () => {
  test("every listed spec exists, and none is listed twice", () => {
    for (const name of BESIDE_SPECS) expect(existsSync(join(DIR, `${name}.e2e.ts`))).toBe(true);
    expect(new Set(BESIDE_SPECS).size).toBe(BESIDE_SPECS.length);
  });

  test("a spec on the second demo box reaches a box only through its baseURL", () => {
    for (const name of BESIDE_BY_BASE_URL) {
      const text = source(name);
      for (const way of [...CONFIG_BOX, /OwnBox/, /MAIN_PORT/]) expect({ name, uses: way.test(text) ? String(way) : null }).toEqual({ name, uses: null });
    }
  });

  test("a spec with boxes of its own uses none of the config's boxes, and no relative URL without a baseURL of its own", () => {
    for (const name of BESIDE_OWN_BOXES) {
      const text = source(name);
      for (const way of CONFIG_BOX) expect({ name, uses: way.test(text) ? String(way) : null }).toEqual({ name, uses: null });
      for (const offset of offsets(text)) expect({ name, offset, config: CONFIG_OFFSETS.has(offset) }).toEqual({ name, offset, config: false });
      // A relative goto or request would reach the lane's demo box: only with test.use({ baseURL }).
      const relative = /(\.goto|request\.(get|post|put|patch|delete|fetch))\(\s*["'`]\//.test(text);
      expect({ name, relative: relative && !/test\.use\(\{[^}]*baseURL/.test(text) }).toEqual({ name, relative: false });
    }
  });

  test("two specs on one port of the block are in the same lane", () => {
    const lane = (name: string) => (BESIDE_SPECS.includes(name) ? "beside" : "demo");
    const byOffset = new Map<number, string[]>();
    for (const name of specs) for (const o of offsets(source(name))) byOffset.set(o, [...(byOffset.get(o) ?? []), name]);
    expect(byOffset.size).toBeGreaterThan(5); // the specs were read
    for (const [offset, names] of byOffset) expect({ offset, lanes: [...new Set(names.map(lane))] }).toEqual({ offset, lanes: [lane(names[0]!)] });
  });
});
