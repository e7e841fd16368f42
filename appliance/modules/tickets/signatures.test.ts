import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, ne } from "drizzle-orm";
import { agents, tickets } from "../../../db/schema";
import { AppError } from "../../platform/errors";
import { type TestBox, testBox } from "../../test/harness";
import { createStorageRules } from "../images/storage";
import { createSignatureStore, SIGNATURE_MAX_CHARS } from "./signatures";

// Issue 22, "Signatures fill the disk": a driver sent 30 signatures of 2 MB through
// PUT /tickets/changeState, outside the image quota and the free-space floor. A signature is
// capped (413) and counted against the shop's storage like an image. This box lets each shop
// keep 1 MB (images and signatures together) and has no free-space floor; the floor is tested
// on a store with a fake disk.

const API = "/api/v1";
const KB = 1024;
let box: TestBox;
let driver: string; // mosta driver (8888)
let mostaManager: string;
let birkirkara: string; // birkirkara employee (6666)
const ids = { mosta: 0, birkirkara: 0 };

/** A PNG data URL of exactly `chars` characters (the store counts the data URL as sent). */
const signature = (chars: number, fill = "A") => {
  const head = "data:image/png;base64,";
  return head + fill.repeat(chars - head.length);
};
const count = async () => Number((await box.database.client.execute("SELECT count(*) FROM signatures")).rows[0]![0]);
async function ticketsOf(shop: keyof typeof ids, n: number) {
  return box.database.db
    .select({ id: tickets.id, state: tickets.state })
    .from(tickets)
    .where(and(eq(tickets.agent_id, ids[shop]), ne(tickets.state, "CREATED")))
    .limit(n);
}
const change = (token: string, path: "/tickets/changeState" | "/ticketSubCategory/changeState", body: unknown) =>
  box.call("PUT", `${API}${path}`, { token, body });

beforeAll(async () => {
  box = await testBox({ demo: true, env: { IRONBOX_UPLOAD_QUOTA_MB: "1", IRONBOX_UPLOAD_MIN_FREE_MB: "0", IRONBOX_UPLOAD_MIN_FREE_PERCENT: "0" } });
  for (const shop of ["mosta", "birkirkara"] as const) ids[shop] = (await box.database.db.query.agents.findFirst({ where: eq(agents.user_name, shop) }))!.id;
  const mosta = await box.agentToken("mosta", "shop-demo-2026");
  driver = await box.employeeToken("8888", mosta);
  mostaManager = await box.employeeToken("7777", mosta);
  birkirkara = await box.employeeToken("6666", await box.agentToken("birkirkara", "shop-demo-2026"));
});
afterAll(() => box?.close());

describe("a signature's size", () => {
  test("a 2 MB signature answers 413 on both routes that take one, saying the limit; nothing is stored or changed", async () => {
    const [t] = await ticketsOf("mosta", 1);
    const items = (await box.call("GET", `${API}/tickets/${t!.id}`, { token: driver })).json.data.ticket_sub_categories.map((i: { id: number }) => i.id);
    const before = await count();
    const huge = signature(2 * 1024 * KB);
    for (const [path, Ids] of [
      ["/tickets/changeState", [t!.id]],
      ["/ticketSubCategory/changeState", items],
    ] as const) {
      const r = await change(driver, path, { Ids, State: "DELIVERED", Signature: huge });
      expect(r.status, path).toBe(413);
      expect(r.json.message, path).toBe("Signature: at most 256 KB (this one is 2048 KB); clear it and sign again, or update the app");
    }
    expect(await count()).toBe(before);
    expect((await box.database.db.query.tickets.findFirst({ where: eq(tickets.id, t!.id) }))!.state).toBe(t!.state);
  });

  test("control: a real signature (~30 KB) and one of exactly 256 KB are taken; one character more is not", async () => {
    const [a, b, c] = await ticketsOf("birkirkara", 3);
    const real = signature(30 * KB, "B");
    const r = await change(birkirkara, "/tickets/changeState", { Ids: [a!.id], State: "DELIVERED", Signature: real });
    expect(r.status).toBe(200);
    expect((await box.call("GET", `${API}/ticketLogStates/${a!.id}`, { token: birkirkara })).json.data[0]).toMatchObject({
      state: "DELIVERED",
      signature: real,
    });
    expect((await change(birkirkara, "/tickets/changeState", { Ids: [b!.id], State: "DELIVERED", Signature: signature(SIGNATURE_MAX_CHARS) })).status).toBe(
      200,
    );
    expect((await change(birkirkara, "/tickets/changeState", { Ids: [c!.id], State: "DELIVERED", Signature: signature(SIGNATURE_MAX_CHARS + 1) })).status).toBe(
      413,
    );
    // A change without a signature needs no room at all.
    expect((await change(birkirkara, "/tickets/changeState", { Ids: [c!.id], State: "DELIVERED" })).status).toBe(200);
    // Not an image: 422, as before.
    expect((await change(birkirkara, "/tickets/changeState", { Ids: [c!.id], State: "DELIVERED", Signature: "data:text/html;base64,AAAA" })).status).toBe(422);
  });
});

describe("a shop's storage", () => {
  test("signatures count against the shop's quota (shared with images): once full, 507 with the reason, even sent all at once; another shop still signs", async () => {
    const list = await ticketsOf("mosta", 12);
    const before = await count();
    const sig = signature(200 * KB, "C");
    // The attack, at once: twelve 200 KB signatures against a 1 MB quota.
    const answers = await Promise.all(list.map((t) => change(driver, "/tickets/changeState", { Ids: [t.id], State: "DELIVERED", Signature: sig })));
    const taken = answers.filter((r) => r.status === 200).length;
    const refused = answers.filter((r) => r.status === 507);
    expect(taken + refused.length).toBe(list.length);
    expect(taken).toBe(5); // 5 × 200 KB fit in 1 MB (1,024 KB); a sixth would not
    expect(refused[0]!.json.message).toMatch(/^This shop's images and signatures have reached their 1 MB limit \(1\.0 MB used\)/);
    expect(await count()).toBe(before + taken);
    // The shop's images are held to the same quota now.
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(30 * KB).fill(0)]);
    const form = new FormData();
    form.append("file", new File([png], "p.png", { type: "image/png" }));
    const upload = await box.app.handle(
      new Request(`http://localhost${API}/images/`, { method: "POST", headers: { authorization: `token ${mostaManager}` }, body: form }),
    );
    expect(upload.status).toBe(507);
    // Control: the full shop still changes states without a signature; another shop still signs.
    expect((await change(driver, "/tickets/changeState", { Ids: [list[0]!.id], State: "DELIVERED NOT PAID" })).status).toBe(200);
    const [other] = await ticketsOf("birkirkara", 1);
    expect(
      (await change(birkirkara, "/ticketSubCategory/changeState", { Ids: [await itemOf(other!.id)], State: "MARKED", Signature: signature(20 * KB) })).status,
    ).toBe(200);
  });

  test("the count survives a restart: a fresh store reads each shop's stored signatures (their shop column)", async () => {
    const rules = createStorageRules({
      dataDir: box.dir,
      limits: { quotaBytes: 1024 * KB, minFreeBytes: 0, minFreeShare: 0 },
      space: async () => ({ free: 1e12, total: 2e12 }),
    });
    const store = createSignatureStore({ db: box.database.db, rules, otherBytes: async () => 0 });
    const stored = async (agent: number) =>
      Number(
        (
          await box.database.client.execute({
            sql: "SELECT coalesce(sum(length(data_url)), 0) FROM signatures WHERE id IN (SELECT signature_id FROM ticket_log_states WHERE agent_id = ?)",
            args: [agent],
          })
        ).rows[0]![0],
      );
    // Every signature the API stored names its change's shop and its size (read from those columns).
    const off = await box.database.client.execute(
      "SELECT count(*) FROM signatures s WHERE s.agent_id IS NOT (SELECT min(agent_id) FROM ticket_log_states WHERE signature_id = s.id) OR s.bytes != length(s.data_url)",
    );
    expect(Number(off.rows[0]![0])).toBe(0);
    expect(await store.bytes(ids.mosta)).toBe(await stored(ids.mosta));
    expect(await store.bytes(ids.mosta)).toBeGreaterThanOrEqual(5 * 200 * KB);
    expect(await store.bytes(ids.birkirkara)).toBe(await stored(ids.birkirkara));
    // Full: refused; a refused or failed change holds nothing back.
    const full = await store.hold(ids.mosta, signature(30 * KB)).catch((e) => e);
    expect(full).toBeInstanceOf(AppError);
    expect(full.kind).toBe("insufficient_storage");
    const before = await store.bytes(ids.birkirkara);
    const hold = await store.hold(ids.birkirkara, signature(10 * KB));
    expect(await store.bytes(ids.birkirkara)).toBe(before + 10 * KB);
    hold!.release();
    expect(await store.bytes(ids.birkirkara)).toBe(before);
  });

  test("below the box's free-space floor no signature is taken (507), whatever the quota", async () => {
    let disk = { free: 500 * 1024 * KB, total: 100 * 1024 * 1024 * KB };
    const rules = createStorageRules({
      dataDir: box.dir,
      limits: { quotaBytes: 1e12, minFreeBytes: 1024 * 1024 * KB, minFreeShare: 0.05 },
      space: async () => disk,
    });
    const store = createSignatureStore({ db: box.database.db, rules, otherBytes: async () => 0 });
    const refused = await store.hold(ids.birkirkara, signature(30 * KB)).catch((e) => e);
    expect(refused.kind).toBe("insufficient_storage");
    expect(refused.message).toContain("disk is almost full");
    disk = { free: 50 * 1024 * 1024 * KB, total: 100 * 1024 * 1024 * KB };
    expect(await store.hold(ids.birkirkara, signature(30 * KB))).not.toBeNull();
  });
});

async function itemOf(ticketId: number): Promise<number> {
  return (await box.call("GET", `${API}/tickets/${ticketId}`, { token: birkirkara })).json.data.ticket_sub_categories[0].id;
}
