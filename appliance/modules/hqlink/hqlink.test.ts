// The link to HQ: a real Litestream replicating the box's real database to a real OpenSSH
// server (scripts/faults/sshd.ts) or to a folder; the settings routes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSshd, type Sshd } from "../../../scripts/faults/sshd";
import { type TestBox, testBox } from "../../test/harness";
import { freePort } from "../../test/ports";
import { KEY_FILE } from "./service";

let hq: Sshd;
const dirs: string[] = [];
const boxes: TestBox[] = [];

beforeAll(async () => {
  hq = await startSshd({ port: await freePort() });
});
afterAll(async () => {
  for (const b of boxes) b.close();
  await Bun.sleep(300);
  await hq.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function linkedBox(env: Record<string, string> = {}, linkStallMs?: number) {
  const box = await testBox({ demo: true, env, linkStallMs });
  boxes.push(box);
  const admin = await box.employeeToken(9999);
  return { box, admin };
}

/** Polls the link's state until `ok` says yes (bounded). */
async function until(box: TestBox, token: string, ok: (s: any) => boolean, ms = 15_000) {
  const end = Date.now() + ms;
  let last: any;
  while (Date.now() < end) {
    last = (await box.call("GET", "/api/v1/hqlink", { token })).json.data;
    if (ok(last)) return last;
    await Bun.sleep(200);
  }
  throw new Error(`the link never got there: ${JSON.stringify(last)}`);
}

const key = () => readFileSync(hq.keyPath, "utf8");
const wrongKey = () => readFileSync(hq.wrongKeyPath, "utf8");

describe("settings", () => {
  test("admins see the link, only HQ staff set it (a shop admin 403); a manager or employee gets 403", async () => {
    const { box, admin } = await linkedBox();
    for (const [shop, pin] of [
      ["mosta", 7777],
      ["birkirkara", 6666],
    ] as const) {
      const t = await box.employeeToken(pin, await box.agentToken(shop, "shop-demo-2026"));
      expect((await box.call("GET", "/api/v1/hqlink", { token: t })).status).toBe(403);
      expect((await box.call("PUT", "/api/v1/hqlink", { token: t, body: { site: "x" } })).status).toBe(403);
      expect((await box.call("POST", "/api/v1/hqlink/check", { token: t })).status).toBe(403);
    }
    const shopAdmin = await box.employeeToken(5555, await box.agentToken("birkirkara", "shop-demo-2026"));
    expect((await box.call("GET", "/api/v1/hqlink", { token: shopAdmin })).status).toBe(200);
    // Where the whole database goes (every shop's records, the box secret) is HQ staff's to say.
    const hijack = await box.call("PUT", "/api/v1/hqlink", { token: shopAdmin, body: { url: "sftp://me@evil.example/x" } });
    expect(hijack.status).toBe(403);
    expect(hijack.json.message).toBe("Only head-quarters staff may change data shared by every shop");
    const s = (await box.call("GET", "/api/v1/hqlink", { token: admin })).json.data;
    expect(s).toMatchObject({ state: "off", lag_seconds: null, running: false, settings: { url: null, key_set: false } });
    expect((await box.call("GET", "/api/v1/hqlink", { token: shopAdmin })).json.data.settings.url).toBeNull();
    expect((await box.call("GET", "/api/v1/health")).json.data.link).toMatchObject({ state: "off", warn_after_seconds: 300 });
  });

  test("URLs are checked: scheme, host, user, no password, no stray query", async () => {
    const { box, admin } = await linkedBox();
    for (const url of [
      "http://hq.example/x",
      "sftp://hq.example/x",
      "sftp://u:secret@hq.example/x",
      "sftp://u@hq.example/",
      "sftp://u@bad_host!/x",
      "s3://Bucket_Bad/x",
      "s3://bucket/x?acl=public",
      "s3://bucket/x?endpoint=ftp://e",
      "not a url",
    ]) {
      const r = await box.call("PUT", "/api/v1/hqlink", { token: admin, body: { url } });
      expect(r.status, url).toBe(422);
      expect(JSON.stringify(r.json)).not.toContain("secret");
    }
    const etc = await box.call("PUT", "/api/v1/hqlink", { token: admin, body: { url: "file:///etc/cron.d" } });
    expect(etc.status).toBe(422);
    expect(etc.json.message).toContain("must be under /srv, /mnt, /media");
    const r = await box.call("PUT", "/api/v1/hqlink", { token: admin, body: { key: "hello" } });
    expect(r.status).toBe(422);
    expect(r.json.message).not.toContain("hello");
  });

  test("the key is stored 0600 in the data folder and never echoed, not even in the audit trail", async () => {
    const { box, admin } = await linkedBox();
    const r = await box.call("PUT", "/api/v1/hqlink", { token: admin, body: { key: key(), site: "Mosta shop", warn_after_seconds: 120 } });
    expect(r.status).toBe(200);
    expect(r.json.data.settings).toMatchObject({ key_set: true, site: "Mosta shop", warn_after_seconds: 120, url: null });
    const secretLine = key().split("\n")[1]!;
    expect(JSON.stringify(r.json)).not.toContain(secretLine);
    expect(JSON.stringify((await box.call("GET", "/api/v1/hqlink", { token: admin })).json)).not.toContain(secretLine);
    expect(statSync(join(box.dir, KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(box.dir, KEY_FILE), "utf8").trim()).toBe(key().trim());
    const audit = await box.database.client.execute("SELECT detail FROM audit_log WHERE entity = 'hq_link'");
    expect(audit.rows.length).toBe(1);
    expect(String(audit.rows[0]!.detail)).toContain('"key":"replaced"');
    expect(String(audit.rows[0]!.detail)).not.toContain(secretLine);
  });

  test("a key is never replaced without its audit row: a failed save keeps the old key", async () => {
    const { box, admin } = await linkedBox();
    expect((await box.call("PUT", "/api/v1/hqlink", { token: admin, body: { key: key() } })).status).toBe(200);
    await box.database.client.execute("CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
    const r = await box.call("PUT", "/api/v1/hqlink", { token: admin, body: { key: wrongKey() } });
    expect(r.status).toBeGreaterThanOrEqual(500);
    expect(readFileSync(join(box.dir, KEY_FILE), "utf8").trim()).toBe(key().trim());
    expect(existsSync(join(box.dir, `${KEY_FILE}.tmp`))).toBe(false);
  });

  test("values preset by the environment cannot be changed on the screen (409)", async () => {
    const { box, admin } = await linkedBox({ IRONBOX_REPLICA_URL: "sftp://root@127.0.0.1:1/preset", IRONBOX_LINK_LAG_WARN_SECONDS: "60" });
    const r = await box.call("PUT", "/api/v1/hqlink", { token: admin, body: { url: "sftp://root@127.0.0.1:2/other" } });
    expect(r.status).toBe(409);
    expect(r.json.message).toContain("IRONBOX_REPLICA_URL");
    const s = (await box.call("GET", "/api/v1/hqlink", { token: admin })).json.data;
    expect(s.settings).toMatchObject({
      url: "sftp://root@127.0.0.1:1/preset",
      warn_after_seconds: 60,
      presets: { url: true, key: false, warn_after_seconds: true },
    });
  });
});

describe("supervisor", () => {
  test("ships to a folder, catches up (lag 0), and is restarted when Litestream is killed", async () => {
    const { box, admin } = await linkedBox();
    const replica = mkdtempSync(join(tmpdir(), "ironbox-replica-"));
    dirs.push(replica);
    await box.call("PUT", "/api/v1/hqlink", { token: admin, body: { url: `file://${replica}/mosta` } });
    const s = await until(box, admin, (x) => x.state === "ok" && x.lag_seconds === 0 && x.shipped !== null);
    expect(s.running).toBe(true);
    expect(s.last_shipped_at).not.toBeNull();
    expect(s.shipped.generation).toMatch(/^[0-9a-f]{16}$/);
    expect(s.shipped).toEqual(s.local);
    // A write moves the box ahead; the link ships it and is level again.
    const before = s.local;
    const c = await box.call("POST", "/api/v1/customers/", { token: admin, body: { full_name: "Link Test" } });
    expect(c.status).toBe(200);
    // Within 30 s: once, in a full CI run on this 2-core machine, Litestream (at nice 10) took more than 15 s.
    const after = await until(box, admin, (x) => x.lag_seconds === 0 && (x.shipped.index !== before.index || x.shipped.offset !== before.offset), 30_000);
    expect(after.shipped).toEqual(after.local);
    expect((await box.call("GET", "/api/v1/health")).json.data.link).toMatchObject({ state: "ok", lag_seconds: 0, last_error: null });

    // Litestream dies: the supervisor starts it again and the link comes back by itself.
    const pid = pidOf(box);
    process.kill(pid, "SIGKILL");
    const back = await until(box, admin, (x) => x.restarts === 1 && x.running && x.state === "ok");
    expect(back.restarts).toBe(1);
    expect(pidOf(box)).not.toBe(pid);

    // Stopping the box waits for Litestream to ship what it has and exit, before the database closes.
    const last = pidOf(box);
    await box.stop();
    expect(existsSync(join(box.dir, "litestream.pid"))).toBe(false);
    expect(() => process.kill(last, 0)).toThrow();
  }, 70_000);

  test("idle after a burst that moves Litestream to new WAL segments: lag 0 and no restart", async () => {
    // The watchdog's patience at 5 s instead of 20: the idle below outlasts it twice, probes included.
    const PATIENCE_MS = 5000;
    const { box, admin } = await linkedBox({}, PATIENCE_MS);
    const replica = mkdtempSync(join(tmpdir(), "ironbox-replica-"));
    dirs.push(replica);
    await box.call("PUT", "/api/v1/hqlink", { token: admin, body: { url: `file://${replica}/burst` } });
    const first = await until(box, admin, (x) => x.state === "ok" && x.lag_seconds === 0 && x.shipped !== null);
    // About 8 s of writes, some 3,000 pages: Litestream checkpoints and starts new segments.
    const db = box.database.client;
    await db.execute("CREATE TABLE burst (id INTEGER PRIMARY KEY, v BLOB)");
    const end = Date.now() + 8000;
    for (let i = 0; i < 80 && Date.now() < end; i++) {
      await db.batch(
        Array.from({ length: 40 }, () => "INSERT INTO burst (v) VALUES (randomblob(3000))"),
        "write",
      );
      await Bun.sleep(100);
    }
    const level = await until(box, admin, (x) => x.lag_seconds === 0 && x.shipped.index > first.shipped.index && x.running, 60_000);
    expect(level.shipped).toEqual(level.local);
    // Then idle: level at every look, and Litestream left alone. A position wrongly seen as
    // pending would be probed after 3 s of quiet (every 5 s) and restarted once the patience
    // is spent: within 3 + 5 + 5 s, so the idle lasts two patiences more than that.
    const idleUntil = Date.now() + 3000 + 5000 + 2 * PATIENCE_MS;
    while (Date.now() < idleUntil) {
      const s = (await box.call("GET", "/api/v1/hqlink", { token: admin })).json.data;
      expect(s).toMatchObject({ state: "ok", lag_seconds: 0, restarts: level.restarts, running: true });
      await Bun.sleep(1000);
    }
  }, 120_000);

  test("a server that is not there: down, in plain words", async () => {
    const { box, admin } = await linkedBox();
    await box.call("PUT", "/api/v1/hqlink", { token: admin, body: { url: `sftp://root@127.0.0.1:${await closedPort()}/mosta`, key: key() } });
    const s = await until(box, admin, (x) => x.last_error !== null && x.running);
    expect(s.state).toBe("down");
    expect(s.last_error).toContain("HQ's server is not answering");
    const check = await box.call("POST", "/api/v1/hqlink/check", { token: admin });
    expect(check.json.data).toEqual({ ok: false, message: "HQ's server is not answering (connection refused)" });
  }, 30_000);

  test("a key HQ does not know: 'HQ's server refused the key'", async () => {
    const { box, admin } = await linkedBox();
    await box.call("PUT", "/api/v1/hqlink", { token: admin, body: { url: hq.url("wrongkey"), key: wrongKey() } });
    const s = await until(box, admin, (x) => x.last_error !== null && x.running);
    expect(s).toMatchObject({ state: "down", last_error: "HQ's server refused the key", shipped: null, last_shipped_at: null });
    expect((await box.call("GET", "/api/v1/health")).json.data.link).toMatchObject({ state: "down", last_error: "HQ's server refused the key" });
    expect((await box.call("POST", "/api/v1/hqlink/check", { token: admin })).json.data).toEqual({ ok: false, message: "HQ's server refused the key" });
  }, 30_000);

  test("over SFTP to the real sshd: shipped, level, and the files are in the site's chrooted folder", async () => {
    const { box, admin } = await linkedBox();
    await box.call("PUT", "/api/v1/hqlink", { token: admin, body: { url: hq.url("mosta"), key: key(), site: "Mosta" } });
    const s = await until(box, admin, (x) => x.state === "ok" && x.lag_seconds === 0 && x.shipped !== null && x.shipped.offset > 0);
    expect(statSync(join(hq.dir("mosta"), "generations", s.shipped.generation, "snapshots")).isDirectory()).toBe(true);
    // Two tablets press Check at once: one check runs, both get its answer.
    const [a, b] = await Promise.all([1, 2].map(async () => (await box.call("POST", "/api/v1/hqlink/check", { token: admin })).json.data));
    for (const check of [a, b]) {
      expect(check.ok).toBe(true);
      expect(check.message).toMatch(/^HQ's storage answered: [1-9]\d* snapshots? of this box there$/);
    }
    expect(statSync(join(box.dir, "litestream.yml")).mode & 0o777).toBe(0o600);
  }, 30_000);
});

test("HQ's server goes away and comes back: the counter goes on, the link says so, then catches up by itself", async () => {
  const { box, admin } = await linkedBox();
  await box.call("PUT", "/api/v1/hqlink", { token: admin, body: { url: hq.url("outage"), key: key() } });
  await until(box, admin, (x) => x.state === "ok" && x.lag_seconds === 0 && x.shipped !== null);
  await hq.stop();
  try {
    // The counter answers during the outage (its latency then is scripts/faults/link-outage's bar).
    expect((await box.call("POST", "/api/v1/customers/", { token: admin, body: { full_name: "During the outage" } })).status).toBe(200);
    const down = await until(box, admin, (x) => x.state === "down", 25_000);
    expect(down.last_error).toBe("HQ's server is not answering");
    // HQ is probed once the link is 3 s behind and quiet (machine.ts): down is said from then.
    expect(down.lag_seconds).toBeGreaterThanOrEqual(3);
  } finally {
    await hq.start();
  }
  // Litestream may be stuck on the dead connection: the watchdog restarts it once HQ answers.
  const back = await until(box, admin, (x) => x.state === "ok" && x.lag_seconds === 0, 45_000);
  expect(back.last_error).toBeNull();
}, 90_000);

/** A loopback port nothing listens on (asked of the kernel, then closed). */
function closedPort(): Promise<number> {
  return new Promise((res) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

/** Litestream's process id, from its pid file in the data folder. */
function pidOf(box: TestBox): number {
  return Number(readFileSync(join(box.dir, "litestream.pid"), "utf8"));
}
