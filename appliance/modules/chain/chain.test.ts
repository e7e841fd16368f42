/**
 * HQ mode (issue 15). Two demo shop boxes (identical demo data, so the same ticket ids) each
 * take a ticket through their API and ship their database to a file:// replica with a real
 * `litestream replicate`; HQ's box restores them with the real `litestream restore`. The
 * scheduler's failure paths run the real Litestream behind a stand-in that fails on cue.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { fixedClock } from "../../platform/clock";
import { loadConfig } from "../../platform/config";
import { type TestBox, testBox } from "../../test/harness";
import { until } from "../../test/poll";
import { freePort } from "../../test/ports";
import { createReportService } from "../reports/service";
import { startSshd } from "../../../scripts/faults/sshd";
import { LITESTREAM_BIN } from "../../../drivers/replication/litestream";
import { createChainService } from "./service";
import { expectedSchemaVersion } from "../../../db/version";
import { replicate, shipSite } from "../../test/chainSites";

const NOW = "2026-11-22T09:00:00Z";
const tmp = mkdtempSync(join(tmpdir(), "ironbox-chain-"));
const storage = join(tmp, "storage");
/** Ticket id taken at each shop: the same number at both. */
const ticket: Record<string, number> = {};
let hq: TestBox;
let hqStaff: string;

beforeAll(async () => {
  mkdirSync(storage);
  ticket.mosta = await shipSite(storage, "mosta", "Mosta Customer", NOW);
  ticket.birkirkara = await shipSite(storage, "birkirkara", "Birkirkara Customer", NOW);
  // Folders that are not sites: a bad name, and a site that has not shipped yet.
  mkdirSync(join(storage, "Bad_Name"));
  mkdirSync(join(storage, "qormi"));
  hq = await testBox({ demo: true, now: NOW, env: { IRONBOX_MODE: "hq", IRONBOX_HQ_STORAGE: storage, IRONBOX_HQ_RESTORE_SECONDS: "0" } });
  hqStaff = await hq.employeeToken(1111);
}, 60_000);

afterAll(() => {
  hq?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("site names", () => {
  const hqEnv = (sites: string) => ({ IRONBOX_MODE: "hq", IRONBOX_SITES: sites });
  test("IRONBOX_SITES takes lower-case names and file://, sftp:// or s3:// replicas", () => {
    const c = loadConfig(hqEnv("mosta=sftp://mosta@hq.example:2222/replica, birkirkara-2=file:///srv/ironbox/birkirkara"));
    expect(c.hq?.sites).toEqual([
      { name: "mosta", url: "sftp://mosta@hq.example:2222/replica" },
      { name: "birkirkara-2", url: "file:///srv/ironbox/birkirkara" },
    ]);
    for (const bad of [
      "../etc=file:///x",
      "Mosta=file:///x",
      "mo sta=file:///x",
      "=file:///x",
      "mosta=http://x/y",
      "mosta=file:relative",
      "a=file:///x,a=file:///y",
    ]) {
      expect(() => loadConfig(hqEnv(bad))).toThrow(/IRONBOX_SITES/);
    }
    // The error names the site, never the URL (a password may be in it).
    expect(() => loadConfig(hqEnv("mosta=ftp://u:s3cret@x/y"))).toThrow(/^(?!.*s3cret)/);
  });

  test("storage folders with other names are not sites; a path in the name is refused", async () => {
    const r = await hq.call("GET", "/api/v1/chain/sites", { token: hqStaff });
    expect(r.status).toBe(200);
    expect(r.json.data.map((s: { site: string }) => s.site)).toEqual(["birkirkara", "mosta", "qormi"]);
    expect((await hq.call("POST", "/api/v1/chain/sites/..%2Fetc/restore", { token: hqStaff })).status).toBe(422);
    expect((await hq.call("POST", "/api/v1/chain/sites/Mosta/restore", { token: hqStaff })).status).toBe(422);
    expect((await hq.call("POST", "/api/v1/chain/sites/nowhere/restore", { token: hqStaff })).status).toBe(404);
  });
});

describe("restores and chain reports", () => {
  test("a restore swaps in a checked, read-only copy and reports its last data and takings", async () => {
    for (const site of ["mosta", "birkirkara"]) {
      const r = await hq.call("POST", `/api/v1/chain/sites/${site}/restore`, { token: hqStaff });
      expect(r.status).toBe(200);
      expect(r.json.data).toMatchObject({ site, has_copy: true, last_error: null, restores: 1, restoring: false });
      expect(r.json.data.replica).toBe(`file://${storage}/${site}`);
      expect(r.json.data.today_takings).toBeGreaterThan(0);
      expect(r.json.data.last_data_at).toMatch(/^\d{4}-/);
    }
    // The copy is a rollback-journal database: nothing beside it for a reader to pair with a newer copy.
    const copy = readFileSync(join(hq.dir, "sites", "mosta.db"));
    expect(copy.subarray(0, 16).toString()).toBe("SQLite format 3\0");
    expect(copy[18]).toBe(1); // file format 1: not WAL
    const qormi = (await hq.call("POST", "/api/v1/chain/sites/qormi/restore", { token: hqStaff })).json.data;
    expect(qormi).toMatchObject({ has_copy: false, replica: null });
    expect(qormi.last_error).toMatch(/No replica of this site has arrived yet/);
  }, 60_000);

  test("records are keyed by (site, id): one ticket id at two shops is two rows with their site", async () => {
    expect(ticket.mosta).toBe(ticket.birkirkara!);
    const r = await hq.call("GET", "/api/v1/chain/reports/itemReport?from=2026-11-01&to=2026-11-30", { token: hqStaff });
    expect(r.status).toBe(200);
    const rows = parse(String(r.json).replace(/^\uFEFF/, ""), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)[0]).toBe("Site");
    const ours = rows.filter((x) => x["Ticket ID"] === String(ticket.mosta));
    expect(ours.map((x) => [x.Site, x.Customer]).sort()).toEqual([
      ["birkirkara", "Birkirkara Customer"],
      ["mosta", "Mosta Customer"],
    ]);
    // ?site= narrows to one site's copy.
    const one = await hq.call("GET", "/api/v1/chain/reports/itemReport?from=2026-11-01&to=2026-11-30&site=mosta", { token: hqStaff });
    const oneRows = parse(String(one.json).replace(/^\uFEFF/, ""), { columns: true }) as Record<string, string>[];
    expect(oneRows.length).toBe(rows.length / 2);
    expect(new Set(oneRows.map((x) => x.Site))).toEqual(new Set(["mosta"]));
    // A site without a copy yet is a conflict; an unknown one is not found.
    expect((await hq.call("GET", "/api/v1/chain/reports/salesReport?from=2026-11-01&to=2026-11-30&site=qormi", { token: hqStaff })).status).toBe(409);
    expect((await hq.call("GET", "/api/v1/chain/reports/salesReport?from=2026-11-01&to=2026-11-30&site=nowhere", { token: hqStaff })).status).toBe(404);
    const xlsx = await hq.call("GET", "/api/v1/chain/reports/salesReport?from=2026-11-01&to=2026-11-30&format=xlsx", { token: hqStaff });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get("content-type")).toContain("spreadsheetml");
  }, 60_000);

  test("the statistics: each site's and their sum", async () => {
    const r = await hq.call("GET", "/api/v1/chain/statistics", { token: hqStaff });
    expect(r.status).toBe(200);
    const { chain, sites } = r.json.data;
    expect(sites.map((s: { site: string }) => s.site)).toEqual(["birkirkara", "mosta"]);
    const today = sites.map((s: any) => s.statistics.periods.today);
    expect(today[0].tickets).toBeGreaterThan(0);
    expect(chain.periods.today.tickets).toBe(today[0].tickets + today[1].tickets);
    expect(chain.periods.month.takings).toBeCloseTo(sites[0].statistics.periods.month.takings + sites[1].statistics.periods.month.takings, 2);
    const one = await hq.call("GET", "/api/v1/chain/statistics?site=mosta", { token: hqStaff });
    expect(one.json.data.sites.map((s: { site: string }) => s.site)).toEqual(["mosta"]);
  }, 60_000);
});

describe("roles and modes", () => {
  test("only HQ staff, and only on an HQ-mode box", async () => {
    const manager = await hq.employeeToken(2222);
    const shopAdmin = await hq.employeeToken(5555, await hq.agentToken("birkirkara", "shop-demo-2026"));
    for (const token of [manager, shopAdmin]) {
      expect((await hq.call("GET", "/api/v1/chain/sites", { token })).status).toBe(403);
      if (token === shopAdmin)
        expect((await hq.call("GET", "/api/v1/chain/sites", { token })).json.message).toBe("Only head-quarters staff may see the whole chain");
      expect((await hq.call("POST", "/api/v1/chain/sites/mosta/restore", { token })).status).toBe(403);
      expect((await hq.call("GET", "/api/v1/chain/statistics", { token })).status).toBe(403);
    }
    const shopBox = await testBox({ now: NOW });
    try {
      const admin = await shopBox.employeeToken(9999);
      const r = await shopBox.call("GET", "/api/v1/chain/sites", { token: admin });
      expect(r.status).toBe(409);
      expect(r.json.message).toMatch(/IRONBOX_MODE=hq/);
      expect((await shopBox.call("GET", "/api/v1/chain/reports/itemReport?from=2026-11-01&to=2026-11-30", { token: admin })).status).toBe(409);
    } finally {
      shopBox.close();
    }
  });
});

describe("the restore scheduler", () => {
  // The real Litestream behind a stand-in that counts its runs and, on cue, fails with EOF
  // first, takes its time, or damages what it restored.
  const cue = join(tmp, "cue");
  const stand = join(tmp, "litestream-stand-in.sh");
  const dataDir = join(tmp, "hq2");
  const runs = () => readFileSync(join(cue, "runs"), "utf8").split("\n").filter(Boolean).length;
  let chain: ReturnType<typeof createChainService>;

  beforeAll(() => {
    mkdirSync(cue);
    mkdirSync(dataDir);
    writeFileSync(join(cue, "runs"), "");
    writeFileSync(
      stand,
      `#!/bin/sh
# Only restores are counted and failed on cue (the listing before a restore passes through).
[ "$1" = "restore" ] || exec "${LITESTREAM_BIN}" "$@"
echo run >> "${cue}/runs"
out=""; prev=""
for a in "$@"; do [ "$prev" = "-o" ] && out="$a"; prev="$a"; done
if [ -e "${cue}/eof" ]; then rm -f "${cue}/eof"; echo "time=x level=ERROR msg=\\"failed to run\\" error=\\"cannot restore wal: unexpected EOF\\"" >&2; exit 1; fi
[ -e "${cue}/slow" ] && sleep 1
"${LITESTREAM_BIN}" "$@" || exit $?
if [ -e "${cue}/corrupt" ]; then dd if=/dev/urandom of="$out" bs=4096 seek=2 count=40 conv=notrunc 2>/dev/null; fi
`,
    );
    chmodSync(stand, 0o755);
    const clock = fixedClock(NOW);
    chain = createChainService({
      hq: { sites: [], storage, restoreEverySec: 0, sftpKey: null },
      dataDir,
      clock,
      reports: createReportService({ db: { url: `file:${join(dataDir, "none.db")}` }, clock }),
      log: () => {},
      litestream: stand,
    });
  });

  test("a restore that meets EOF (an upload under way) is tried again", async () => {
    writeFileSync(join(cue, "eof"), "");
    const before = runs();
    const s = await chain.restoreNow("mosta");
    expect(runs() - before).toBe(2);
    expect(s).toMatchObject({ last_error: null, restores: 1, retries: 1, has_copy: true });
  }, 30_000);

  test("a copy that fails its integrity check is thrown away; the previous copy stays", async () => {
    const copy = join(dataDir, "sites", "mosta.db");
    const before = statSync(copy);
    const bytes = readFileSync(copy);
    writeFileSync(join(cue, "corrupt"), "");
    try {
      const s = await chain.restoreNow("mosta");
      expect(s.last_error).toMatch(/failed its integrity check.*previous copy stays/);
      expect(s.restores).toBe(1);
    } finally {
      rmSync(join(cue, "corrupt"));
    }
    expect(statSync(copy).ino).toBe(before.ino);
    expect(readFileSync(copy).equals(bytes)).toBe(true);
    // Nothing of the failed attempt is left beside the copies.
    expect(readdirSync(join(dataDir, "sites")).filter((f) => f.startsWith(".restoring"))).toEqual([]);
    // The next good restore clears the error.
    expect((await chain.restoreNow("mosta")).last_error).toBeNull();
  }, 30_000);

  test("a reader that holds the old copy keeps reading it whole while a new one is swapped in", async () => {
    const copy = join(dataDir, "sites", "mosta.db");
    const reader = new Database(copy, { readonly: true });
    try {
      const count = () => (reader.query("SELECT count(*) FROM tickets").values()[0] as [number])[0];
      const before = count();
      const ino = statSync(copy).ino;
      expect((await chain.restoreNow("mosta")).last_error).toBeNull();
      expect(statSync(copy).ino).not.toBe(ino);
      expect(count()).toBe(before);
      expect((reader.query("PRAGMA integrity_check").values()[0] as [string])[0]).toBe("ok");
    } finally {
      reader.close();
    }
  }, 30_000);

  test("two restores of one site at once are one restore", async () => {
    writeFileSync(join(cue, "slow"), "");
    try {
      const before = runs();
      const [a, b] = await Promise.all([chain.restoreNow("birkirkara"), chain.restoreNow("birkirkara")]);
      expect(runs() - before).toBe(1);
      expect(a.restores).toBe(1);
      expect(b.restores).toBe(1);
    } finally {
      rmSync(join(cue, "slow"));
    }
  }, 30_000);

  test("stopping HQ's box stops a restore under way: no retry, no swap", async () => {
    const clock = fixedClock(NOW);
    const stopping = createChainService({
      hq: { sites: [], storage, restoreEverySec: 0, sftpKey: null },
      dataDir: join(tmp, "hq-stopping"),
      clock,
      reports: createReportService({ db: { url: `file:${join(tmp, "none.db")}` }, clock }),
      log: () => {},
      litestream: stand,
    });
    writeFileSync(join(cue, "slow"), "");
    try {
      const before = runs();
      const restoring = stopping.restoreNow("mosta");
      // Stopped once the (slow) restore runs.
      await until(() => runs() !== before, { what: "the slow restore starting" });
      stopping.stop();
      const s = await restoring;
      expect(runs() - before).toBe(1);
      expect(s).toMatchObject({ restores: 0, retries: 0, has_copy: false });
      expect(s.last_error).not.toBeNull();
    } finally {
      rmSync(join(cue, "slow"));
    }
  }, 30_000);
});

describe("over SFTP", () => {
  // A real OpenSSH server (key login, chrooted) holding mosta's replica, as HQ's storage does.
  test("a site listed with an sftp:// URL restores with IRONBOX_HQ_SFTP_KEY; a wrong key is said plainly", async () => {
    const sshd = await startSshd({ port: await freePort() });
    try {
      const url = sshd.url("mosta");
      cpSync(join(storage, "mosta"), sshd.dir("mosta"), { recursive: true });
      const clock = fixedClock(NOW);
      const chainWith = (key: string, dir: string) =>
        createChainService({
          hq: { sites: [{ name: "mosta", url }], storage: null, restoreEverySec: 0, sftpKey: key },
          dataDir: join(tmp, dir),
          clock,
          reports: createReportService({ db: { url: `file:${join(tmp, "none.db")}` }, clock }),
          log: () => {},
        });
      const good = await chainWith(sshd.keyPath, "sftp-good").restoreNow("mosta");
      expect(good).toMatchObject({ last_error: null, has_copy: true, restores: 1 });
      const bad = await chainWith(sshd.wrongKeyPath, "sftp-bad").restoreNow("mosta");
      expect(bad.has_copy).toBe(false);
      expect(bad.last_error).toMatch(/refused the SFTP login/);
    } finally {
      await sshd.close();
    }
  }, 60_000);
});

describe("HQ reads shop copies by contract", () => {
  // Three shops of its own: one on HQ's schema, one a migration behind (an older release), one
  // a migration ahead whose tickets table HQ's SQL would no longer read (a renamed column).
  const store = join(tmp, "versions");
  const shops: TestBox[] = [];
  let chain: ReturnType<typeof createChainService>;
  let release = "";

  async function shop(site: string, alter: (sql: (q: string) => Promise<unknown>) => Promise<void>) {
    const box = await testBox({ demo: true, now: NOW });
    shops.push(box);
    await alter((q) => box.database.client.execute(q));
    const ship = async () => (await replicate(join(box.dir, "ironbox.db"), join(store, site))).stop();
    await ship();
    return { box, ship };
  }

  beforeAll(async () => {
    mkdirSync(store);
    const clock = fixedClock(NOW);
    chain = createChainService({
      hq: { sites: [], storage: store, restoreEverySec: 0, sftpKey: null },
      dataDir: join(tmp, "hq-versions"),
      clock,
      reports: createReportService({ db: { url: `file:${join(tmp, "none.db")}` }, clock }),
      log: () => {},
    });
  }, 60_000);
  afterAll(() => {
    for (const b of shops) b.close();
  });

  test("every database knows its schema version and release; HQ reads the current one, and not one behind or ahead", async () => {
    const current = await shop("current", async () => {});
    release = String((await current.box.database.client.execute("SELECT value FROM box_settings WHERE key = 'release'")).rows[0]!.value);
    expect(release).toMatch(/^\d+\.\d+\.\d+/);
    await shop("behind", async (sql) => {
      await sql("DELETE FROM __drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM __drizzle_migrations)");
      await sql("UPDATE box_settings SET value = '0.0.1' WHERE key = 'release'");
    });
    await shop("ahead", async (sql) => {
      await sql("INSERT INTO __drizzle_migrations (hash, created_at) SELECT 'a-newer-release', max(created_at) + 1000 FROM __drizzle_migrations");
      await sql("ALTER TABLE tickets RENAME COLUMN created_at TO opened_at");
      await sql("UPDATE box_settings SET value = '99.0.0' WHERE key = 'release'");
    });
    const expected = expectedSchemaVersion();
    await chain.restoreAll();
    const sites = Object.fromEntries(chain.list().map((x) => [x.site, x]));
    expect(sites.current).toMatchObject({ has_copy: true, last_error: null, schema: { version: expected, release, status: "current" }, schema_note: null });
    expect(sites.current!.last_data_at).toMatch(/^\d{4}-/);
    expect(sites.behind).toMatchObject({
      has_copy: true,
      last_error: null,
      last_data_at: null,
      schema: { version: expected - 1, release: "0.0.1", status: "behind" },
    });
    expect(sites.behind!.schema_note).toBe(
      `This site is on an older release (schema ${expected - 1}, release 0.0.1; HQ reads schema ${expected}): reports for this site wait until it upgrades`,
    );
    expect(sites.ahead).toMatchObject({
      has_copy: true,
      last_error: null,
      last_data_at: null,
      schema: { version: expected + 1, release: "99.0.0", status: "ahead" },
    });
    expect(sites.ahead!.schema_note).toBe(
      `This site runs a newer release than HQ (schema ${expected + 1}, release 99.0.0; HQ reads schema ${expected}): reports for this site wait until HQ upgrades`,
    );
    // Reports read only the current copy: every row's site is "current"; asking for another says why.
    const report = await chain.report("itemReport", { from: "2026-11-01", to: "2026-11-30" } as never, undefined);
    expect(report.kind).toBe("file");
    const text = await new Response((report as { body: ReadableStream }).body).text();
    const rows = parse(text.replace(/^\uFEFF/, ""), { columns: true }) as Record<string, string>[];
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.Site))).toEqual(new Set(["current"]));
    expect(() => chain.report("itemReport", { from: "2026-11-01", to: "2026-11-30" } as never, "behind")).toThrow(/wait until it upgrades/);
    expect(() => chain.report("itemReport", { from: "2026-11-01", to: "2026-11-30" } as never, "ahead")).toThrow(/wait until HQ upgrades/);
    expect((await chain.statistics()).map((x) => x.site)).toEqual(["current"]);
  }, 240_000);

  test("a round restores only the sites whose replica moved since their last restore", async () => {
    const before = Object.fromEntries(chain.list().map((x) => [x.site, x.restores]));
    await chain.restoreAll();
    const idle = Object.fromEntries(chain.list().map((x) => [x.site, x]));
    for (const site of ["current", "behind", "ahead"]) expect(idle[site]).toMatchObject({ restores: before[site], unchanged_rounds: 1 });
    // One shop takes a write and ships it: only that one is restored next round.
    const box = shops[0]!;
    await box.database.client.execute("UPDATE box_settings SET value = value WHERE key = 'release'");
    await box.database.client.execute("INSERT INTO box_settings (key, value) VALUES ('moved', '1')");
    await (await replicate(join(box.dir, "ironbox.db"), join(store, "current"))).stop();
    await chain.restoreAll();
    const after = Object.fromEntries(chain.list().map((x) => [x.site, x]));
    expect(after.current).toMatchObject({ restores: before.current! + 1, unchanged_rounds: 1 });
    expect(after.behind).toMatchObject({ restores: before.behind, unchanged_rounds: 2 });
    expect(after.ahead).toMatchObject({ restores: before.ahead, unchanged_rounds: 2 });
  }, 120_000);
});

describe("a WAL segment torn at HQ", () => {
  // A shop box that dies while uploading leaves its newest segment torn (Litestream 0.3.13's
  // SFTP client writes in place), and every restore of the latest fails on it.
  test("HQ restores everything before the torn segment and says so; control: whole, it restores all", async () => {
    const store = join(tmp, "torn-storage");
    const replica = join(store, "zebbug");
    mkdirSync(replica, { recursive: true });
    // A shop database (mosta's, from its replica) that takes three marks, each shipped as a segment of its own.
    const src = join(tmp, "torn-src.db");
    expect(await Bun.spawn([LITESTREAM_BIN, "restore", "-o", src, `file://${join(storage, "mosta")}`], { stderr: "ignore" }).exited).toBe(0);
    const db = new Database(src);
    db.exec("PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS torn_marks (n INTEGER)");
    const rep = await replicate(src, replica);
    const wal = () => {
      const gens = join(replica, "generations");
      return readdirSync(gens)
        .flatMap((g) => (existsSync(join(gens, g, "wal")) ? readdirSync(join(gens, g, "wal")).map((f) => join(gens, g, "wal", f)) : []))
        .sort();
    };
    for (const n of [1, 2, 3]) {
      const before = wal().length;
      db.exec(`INSERT INTO torn_marks VALUES (${n})`);
      await until(() => wal().length > before || null, { what: `mark ${n} shipped`, ms: 15_000 });
    }
    await rep.stop(0);
    db.close();
    const logs: string[] = [];
    const clock = fixedClock(NOW);
    const chain = createChainService({
      hq: { sites: [], storage: store, restoreEverySec: 0, sftpKey: null },
      dataDir: join(tmp, "hq-torn"),
      clock,
      reports: createReportService({ db: { url: `file:${join(tmp, "none.db")}` }, clock }),
      log: (m) => logs.push(m),
    });
    const marks = () => {
      const copy = new Database(join(tmp, "hq-torn", "sites", "zebbug.db"), { readonly: true });
      try {
        return (copy.query("SELECT n FROM torn_marks ORDER BY n").values() as [number][]).map(([n]) => n);
      } finally {
        copy.close();
      }
    };
    // Control: the replica whole.
    expect(await chain.restoreNow("zebbug")).toMatchObject({ last_error: null, has_copy: true });
    expect(marks()).toEqual([1, 2, 3]);
    // The newest segment (the third mark) cut in half, as a box killed mid-upload leaves it.
    const newest = wal().pop()!;
    truncateSync(newest, Math.floor(statSync(newest).size / 2));
    const s = await chain.restoreNow("zebbug");
    expect(s.last_error).toMatch(/newest WAL segment at HQ cannot be read .*restored everything before it \(index \d+, offset \d+ .*left out\)/);
    expect(s).toMatchObject({ has_copy: true, restores: 2 });
    expect(marks()).toEqual([1, 2]);
    expect(logs.some((l) => l.includes("zebbug: The newest WAL segment at HQ cannot be read"))).toBe(true);
  }, 120_000);
});
