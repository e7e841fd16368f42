import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

let box: TestBox;
let admin: string;
let clerk: string;
beforeAll(async () => {
  box = await testBox();
  const agent = await box.agentToken();
  admin = await box.employeeToken(ADMIN.pin, agent);
  await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Clerk", role: "employee", pin: 3333 } });
  clerk = await box.employeeToken(3333, agent);
});
afterAll(() => box.close());

const post = async (path: string, body: unknown) => {
  const r = await box.call("POST", `/api/v1${path}`, { token: admin, body });
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};

describe("actions", () => {
  test("flat and percentage actions price through the engine; turning percentage off clears the link", async () => {
    const pressing = await post("/actions/", { name: "Pressing", up_charge: 8 });
    const express = await post("/actions/", { name: "Express Pressing", is_percentage: true, is_percentage_of: pressing.id, up_charge: 150, discount: 120 });
    expect(pressing.price).toBe(8);
    expect(express).toMatchObject({ price: 12, is_percentage: true, up_charge: 150, discount: "PERCENTAGE 100" });
    const off = await box.call("PUT", `/api/v1/actions/${express.id}`, {
      token: admin,
      body: { is_percentage: false, is_percentage_of: pressing.id, up_charge: 9.5 },
    });
    expect(off.json.data).toMatchObject({ is_percentage_of: null, is_percentage: false, price: 9.5 });
    const cycle = await box.call("PUT", `/api/v1/actions/${pressing.id}`, { token: admin, body: { is_percentage_of: pressing.id } });
    expect(cycle.status).toBe(422);
    await box.call("PUT", `/api/v1/actions/${express.id}`, { token: admin, body: { is_percentage_of: pressing.id } });
    const loop = await box.call("PUT", `/api/v1/actions/${pressing.id}`, { token: admin, body: { is_percentage_of: express.id } });
    expect(loop.status).toBe(422);
    expect(loop.json.message).toContain("cycle");
  });

  test("hidden actions are listed for admins only; writes are admin-only", async () => {
    const hidden = await post("/actions/", { name: "Secret Wash", up_charge: 1, visible: false });
    const forAdmin = await box.call("GET", "/api/v1/actions/", { token: admin });
    const forClerk = await box.call("GET", "/api/v1/actions/", { token: clerk });
    expect(forAdmin.json.data.map((a: { id: number }) => a.id)).toContain(hidden.id);
    expect(forClerk.json.data.map((a: { id: number }) => a.id)).not.toContain(hidden.id);
    expect((await box.call("POST", "/api/v1/actions/", { token: clerk, body: { name: "Nope" } })).status).toBe(403);
  });
});

describe("garments and prices", () => {
  test("categories, garments with pieces, prices as percentages of the same garment, reorder", async () => {
    const dc = await post("/actions/", { name: "Dry Cleaning", up_charge: 0 });
    const pr = await post("/actions/", { name: "Pressing2", up_charge: 0 });
    const cat = await post("/garmentCategories/", { type: "Dry Clean", name: "Suits", default_action_id: dc.id });
    const cat2 = await post("/garmentCategories/", { type: "Laundry", name: "Shirts" });
    const suit = await post("/garmentSubCategories/", {
      garment_category_id: cat.id,
      name: "Suit 2pc",
      pieces: " Jacket, Trousers ,Jacket,",
      show_choose_pieces: true,
      discount: "PERCENTAGE 10",
    });
    expect(suit).toMatchObject({ pieces: "Jacket,Trousers", discount: "PERCENTAGE 10", show_choose_pieces: true });
    const shirt = await post("/garmentSubCategories/", { garment_category_id: cat2.id, name: "Shirt", allow_quantity: true });

    const dcPrice = await post("/actionGarmentSubCategories/", { garment_sub_category_id: suit.id, action_id: dc.id, price: 12.5 });
    const prPrice = await post("/actionGarmentSubCategories/", { garment_sub_category_id: suit.id, action_id: pr.id, price: 60, is_percentage_of: dcPrice.id });
    expect(prPrice.effective_price).toBe(7.5);
    const dup = await box.call("POST", "/api/v1/actionGarmentSubCategories/", {
      token: admin,
      body: { garment_sub_category_id: suit.id, action_id: dc.id, price: 1 },
    });
    expect(dup.status).toBe(409);
    const other = await box.call("POST", "/api/v1/actionGarmentSubCategories/", {
      token: admin,
      body: { garment_sub_category_id: shirt.id, action_id: pr.id, price: 50, is_percentage_of: dcPrice.id },
    });
    expect(other.status).toBe(422);
    expect(other.json.message).toContain("same garment");
    const cyc = await box.call("PUT", `/api/v1/actionGarmentSubCategories/${dcPrice.id}`, { token: admin, body: { is_percentage_of: prPrice.id } });
    expect(cyc.status).toBe(422);

    const got = await box.call("GET", `/api/v1/garmentSubCategories/${suit.id}`, { token: clerk });
    expect(got.json.data.prices).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: "Pressing2", price: 7.5 }), expect.objectContaining({ action: "Dry Cleaning", price: 12.5 })]),
    );
    const byAction = await box.call("GET", `/api/v1/actionGarmentSubCategories/?action_id=${pr.id}`, { token: clerk });
    expect(byAction.json.data).toEqual([expect.objectContaining({ id: prPrice.id, effective_price: 7.5 })]);
    expect((await box.call("DELETE", `/api/v1/actionGarmentSubCategories/${dcPrice.id}`, { token: admin })).status).toBe(409);

    expect((await box.call("PUT", "/api/v1/garmentCategories/reOrder", { token: admin, body: [cat2.id, cat.id] })).json.data).toBe(true);
    const cats = await box.call("GET", "/api/v1/garmentCategories/", { token: clerk });
    expect(cats.json.data.map((c: { id: number }) => c.id)).toEqual([cat2.id, cat.id]);
    expect(cats.json.data[1].sub_categories.map((s: { name: string }) => s.name)).toEqual(["Suit 2pc"]);
    expect((await box.call("PUT", "/api/v1/garmentCategories/reOrder", { token: admin, body: [cat.id, 99999] })).status).toBe(422);
    expect((await box.call("DELETE", `/api/v1/garmentCategories/${cat.id}`, { token: admin })).status).toBe(409);
  });

  test("a garment or action used on a ticket cannot be deleted; an unused one can", async () => {
    const a = await post("/actions/", { name: "Carpets", up_charge: 20 });
    const cat = await post("/garmentCategories/", { type: "TECNOWASH", name: "Home" });
    const carpet = await post("/garmentSubCategories/", { garment_category_id: cat.id, name: "Carpet" });
    const c = box.database.client;
    await c.execute("INSERT INTO customers (agent_id, full_name) VALUES (1, 'Paul Galea')");
    const t = Number((await c.execute("INSERT INTO tickets (agent_id, employee_id, customer_id) VALUES (1, 1, 1) RETURNING id")).rows[0]!.id);
    const item = Number(
      (await c.execute({ sql: "INSERT INTO ticket_sub_categories (ticket_id, garment_sub_category_id) VALUES (?, ?) RETURNING id", args: [t, carpet.id] }))
        .rows[0]!.id,
    );
    await c.execute({ sql: "INSERT INTO ticket_sub_category_actions (ticket_sub_category_id, action_id, name) VALUES (?, ?, 'Carpets')", args: [item, a.id] });
    expect((await box.call("DELETE", `/api/v1/actions/${a.id}`, { token: admin })).status).toBe(409);
    expect((await box.call("DELETE", `/api/v1/garmentSubCategories/${carpet.id}`, { token: admin })).status).toBe(409);
    const unused = await post("/actions/", { name: "Unused", up_charge: 1 });
    expect((await box.call("DELETE", `/api/v1/actions/${unused.id}`, { token: admin })).json.data).toBe(true);
    expect((await box.call("GET", `/api/v1/actions/${unused.id}`, { token: admin })).status).toBe(404);
  });
});

describe("modifiers", () => {
  test("roots and sub-modifiers, swatches, percentage up-charges, reorder and delete with children", async () => {
    const stain = await post("/modifiers/", { type: "STAIN", name: "Wine", up_charge: 2 });
    const red = await post("/modifiers/", { type: "STAIN", name: "Red wine", parent_id: stain.id, up_charge: 10, is_percentage: true });
    const navy = await post("/modifiers/", { type: "COLOR", name: "Navy", image: "color:#1e3a8a" });
    expect(red).toMatchObject({ parent_id: stain.id, up_charge: 10, is_percentage: true });
    expect(navy.image).toBe("color:#1e3a8a");
    expect(
      (await box.call("POST", "/api/v1/modifiers/", { token: admin, body: { type: "COLOR", name: "Bad", image: "color:red;background:url(x)" } })).status,
    ).toBe(422);
    expect((await box.call("POST", "/api/v1/modifiers/", { token: admin, body: { type: "COLOR", name: "Wrong parent", parent_id: stain.id } })).status).toBe(
      422,
    );
    expect((await box.call("POST", "/api/v1/modifiers/", { token: admin, body: { type: "STAIN", name: "Too deep", parent_id: red.id } })).status).toBe(422);
    expect((await box.call("PUT", "/api/v1/modifiers/reOrder", { token: admin, body: [navy.id, stain.id, red.id] })).status).toBe(200);
    expect((await box.call("DELETE", `/api/v1/modifiers/${stain.id}`, { token: admin })).json.data).toBe(true);
    const left = await box.call("GET", "/api/v1/modifiers/", { token: clerk });
    expect(left.json.data.map((m: { name: string }) => m.name)).toEqual(["Navy"]);
  });
});

describe("quick price grid", () => {
  test("saves every cell in one go, all or nothing", async () => {
    const a = await post("/actions/", { name: "Grid Wash", up_charge: 0 });
    const cat = await post("/garmentCategories/", { type: "Laundry", name: "Grid" });
    const g1 = await post("/garmentSubCategories/", { garment_category_id: cat.id, name: "Towel" });
    const g2 = await post("/garmentSubCategories/", { garment_category_id: cat.id, name: "Sheet" });
    const r = await box.call("PUT", "/api/v1/actionGarmentSubCategories/bulk", {
      token: admin,
      body: [
        { garment_sub_category_id: g1.id, action_id: a.id, price: 2.5 },
        { garment_sub_category_id: g2.id, action_id: a.id, price: 3 },
      ],
    });
    expect(r.json.data).toEqual({ changed: 2 });
    const again = await box.call("PUT", "/api/v1/actionGarmentSubCategories/bulk", {
      token: admin,
      body: [
        { garment_sub_category_id: g1.id, action_id: a.id, price: 2.75 },
        { garment_sub_category_id: g2.id, action_id: a.id, price: null },
      ],
    });
    expect(again.json.data).toEqual({ changed: 2 });
    const list = await box.call("GET", `/api/v1/actionGarmentSubCategories/?action_id=${a.id}`, { token: admin });
    expect(list.json.data.map((p: { garment_sub_category_id: number; price: number }) => [p.garment_sub_category_id, p.price])).toEqual([[g1.id, 2.75]]);
    const bad = await box.call("PUT", "/api/v1/actionGarmentSubCategories/bulk", {
      token: admin,
      body: [
        { garment_sub_category_id: g2.id, action_id: a.id, price: 9 },
        { garment_sub_category_id: 987654, action_id: a.id, price: 1 },
      ],
    });
    expect(bad.status).toBe(422);
    expect((await box.call("GET", `/api/v1/actionGarmentSubCategories/?garment_sub_category_id=${g2.id}`, { token: admin })).json.data).toEqual([]);
  });
});

describe("price list", () => {
  test("a PDF of every visible garment and its prices, stamped with agent and employee; tokens may come in the query", async () => {
    const a = await post("/actions/", { name: "Żebbuġ Wash", up_charge: 0 });
    const cat = await post("/garmentCategories/", { type: "Laundry", name: "Bedding" });
    const duvet = await post("/garmentSubCategories/", { garment_category_id: cat.id, name: "Duvet Double" });
    const hidden = await post("/garmentSubCategories/", { garment_category_id: cat.id, name: "Secret Blanket", visible: false });
    await post("/actionGarmentSubCategories/", { garment_sub_category_id: duvet.id, action_id: a.id, price: 18.5 });
    await post("/actionGarmentSubCategories/", { garment_sub_category_id: hidden.id, action_id: a.id, price: 99 });
    const agent = await box.agentToken();
    const res = await box.app.handle(new Request(`http://localhost/api/v1/garmentSubCategories/priceList?Employee=${admin}&Agent=${agent}&preview=true`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toStartWith("inline");
    expect(res.headers.get("filename")).toBe("pricelist 22-11-2026.pdf");
    const file = `${box.dir}/pricelist.pdf`;
    await Bun.write(file, await res.arrayBuffer());
    const text = Bun.spawnSync(["pdftotext", "-layout", file, "-"]).stdout.toString();
    expect(text).toContain("Price list");
    expect(text).toContain("Head Quarters · Administrator · 22-11-2026");
    expect(text).toContain("Duvet Double");
    expect(text).toContain("Żebbuġ Wash €18.50");
    expect(text).not.toContain("Secret Blanket");
    expect((await box.app.handle(new Request("http://localhost/api/v1/garmentSubCategories/priceList?Employee=forged"))).status).toBe(401);
  });
});

describe("the catalogue is shared by every shop: head-quarters staff change it", () => {
  test("a shop admin reads it but its price, action and modifier changes are refused (403, unchanged); HQ's go through, audited with who and what", async () => {
    const demo = await testBox({ demo: true });
    try {
      const hq = await demo.employeeToken(ADMIN.pin);
      const shopAdmin = await demo.employeeToken("5555", await demo.agentToken("birkirkara", "shop-demo-2026"));
      const [price] = (await demo.call("GET", "/api/v1/actionGarmentSubCategories/", { token: shopAdmin })).json.data;
      const [action] = (await demo.call("GET", "/api/v1/actions/", { token: shopAdmin })).json.data;
      for (const [method, path, body] of [
        ["PUT", `/api/v1/actionGarmentSubCategories/${price.id}`, { price: 0.01 }],
        [
          "PUT",
          "/api/v1/actionGarmentSubCategories/bulk",
          [{ garment_sub_category_id: price.garment_sub_category_id, action_id: price.action_id, price: 0.01 }],
        ],
        ["PUT", `/api/v1/actions/${action.id}`, { name: "Renamed by a shop" }],
        ["POST", "/api/v1/modifiers/", { type: "COLOR", name: "Shop colour" }],
      ] as const) {
        expect((await demo.call(method, path, { token: shopAdmin, body })).status, `${method} ${path}`).toBe(403);
      }
      expect((await demo.call("GET", `/api/v1/actionGarmentSubCategories/${price.id}`, { token: shopAdmin })).json.data.price).toBe(price.price);
      expect((await demo.call("GET", `/api/v1/actions/${action.id}`, { token: shopAdmin })).json.data.name).toBe(action.name);

      expect(
        (await demo.call("PUT", `/api/v1/actions/${action.id}`, { token: hq, body: { name: `${action.name} (HQ)`, visible: action.visible } })).status,
      ).toBe(200);
      const [row] = (
        await demo.database.client.execute({
          sql: "SELECT agent_id, employee_id, detail FROM audit_log WHERE entity = 'action' AND entity_id = ? ORDER BY id DESC LIMIT 1",
          args: [action.id],
        })
      ).rows;
      expect(Number(row!.agent_id)).toBe(1);
      expect(row!.employee_id).not.toBeNull();
      expect(JSON.parse(String(row!.detail))).toEqual({ name: [action.name, `${action.name} (HQ)`] });
    } finally {
      demo.close();
    }
  });
});
