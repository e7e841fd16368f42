import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../../platform/errors";
import type { EmployeeCaller } from "../auth/caller";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { DEFAULT_UPLOAD_LIMITS } from "../../platform/config";
import { createImageService } from "./service";

let box: TestBox;
let admin: string;
beforeAll(async () => {
  box = await testBox();
  admin = await box.employeeToken(ADMIN.pin);
});
afterAll(() => box.close());

// A real 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

async function upload(bytes: Uint8Array<ArrayBuffer>, name: string, type: string, token = admin) {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type }));
  const res = await box.app.handle(
    new Request("http://localhost/api/v1/images/", { method: "POST", headers: { authorization: `token ${token}` }, body: form }),
  );
  return { status: res.status, json: (await res.json()) as any };
}

test("a PNG uploads, is stored under a random name and served with long caching", async () => {
  const r = await upload(PNG, "swatch.png", "image/png");
  expect(r.status).toBe(200);
  expect(r.json.data).toMatchObject({ mime: "image/png", size: PNG.length });
  expect(r.json.data.url).toMatch(/^\/api\/v1\/images\/[0-9a-f-]{36}\.png$/);
  expect(existsSync(join(box.dir, "images", r.json.data.file))).toBe(true);
  const got = await box.app.handle(new Request(`http://localhost${r.json.data.url}`));
  expect(got.status).toBe(200);
  expect(got.headers.get("content-type")).toBe("image/png");
  expect(got.headers.get("cache-control")).toContain("immutable");
  expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true);
});

test("files that are not images are refused whatever they claim to be; nothing is left behind", async () => {
  const before = readdirSync(join(box.dir, "images")).length;
  const r = await upload(new TextEncoder().encode("<svg onload=alert(1)>"), "evil.png", "image/png");
  expect(r.status).toBe(422);
  expect(r.json.message).toContain("PNG, JPEG");
  const big = new Uint8Array(5 * 1024 * 1024 + 1);
  big.set(PNG);
  expect((await upload(big, "big.png", "image/png")).status).toBe(422);
  expect(readdirSync(join(box.dir, "images")).length).toBe(before);
  expect((await box.app.handle(new Request("http://localhost/api/v1/images/00000000-0000-0000-0000-000000000000.png"))).status).toBe(404);
  expect((await box.app.handle(new Request("http://localhost/api/v1/images/..%2F..%2Fironbox.db"))).status).toBe(422);
});

test("uploading needs an employee session", async () => {
  const form = new FormData();
  form.append("file", new File([PNG], "a.png"));
  const res = await box.app.handle(new Request("http://localhost/api/v1/images/", { method: "POST", body: form }));
  expect(res.status).toBe(401);
});

// ---- ownership, quotas, free space and the sweep (issue 11: H1, M5), on the demo chain

describe("images belong to the shop that uploaded them", () => {
  let demo: TestBox;
  let birkirkara: string;
  let mosta: string;
  let hq: string;
  const send = async (b: TestBox, token: string, bytes: Uint8Array<ArrayBuffer> = PNG) => {
    const form = new FormData();
    form.append("file", new File([bytes], "photo.png", { type: "image/png" }));
    const res = await b.app.handle(
      new Request("http://localhost/api/v1/images/", { method: "POST", headers: { authorization: `token ${token}` }, body: form }),
    );
    return { status: res.status, json: (await res.json()) as any };
  };
  /** A fresh item on a new ticket of a new customer of the token's shop, and an action it can take. */
  const itemOf = async (token: string) => {
    const customer = (await demo.call("POST", "/api/v1/customers/", { token, body: { full_name: "Photo Customer" } })).json.data;
    const ticket = (await demo.call("POST", "/api/v1/tickets/", { token, body: { customer_id: customer.id } })).json.data;
    const [garment] = (await demo.call("GET", "/api/v1/garmentSubCategories/", { token })).json.data;
    const [item] = [
      (await demo.call("POST", "/api/v1/ticketSubCategory/", { token, body: { ticket_id: ticket.id, garment_sub_category_id: garment.id } })).json.data,
    ].flat();
    const [action] = (await demo.call("GET", "/api/v1/actions/", { token })).json.data;
    return { ticket: ticket.id as number, item: item.id as number, action: action.id as number };
  };

  beforeAll(async () => {
    demo = await testBox({ demo: true });
    hq = await demo.employeeToken(ADMIN.pin);
    birkirkara = await demo.employeeToken("5555", await demo.agentToken("birkirkara", "shop-demo-2026"));
    mosta = await demo.employeeToken("7777", await demo.agentToken("mosta", "shop-demo-2026"));
  });
  afterAll(() => demo.close());

  test("another shop's image id on an item's action answers 404 and attaches nothing; the owner's and HQ's attach", async () => {
    const theirs = (await send(demo, birkirkara)).json.data;
    const { item, action, ticket } = await itemOf(mosta);
    const before = (await demo.call("GET", `/api/v1/tickets/${ticket}`, { token: mosta })).json.data;
    const r = await demo.call("POST", "/api/v1/ticketSubCategoryActions/", {
      token: mosta,
      body: { ticket_sub_category_id: item, action_id: action, images: [theirs.id] },
    });
    expect(r.status).toBe(404);
    expect(r.json.message).toBe("Image not found");
    expect(JSON.stringify(r.json)).not.toContain(theirs.file);
    const after = (await demo.call("GET", `/api/v1/tickets/${ticket}`, { token: mosta })).json.data;
    expect(after).toEqual(before);
    expect(JSON.stringify(after)).not.toContain(theirs.file);

    // Control: the shop's own photo attaches (and shows), and HQ may use any shop's.
    const mine = (await send(demo, mosta)).json.data;
    const ok = await demo.call("POST", "/api/v1/ticketSubCategoryActions/", {
      token: mosta,
      body: { ticket_sub_category_id: item, action_id: action, images: [mine.id] },
    });
    expect(ok.status).toBe(200);
    expect(JSON.stringify((await demo.call("GET", `/api/v1/tickets/${ticket}`, { token: mosta })).json.data)).toContain(mine.file);
    const hqItem = await itemOf(hq);
    expect(
      (
        await demo.call("POST", "/api/v1/ticketSubCategoryActions/", {
          token: hq,
          body: { ticket_sub_category_id: hqItem.item, action_id: hqItem.action, images: [theirs.id] },
        })
      ).status,
    ).toBe(200);
  });

  test("uploads are recorded with their shop and audited", async () => {
    const up = (await send(demo, birkirkara)).json.data;
    const row = (await demo.database.client.execute({ sql: "SELECT agent_id FROM images WHERE id = ?", args: [up.id] })).rows[0]!;
    const me = (await demo.call("GET", "/api/v1/me", { token: birkirkara })).json.data;
    expect(Number(row.agent_id)).toBe(me.agent.id);
    const trail = await demo.database.client.execute({
      sql: "SELECT agent_id, employee_id FROM audit_log WHERE entity = 'image' AND action = 'upload' AND entity_id = ?",
      args: [up.id],
    });
    expect(trail.rows).toHaveLength(1);
    expect(Number(trail.rows[0]!.employee_id)).toBe(me.employee.id);
  });

  describe("limits and the sweep (a service on the same database, with a fake disk)", () => {
    const GB = 1024 * 1024 * 1024;
    let disk = { free: 100 * GB, total: 200 * GB };
    const service = (quotaBytes = 500 * 1024 * 1024) =>
      createImageService({
        db: demo.database.db,
        clock: demo.clock,
        dataDir: demo.dir,
        limits: { ...DEFAULT_UPLOAD_LIMITS, quotaBytes },
        space: async () => disk,
      });
    const callerOf = async (token: string): Promise<EmployeeCaller> => {
      const me = (await demo.call("GET", "/api/v1/me", { token })).json.data;
      return { kind: "employee", jti: "test", agent: me.agent, employee: me.employee };
    };
    const file = () => new File([PNG], "p.png");
    const files = () => readdirSync(join(demo.dir, "images")).filter((f) => !f.startsWith("."));

    test("a shop over its quota gets 507 with the reason, nothing stored; another shop still uploads", async () => {
      // Two new shops with no uploads yet, and a quota of two photos each.
      const shop = async (name: string): Promise<EmployeeCaller> => {
        const agent = (await demo.call("POST", "/api/v1/agents/", { token: hq, body: { name, user_name: name.toLowerCase() } })).json.data;
        return { ...(await callerOf(hq)), agent: { id: agent.id, name, is_hq: false } };
      };
      const [full, other] = [await shop("Qormi"), await shop("Zejtun")];
      const images = service(2 * PNG.length);
      await images.upload(full, file());
      await images.upload(full, file());
      const [rows, stored] = [Number((await demo.database.client.execute("SELECT count(*) FROM images")).rows[0]![0]), files().length];
      const refused = await images.upload(full, file()).catch((e) => e);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused.kind).toBe("insufficient_storage");
      expect(refused.message).toContain("This shop's images and signatures have reached their");
      expect(Number((await demo.database.client.execute("SELECT count(*) FROM images")).rows[0]![0])).toBe(rows);
      expect(files().length).toBe(stored);
      expect((await images.upload(other, file())).size).toBe(PNG.length);
    });

    test("below the free-space floor (1 GB or 5 %) uploads are refused with 507; the rest of the box works", async () => {
      const images = service();
      const caller = await callerOf(birkirkara);
      const stored = files().length;
      for (const d of [
        { free: GB - 1, total: 10 * GB },
        { free: 9 * GB, total: 200 * GB },
      ]) {
        disk = d;
        const refused = await images.upload(caller, file()).catch((e) => e);
        expect(refused.kind).toBe("insufficient_storage");
        expect(refused.message).toContain("disk is almost full");
      }
      expect(files().length).toBe(stored);
      disk = { free: 11 * GB, total: 200 * GB };
      expect((await images.upload(caller, file())).mime).toBe("image/png");
      expect((await demo.call("POST", "/api/v1/customers/", { token: birkirkara, body: { full_name: "Still works" } })).status).toBe(200);
    });

    test("uploads nothing references are removed a day on (row and file); photos on items and catalogue pictures stay", async () => {
      const images = service();
      const caller = await callerOf(mosta);
      const onItem = await images.upload(caller, file());
      const inCatalogue = await images.upload(caller, file());
      const unused = await images.upload(caller, file());
      const { item, action } = await itemOf(mosta);
      expect(
        (
          await demo.call("POST", "/api/v1/ticketSubCategoryActions/", {
            token: mosta,
            body: { ticket_sub_category_id: item, action_id: action, images: [onItem.id] },
          })
        ).status,
      ).toBe(200);
      const modifier = (await demo.call("GET", "/api/v1/modifiers/", { token: hq })).json.data[0];
      expect((await demo.call("PUT", `/api/v1/modifiers/${modifier.id}`, { token: hq, body: { image: inCatalogue.url } })).status).toBe(200);

      expect(await images.sweepUnused()).not.toContain(unused.id); // not a day old yet
      demo.clock.advance(25 * 60 * 60 * 1000);
      const removed = await images.sweepUnused();
      expect(removed).toContain(unused.id);
      expect(removed).not.toContain(onItem.id);
      expect(removed).not.toContain(inCatalogue.id);
      expect(existsSync(join(demo.dir, "images", unused.file))).toBe(false);
      expect(existsSync(join(demo.dir, "images", onItem.file))).toBe(true);
      expect((await demo.app.handle(new Request(`http://localhost${unused.url}`))).status).toBe(404);
      expect((await demo.app.handle(new Request(`http://localhost${inCatalogue.url}`))).status).toBe(200);
      const trail = await demo.database.client.execute("SELECT detail FROM audit_log WHERE entity = 'image' AND action = 'sweep' ORDER BY id DESC LIMIT 1");
      expect(JSON.parse(String(trail.rows[0]!.detail)).removed).toContain(unused.file);
    });
  });
});
