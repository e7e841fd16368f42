// Issue 26: a broken or hostile old system. A stand-in on loopback passes the demo box's
// answers through and spoils some: HTML instead of JSON, a 500 in the middle, an absurd
// amount, a 50 MB name, a price whose garment is unknown. Each is refused on its own with a
// reason; the rest comes in whole; a dry run reports the same and writes nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { TestBox } from "../../test/harness";
import { checkSourceHost, checkSourceUrl } from "./url";
import { ADMIN, importInto, type Served, serve, testBox } from "./testkit";

let src: TestBox;
let served: Served;
let hostile: ReturnType<typeof Bun.serve>;
let flaky = 0;

beforeAll(async () => {
  src = await testBox({ demo: true });
  served = serve(src);
  hostile = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const u = new URL(req.url);
      const path = u.pathname.replace("/api/v1", "");
      if (path === "/preferences/") return new Response("<html><body>Bad gateway</body></html>", { headers: { "content-type": "text/html" } });
      // One transient failure: tried again and read.
      if (path === "/modifiers/" && flaky++ === 0) return new Response("oops", { status: 503 });
      const res = await fetch(`${served.url}${u.pathname}${u.search}`, {
        method: req.method,
        headers: req.headers,
        body: req.method === "GET" ? undefined : await req.text(),
      });
      if (!res.ok) return res;
      const body = (await res.json()) as { success: boolean; data: any };
      const offset = Number(u.searchParams.get("offset") ?? 0);
      const limit = Number(u.searchParams.get("limit") ?? 0);
      const covers = (i: number) => offset <= i && i < offset + limit;
      if (path === "/customers/" && covers(2)) {
        // The third customer's name is 50 MB: the whole answer is over the bound.
        body.data[2 - offset].full_name = "A".repeat(50 * 1024 * 1024);
      }
      if (path === "/customers/" && covers(4)) body.data[4 - offset].full_name = "B".repeat(5000);
      if (path === "/actionGarmentSubCategories/")
        body.data.push({ id: 999, garment_sub_category_id: 4242, action_id: 1, price: 5, discount: null, is_percentage_of: null });
      if (path === "/tickets/" && covers(3)) return new Response("Internal error", { status: 500 }); // every time
      if (path === "/tickets/" && covers(1)) body.data[1 - offset].total = 1e12;
      return Response.json(body);
    },
  });
}, 60_000);
afterAll(() => {
  hostile.stop(true);
  served.stop();
  src.close();
});

const reasons = (r: { refusals: { kind: string; id: number | null; reason: string }[] }) => r.refusals.map((x) => `${x.kind} ${x.id}: ${x.reason}`);

test("broken answers are refused one by one with a reason, and nothing half-written", async () => {
  const dst = await testBox({});
  try {
    const url = `http://127.0.0.1:${hostile.port}`;
    const dry = await importInto(dst, url, { pageSize: 10, dryRun: true });
    const count = async (t: string) => (await dst.database.db.all<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM ${t}`)))[0]!.n;
    expect(await count("customers")).toBe(0);
    expect(await count("tickets")).toBe(0);
    expect(await count("import_records")).toBe(0);
    expect(await count("import_runs")).toBe(0);

    flaky = 0;
    const real = await importInto(dst, url, { pageSize: 10 });
    for (const r of [dry, real]) {
      const said = reasons(r).join("\n");
      expect(said).toContain("preference null: /preferences/: answered HTML, not JSON");
      expect(said).toMatch(/customer null: record at offset 2: answer is larger than 16 MB/);
      expect(said).toMatch(/customer \d+: full_name: longer than 200 characters/);
      expect(said).toContain("price 999: garment (garment_sub_category_id) 4242 is not in the old system's answer nor on this box");
      expect(said).toMatch(/ticket null: record at offset 3: the old system failed \(HTTP 500\)/);
      expect(said).toMatch(/ticket \d+: total: absurd amount/);
      // A customer refused takes its tickets with it, each saying why.
      expect(said).toMatch(/ticket \d+: customer \d+ is not in the old system's answer nor on this box/);
      // Customers with preferences are refused (their preferences could not be read); the others come.
      expect(r.kinds.modifier!.refused).toBe(0);
    }
    expect(dry.kinds.customer).toMatchObject({ new: real.kinds.customer!.new, refused: real.kinds.customer!.refused });
    expect(dry.kinds.ticket).toMatchObject({ new: real.kinds.ticket!.new, refused: real.kinds.ticket!.refused });

    // What was refused is absent entirely; what came is whole and its money equals the source's.
    const absurd = real.refusals.find((x) => x.kind === "ticket" && x.reason.includes("absurd"))!;
    expect((await dst.database.db.all(sql`SELECT id FROM tickets WHERE id = ${absurd.id}`)).length).toBe(0);
    expect((await dst.database.db.all(sql`SELECT id FROM ticket_sub_categories WHERE ticket_id = ${absurd.id}`)).length).toBe(0);
    expect(real.money.equal_to_source).toBe(true);
    const here = await dst.database.db.all<{ id: number; total: number; total_paid: number }>(sql`SELECT id, total, total_paid FROM tickets ORDER BY id`);
    expect(here.length).toBe(real.kinds.ticket!.new);
    expect(here.length).toBeGreaterThan(10);
    const there = new Map(
      (await src.database.db.all<{ id: number; total: number; total_paid: number }>(sql`SELECT id, total, total_paid FROM tickets`)).map((t) => [t.id, t]),
    );
    for (const t of here) expect(t).toEqual(there.get(t.id)!);
  } finally {
    dst.close();
  }
}, 180_000);

test("the old system's address: http(s) only, never link-local or metadata; loopback only from the command line", async () => {
  expect(checkSourceUrl("http://192.168.1.20:8080", { allowLoopback: false })).toBeNull();
  expect(checkSourceUrl("https://old.example.com/api/v1", { allowLoopback: false })).toBeNull();
  expect(checkSourceUrl("http://127.0.0.1:8080", { allowLoopback: true })).toBeNull();
  expect(checkSourceUrl("file:///etc/passwd", { allowLoopback: true })).toContain("only http");
  expect(checkSourceUrl("gopher://x", { allowLoopback: true })).toContain("only http");
  expect(checkSourceUrl("http://169.254.169.254/latest/meta-data", { allowLoopback: true })).toContain("link-local");
  expect(checkSourceUrl("http://[fe80::1]/", { allowLoopback: true })).toContain("link-local");
  expect(checkSourceUrl("http://[::ffff:169.254.169.254]/", { allowLoopback: true })).toContain("link-local");
  expect(checkSourceUrl("http://metadata.google.internal/", { allowLoopback: true })).toContain("metadata");
  expect(checkSourceUrl("http://127.0.0.1:8080", { allowLoopback: false })).toContain("loopback");
  expect(checkSourceUrl("http://localhost:8080", { allowLoopback: false })).toContain("loopback");
  expect(checkSourceUrl("http://user:pw@10.0.0.5/", { allowLoopback: false })).toContain("password");
  // A name is checked by what it resolves to.
  expect(await checkSourceHost("http://localhost:8080", { allowLoopback: false })).toContain("loopback");
  expect(await checkSourceHost("http://localhost:8080", { allowLoopback: true })).toBeNull();
});

test("a wrong PIN at the old system stops the import before anything is read", async () => {
  const dst = await testBox({});
  try {
    await expect(importInto(dst, served.url, { pin: "1212" })).rejects.toThrow("employee login failed");
    await expect(importInto(dst, served.url, { password: "nope-nope-1" })).rejects.toThrow("agent login failed");
    const runs = await dst.database.db.all<{ status: string }>(sql`SELECT status FROM import_runs`);
    expect(runs.map((r) => r.status)).toEqual(["failed", "failed"]);
    expect(ADMIN.pin).not.toBe("1212");
  } finally {
    dst.close();
  }
}, 60_000);
