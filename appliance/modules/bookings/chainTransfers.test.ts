import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { eq } from "drizzle-orm";
import { agents, customers, deposits } from "../../../db/schema";
import { expectedSchemaVersion } from "../../../db/version";
import { type TestBox, testBox } from "../../test/harness";
import { DEPOSIT_TRANSFER_KIND } from "../money/transferApply";
import { publicKeyText, SIGNING_KEY_FILE } from "../reference/signing";
import { issuedEnvelopes } from "./downlink";

// Issue 34, deposits moved between boxes: HQ's route starts a transfer from a customer and shops
// it finds in the sites' copies (each copy written here as HQ's restore would leave it: a
// database file and its note that the schema is current), the source box applies phase out,
// the destination phase in (creating the customer it does not know), each once, and HQ's list
// follows them through the copies.
const TOKEN = "t".repeat(40);
const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const API = "/api/v1";
const MOBILE = "79004321";

let hq: TestBox;
let a: TestBox; // site "bkr": the customer's money is at its shop birkirkara
let b: TestBox; // site "gzr": the destination, which has never seen the customer
let staff = "";
let bkr = 0;
let mosta = 0;
let customer = 0;

const shopEnv = (site: string) => ({
  // Nothing answers there: the tests hand the boxes the envelopes HQ serves.
  IRONBOX_HQ_URL: "http://127.0.0.1:9/",
  IRONBOX_HQ_PUBLIC_KEY: publicKeyText(publicKey),
  IRONBOX_HQ_TOKEN: TOKEN,
  IRONBOX_SITE_NAME: site,
});
/** What a restore round does, in one step: the site's database, read-only at HQ, with its note. */
async function restore(site: string, box: TestBox) {
  const file = join(hq.dir, "sites", `${site}.db`);
  rmSync(file, { force: true });
  // A connection of its own: the box's client runs each statement in a batch, where VACUUM is refused.
  const c = createClient({ url: `file:${join(box.dir, "ironbox.db")}` });
  try {
    await c.execute(`VACUUM INTO '${file}'`);
  } finally {
    c.close();
  }
  const schema = { version: expectedSchemaVersion(), release: null, status: "current" };
  writeFileSync(`${file}.json`, JSON.stringify({ schema, listing: null }));
}
const post = (body: unknown, key?: string, token = staff) =>
  hq.call("POST", `${API}/chain/deposits/transfers`, { token, body, headers: key ? { "idempotency-key": key } : undefined });
const list = async () => (await hq.call("GET", `${API}/chain/deposits/transfers`, { token: staff })).json.data as { transfer_id: string; phase: string }[];
const phaseOf = async (id: string) => (await list()).find((t) => t.transfer_id === id)?.phase;
const body = async (uid: string) =>
  JSON.parse((await hq.database.client.execute({ sql: "SELECT body FROM downlinks WHERE uid = ?", args: [uid] })).rows[0]![0] as string);
const held = async (box: TestBox, customerId: number, agentId: number) =>
  (await box.database.db.select().from(deposits).where(eq(deposits.customer_id, customerId)))
    .filter((d) => d.agent_id === agentId)
    .reduce((s, d) => s + d.amount, 0);

beforeAll(async () => {
  [a, b] = await Promise.all([testBox({ demo: true, env: shopEnv("bkr") }), testBox({ demo: true, env: shopEnv("gzr") })]);
  hq = await testBox({
    demo: true,
    env: { IRONBOX_MODE: "hq", IRONBOX_HQ_TOKEN: TOKEN, IRONBOX_SITES: "bkr=file:///nowhere/bkr,gzr=file:///nowhere/gzr", IRONBOX_HQ_RESTORE_SECONDS: "0" },
  });
  writeFileSync(join(hq.dir, SIGNING_KEY_FILE), privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
  mkdirSync(join(hq.dir, "sites"), { recursive: true });
  staff = await hq.employeeToken(1111);
  bkr = (await a.database.db.query.agents.findFirst({ where: eq(agents.user_name, "birkirkara") }))!.id;
  mosta = (await b.database.db.query.agents.findFirst({ where: eq(agents.user_name, "mosta") }))!.id;
  const c = (await a.database.db.query.customers.findFirst({ where: eq(customers.agent_id, bkr) }))!;
  customer = c.id;
  await a.database.db.update(customers).set({ mobile: MOBILE }).where(eq(customers.id, customer));
  const manager = await a.employeeToken("5555", await a.agentToken("birkirkara", "shop-demo-2026"));
  const r = await a.call("POST", `${API}/customers/${customer}/deposits`, { token: manager, body: { amount: 30, method: "cash" } });
  expect(r.status).toBe(200);
  await restore("bkr", a);
  await restore("gzr", b);
}, 60_000);
afterAll(() => {
  for (const box of [hq, a, b]) box?.close();
});

describe("POST /chain/deposits/transfers (HQ's box)", () => {
  const good = () => ({ from_site: "bkr", from_agent: bkr, to_site: "gzr", to_agent: mosta, customer_id: customer, amount: 10 });

  test("every id is checked against the copies, too much is refused, and nothing is signed for a refused request", async () => {
    const before = (await issuedEnvelopes(hq.database.db, DEPOSIT_TRANSFER_KIND)).length;
    const cases: [unknown, number, RegExp][] = [
      [{ ...good(), from_site: "qormi" }, 422, /No copy of site qormi/],
      [{ ...good(), to_site: "bkr" }, 422, /same site/],
      [{ ...good(), customer_id: 999_999 }, 404, /Customer at bkr not found/],
      [{ ...good(), customer_id: undefined, mobile: "79999999" }, 404, /Customer at bkr not found/],
      [{ ...good(), from_agent: 999 }, 404, /from_agent: Shop of bkr/],
      [{ ...good(), to_agent: 999 }, 404, /to_agent: Shop of gzr/],
      [{ ...good(), amount: 30.01 }, 422, /Not enough balance at bkr \(€30\.00\) to transfer €30\.01/],
      [{ ...good(), amount: 1.005 }, 422, /./],
      [{ ...good(), mobile: MOBILE }, 422, /one of them/],
    ];
    for (const [req, status, message] of cases) {
      const r = await post(req);
      expect(r.status, JSON.stringify(req)).toBe(status);
      expect(String(r.json.message)).toMatch(message);
    }
    expect((await issuedEnvelopes(hq.database.db, DEPOSIT_TRANSFER_KIND)).length).toBe(before);
  });

  test("a shop's staff cannot start one; a shop's box answers that it is HQ's", async () => {
    const manager = await a.employeeToken("5555", await a.agentToken("birkirkara", "shop-demo-2026"));
    expect((await a.call("POST", `${API}/chain/deposits/transfers`, { token: manager, body: good() })).status).toBe(403);
    const shopHq = await a.employeeToken(1111);
    expect((await a.call("POST", `${API}/chain/deposits/transfers`, { token: shopHq, body: good() })).status).toBe(409);
  });

  test("a request by mobile is signed once per Idempotency-Key, to the source only, in phase requested until the source's copy shows it", async () => {
    const key = crypto.randomUUID();
    const first = await post({ ...good(), customer_id: undefined, mobile: `+356${MOBILE}` }, key);
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ phase: "requested", from_site: "bkr", to_site: "gzr", customer_id: customer, mobile: MOBILE, amount: 10 });
    const again = await post({ ...good(), customer_id: undefined, mobile: `+356${MOBILE}` }, key);
    expect(again.json.data.transfer_id).toBe(first.json.data.transfer_id);
    const id = first.json.data.transfer_id as string;
    const mine = (await issuedEnvelopes(hq.database.db, DEPOSIT_TRANSFER_KIND)).filter((e) => e.uid.startsWith(id));
    expect(mine.map((e) => [e.uid, e.site])).toEqual([[`${id}:out`, "bkr"]]);
    expect(await phaseOf(id)).toBe("requested");
    // The source applies it; HQ sees it in the next copy.
    expect((await a.bookings.apply.receive(await body(`${id}:out`))).outcome).toBe("applied");
    expect(await held(a, customer, bkr)).toBe(2000);
    await restore("bkr", a);
    expect(await phaseOf(id)).toBe("out_applied");
  });
});

describe("the destination (issue 34: a customer it has never seen)", () => {
  test("phase in for an unknown mobile creates one customer holding the amount; replays and a second dispatcher create nothing more", async () => {
    const byMobile = () => b.database.db.select().from(customers).where(eq(customers.mobile, MOBILE));
    expect(await byMobile()).toEqual([]);
    const r = await post({ from_site: "bkr", from_agent: bkr, to_site: "gzr", to_agent: mosta, customer_id: customer, amount: 5 });
    expect(r.status).toBe(200);
    const id = r.json.data.transfer_id as string;
    expect((await a.bookings.apply.receive(await body(`${id}:out`))).outcome).toBe("applied");
    await restore("bkr", a);
    // The destination's poll: HQ issues phase in now that the source's copy shows phase out.
    const served = await hq.bookings.downlinkHq!.serve("gzr", 0);
    const inn = served.map((x) => x.envelope).find((e) => e.uid === `${id}:in`)!;
    expect(inn).toBeDefined();
    const outcomes = await Promise.all([b.bookings.apply.receive(inn), b.bookings.apply.receive(inn)]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(["applied", "replay"]);
    expect((await b.bookings.apply.receive(inn)).outcome).toBe("replay");
    const made = await byMobile();
    expect(made.length).toBe(1);
    const source = (await a.database.db.select().from(customers).where(eq(customers.id, customer)))[0]!;
    expect(made[0]).toMatchObject({ full_name: source.full_name, agent_id: mosta });
    expect(await held(b, made[0]!.id, mosta)).toBe(500);
    expect(await held(a, customer, bkr)).toBe(1500);
    await restore("gzr", b);
    expect(await phaseOf(id)).toBe("in_applied");
  });

  test("an out the source can no longer cover is refused there, shows refused at HQ, and never gets an in", async () => {
    const r = await post({ from_site: "bkr", from_agent: bkr, to_site: "gzr", to_agent: mosta, customer_id: customer, amount: 15 });
    expect(r.status).toBe(200);
    const id = r.json.data.transfer_id as string;
    // Spent at the counter before the envelope arrived.
    const manager = await a.employeeToken("5555", await a.agentToken("birkirkara", "shop-demo-2026"));
    const dep = (await a.database.db.select().from(deposits).where(eq(deposits.customer_id, customer))).find((d) => d.kind === "deposit")!;
    const refund = await a.call("POST", `${API}/deposits/${dep.id}/refund`, { token: manager, body: { amount: 0.01, reason: "a cent given back" } });
    expect(refund.status).toBe(200);
    expect((await a.bookings.apply.receive(await body(`${id}:out`))).outcome).toBe("refused");
    await restore("bkr", a);
    expect(await phaseOf(id)).toBe("refused");
    expect((await hq.bookings.downlinkHq!.serve("gzr", 0)).map((x) => x.envelope.uid)).not.toContain(`${id}:in`);
  });
});

describe("GET /chain/shops (the transfer form's shops by name)", () => {
  type Row = { site: string; agent_id: number; name: string; enabled: boolean; archived_at: string | null };
  const shops = async (query = "", token = staff) => hq.call("GET", `${API}/chain/shops${query}`, { token });

  test("lists each copy's shops with their ids at that site, as the copy shows them (not HQ's own agents)", async () => {
    // Renamed and disabled at gzr only: HQ's own agent of that id keeps its name, the copy shows the site's.
    await b.database.db.update(agents).set({ name: "Mosta (gzr)", enabled: false }).where(eq(agents.id, mosta));
    await restore("gzr", b);
    const r = await shops();
    expect(r.status).toBe(200);
    const rows = r.json.data as Row[];
    expect(rows.find((s) => s.site === "bkr" && s.agent_id === bkr)).toMatchObject({ name: "Ironbox Birkirkara", enabled: true, archived_at: null });
    expect(rows.find((s) => s.site === "gzr" && s.agent_id === mosta)).toMatchObject({ name: "Mosta (gzr)", enabled: false, archived_at: null });
    expect(new Set(rows.map((s) => s.site))).toEqual(new Set(["bkr", "gzr"]));
    const one = (await shops("?site=gzr")).json.data as Row[];
    expect(one.length).toBeGreaterThan(0);
    expect(new Set(one.map((s) => s.site))).toEqual(new Set(["gzr"]));
    expect(one).toEqual(rows.filter((s) => s.site === "gzr"));
  });

  test("an unknown site is 404, a bad name 422, anyone but HQ staff 403, a shop's box 409", async () => {
    expect((await shops("?site=qormi")).status).toBe(404);
    expect((await shops("?site=Not%20A%20Site")).status).toBe(422);
    const shopManager = await hq.employeeToken("5555", await hq.agentToken("birkirkara", "shop-demo-2026"));
    expect((await shops("", shopManager)).status).toBe(403);
    expect((await a.call("GET", `${API}/chain/shops`, { token: await a.employeeToken(1111) })).status).toBe(409);
  });
});
