// Issue 32: the import started from the screen and the export zip run in child processes
// (platform/child.ts) that the box's lifecycle ends: stopping the box (as SIGTERM does) ends
// the child, leaves no partial file, and an import stopped half-way is resumed by the next.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { TestBox } from "../../test/harness";
import { ADMIN, importInto, testBox } from "./testkit";

let src: TestBox;
let server: ReturnType<typeof Bun.serve>;
/** The old system's ticket list waits for this: the import is held half-way, whatever the machine's speed. */
let gate: { open: () => void; wait: Promise<void> };
/** Resolved when the import first asks for the ticket list (the kinds before it are written). */
let asked: { open: () => void; wait: Promise<void> };
const newGate = () => {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { open, wait };
};

beforeAll(async () => {
  src = await testBox({ demo: true });
  gate = newGate();
  asked = newGate();
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => {
      if (new URL(req.url).pathname.startsWith("/api/v1/tickets")) asked.open(), await gate.wait;
      return src.app.handle(req);
    },
  });
}, 60_000);
afterAll(() => {
  gate.open();
  server.stop(true);
  src.close();
});

/** This process's children whose command line names `script`. */
function children(script: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${d}/status`, "utf8"))?.[1]);
      if (ppid === process.pid && readFileSync(`/proc/${d}/cmdline`, "utf8").includes(script)) out.push(Number(d));
    } catch {}
  }
  return out;
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));

test("stopping the box during a screen import ends its child after the batch; the run is marked stopped and the next import resumes it", async () => {
  const dst = await testBox({ env: { IRONBOX_IMPORT_ALLOW_LOOPBACK: "1" } });
  try {
    const token = await dst.employeeToken(ADMIN.pin);
    const url = `http://127.0.0.1:${server.port}`;
    const started = await dst.call("POST", "/api/v1/import/", { token, body: { from: url, user: ADMIN.user, password: ADMIN.password, pin: ADMIN.pin } });
    expect(started.status).toBe(200);
    // Held at the ticket list: the kinds before it are written.
    await asked.wait;
    let status = (await dst.call("GET", "/api/v1/import/", { token })).json.data;
    expect(status.state).toBe("running");
    expect(status.progress).not.toBeNull();
    const [pid] = children("importChild.ts");
    expect(pid).toBeGreaterThan(0);

    // The box stops (main.ts's SIGTERM calls the lifecycle's stop); the old system answers again meanwhile.
    const stopping = dst.stop();
    gate.open();
    await stopping;
    expect(alive(pid!)).toBe(false);
    expect(children("importChild.ts")).toEqual([]);
    status = (await dst.call("GET", "/api/v1/import/", { token })).json.data;
    expect(status.state).toBe("failed");
    expect(status.error).toContain("import stopped");
    const runs = await dst.database.db.all<{ status: string }>(sql`SELECT status FROM import_runs`);
    expect(runs.map((r) => r.status)).toEqual(["failed"]);
    const count = async (box: TestBox) => (await box.database.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM tickets`))[0]!.n;
    expect(await count(dst)).toBeLessThan(await count(src));

    // Resumable: the next import brings the rest, the money equal to the source's.
    const report = await importInto(dst, url);
    expect(report.money.equal_to_source).toBe(true);
    expect(await count(dst)).toBe(await count(src));
  } finally {
    dst.close();
  }
}, 180_000);

test("stopping the box during an export kills its child and removes the database copy it was zipping", async () => {
  const box = await testBox({ demo: true });
  try {
    const token = await box.employeeToken(ADMIN.pin);
    // The response is not read: the child fills its pipe and waits, half-way through the zip.
    const res = await box.app.handle(new Request("http://localhost/api/v1/export/", { headers: { authorization: `token ${token}` } }));
    expect(res.status).toBe(200);
    const copies = () => readdirSync(box.dir).filter((n) => n.startsWith("export-"));
    for (let i = 0; i < 200 && !copies().length; i++) await Bun.sleep(25);
    expect(copies().filter((n) => /^export-box-\d+\.db$/.test(n)).length).toBe(1);
    const [pid] = children("exportChild.ts");
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid!)).toBe(true);

    await box.stop();
    expect(alive(pid!)).toBe(false);
    expect(copies()).toEqual([]);
    // A second export is not refused by the one that was killed.
    const again = await box.app.handle(new Request("http://localhost/api/v1/export/", { headers: { authorization: `token ${token}` } }));
    expect(again.status).toBe(200);
    expect((await again.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    expect(copies()).toEqual([]);
  } finally {
    box.close();
  }
}, 120_000);
