import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { storedList } from "../../platform/storedList";
import { MAX_LABELS } from "./labels";
import { PrinterConfig } from "./model";

/** Printers are box hardware: where they may be, who sets them up (audited), and how big a print may be. */
let box: TestBox;
let admin: string;
let dev: string;
const ok = async (method: string, path: string, body?: unknown, token = admin) => {
  const r = await box.call(method, `/api/v1${path}`, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
const auditRows = async (entity: string) =>
  (
    await box.database.client.execute({ sql: "SELECT action, agent_id, employee_id, detail FROM audit_log WHERE entity = ? ORDER BY id", args: [entity] })
  ).rows.map((r) => ({
    action: r.action,
    agent_id: r.agent_id,
    employee_id: r.employee_id,
    detail: JSON.parse(String(r.detail)),
  }));

beforeAll(async () => {
  box = await testBox({ demo: true });
  admin = await box.employeeToken(ADMIN.pin);
  dev = join(box.dir, "dev");
  mkdirSync(join(dev, "usb"), { recursive: true });
  writeFileSync(join(dev, "usb/lp0"), "");
});
afterAll(() => box.close());

const labels = () => ({ id: "labels", name: "Label printer", language: "PPLZ", target: { kind: "usblp", path: join(dev, "usb/lp0") } });

test("PUT /printers/: a path that is no allowed device, or a network printer off the LAN or off the printer ports, is a 422 and nothing is saved", async () => {
  const script = join(box.dir, "nightly.sh");
  writeFileSync(script, "#!/bin/sh\n");
  symlinkSync(script, join(dev, "usb/lp1"));
  const before = await ok("GET", "/printers/");
  for (const [target, message] of [
    [{ kind: "usblp", path: script }, "must be a device under"],
    [{ kind: "usblp", path: `${dev}/usb/../../nightly.sh` }, "must be a device under"],
    [{ kind: "usblp", path: join(dev, "usb/lp1") }, "leads elsewhere"],
    [{ kind: "usblp", path: join(dev, "input/event0") }, "usb/lp*"],
    [{ kind: "serial", path: "/etc/passwd", baud: 9600 }, "must be a device under"],
    [{ kind: "rfcomm", path: join(dev, "ttyUSB0") }, "rfcomm*"],
    [{ kind: "tcp", host: "8.8.8.8", port: 9100 }, "must be on the shop's network"],
    [{ kind: "tcp", host: "192.168.1.20", port: 22 }, "listens on 9100, 9101, 9102, 515, 631"],
    [{ kind: "tcp", host: "no-such-printer.invalid", port: 9100 }, "is not known on this network"],
  ] as [object, string][]) {
    const r = await box.call("PUT", "/api/v1/printers/", { token: admin, body: [labels(), { id: "bad", name: "Bad", language: "ESCPOS", target }] });
    expect([JSON.stringify(target), r.status, r.json.message]).toEqual([JSON.stringify(target), 422, expect.stringContaining(message)]);
  }
  expect(await ok("GET", "/printers/")).toEqual(before);
  expect(readFileSync(script, "utf8")).toBe("#!/bin/sh\n");
  // The legitimate ones: a USB printer under the device root, a LAN printer at 9100 or IPP.
  await ok("PUT", "/printers/", [
    labels(),
    { id: "till", name: "Till", language: "ESCPOS", target: { kind: "tcp", host: "192.168.1.20", port: 9100 } },
    { id: "ipp", name: "Office", language: "ESCPOS", target: { kind: "tcp", host: "fd00::20", port: 631 } },
  ]);
});

test("printers are written by the box's admins only, and every change and test print is audited with who and what", async () => {
  const shopAgent = await box.agentToken("birkirkara", "shop-demo-2026");
  const shopAdmin = await box.employeeToken(5555, shopAgent);
  const shopClerk = await box.employeeToken(6666, shopAgent);
  expect((await box.call("PUT", "/api/v1/printers/", { token: shopClerk, body: [labels()] })).status).toBe(403);
  expect((await box.call("POST", "/api/v1/printers/labels/test", { token: shopClerk })).status).toBe(403);
  const before = (await auditRows("printers")).length;
  await ok("PUT", "/printers/", [labels()], admin);
  await ok("PUT", "/printers/", [{ ...labels(), name: "Back room" }], shopAdmin);
  const rows = (await auditRows("printers")).slice(before);
  expect(rows).toHaveLength(2);
  expect(rows[0]).toMatchObject({ action: "configure", detail: { added: [], changed: [], removed: ["till", "ipp"] } });
  expect(rows[1]).toMatchObject({ action: "configure", detail: { added: [], changed: [{ id: "labels", name: "Back room" }], removed: [] } });
  const [shopAdminRow] = (await box.database.client.execute("SELECT id, agent_id FROM employees WHERE full_name = 'Claire Zammit'")).rows;
  expect([rows[1]!.employee_id, rows[1]!.agent_id]).toEqual([shopAdminRow!.id, shopAdminRow!.agent_id]);
  const { jobs } = await ok("POST", "/printers/labels/test", undefined, shopAdmin);
  const tests = await auditRows("printer");
  expect(tests.at(-1)).toMatchObject({ action: "test_print", employee_id: shopAdminRow!.id, detail: { printer: "labels", name: "Back room", jobs } });
});

/** A ticket of hotel linen: two items of 250 pieces (the most a pieces list holds) and one shirt. */
async function linenTicket(name: string) {
  const garments = await ok("GET", "/garmentSubCategories/");
  const shirt = garments.find((g: { name: string }) => g.name === "Shirt").id;
  const c = await ok("POST", "/customers/", { full_name: name });
  const t = await ok("POST", "/tickets/", { customer_id: c.id });
  const pieces = Array.from({ length: 250 }, () => "x").join(",");
  for (const p of [pieces, pieces, undefined])
    await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: shirt, ...(p ? { pieces: p } : {}) });
  const view = await ok("GET", `/tickets/${t.id}`);
  return { id: t.id as number, items: view.ticket_sub_categories.map((i: { id: number }) => i.id) as number[] };
}

test(`a label batch above ${MAX_LABELS} is refused whole: the ticket stays unconfirmed, no item is marked, no job journaled`, async () => {
  await ok("PUT", "/printers/", [labels()]);
  const t = await linenTicket("Hotel Linen");
  for (const body of [{ printer: "labels" }, { port: "ble" }, { printer: "labels", item_ids: t.items }]) {
    const r = await box.call("POST", "/api/v1/print/labels", { token: admin, body: { ticket_id: t.id, ...body } });
    expect([r.status, r.json.message]).toEqual([422, `That is 501 labels; one print takes at most ${MAX_LABELS}: print fewer items at a time`]);
  }
  const after = await ok("GET", `/tickets/${t.id}`);
  expect(after.confirmed_at).toBeNull();
  expect(after.ticket_sub_categories.map((i: { state: string }) => i.state)).not.toContain("MARKED");
  expect(await ok("GET", `/printJobs/?ticket_id=${t.id}`)).toEqual([]);
});

test(`exactly ${MAX_LABELS} labels print (journaled in chunks): the ticket is confirmed and its items marked`, async () => {
  const t = await linenTicket("Restaurant Linen");
  const r = await box.call("POST", "/api/v1/print/labels", { token: admin, body: { ticket_id: t.id, port: "ble", item_ids: t.items.slice(0, 2) } });
  expect(r.status).toBe(200);
  expect(r.json.data.jobs).toHaveLength(MAX_LABELS);
  expect(new Set(r.json.data.jobs).size).toBe(MAX_LABELS);
  expect(await ok("GET", `/printJobs/?ticket_id=${t.id}&limit=500`)).toHaveLength(MAX_LABELS);
  const view = await ok("GET", `/tickets/${t.id}`);
  expect(view.confirmed_at).not.toBeNull();
  expect(view.ticket_sub_categories.map((i: { state: string }) => i.state).slice(0, 2)).toEqual(["MARKED", "MARKED"]);
}, 20_000);

test("stored printer settings that no longer validate read as 'settings invalid' with what is wrong, are logged once and kept until a good list is saved", async () => {
  const corrupt = JSON.stringify([labels(), { id: "till", name: "Till", language: "ZPL2", target: { kind: "usblp", path: join(dev, "usb/lp0") } }]);
  await box.database.client.execute({
    sql: "INSERT INTO box_settings (key, value) VALUES ('printers', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    args: [corrupt],
  });
  const settings = await ok("GET", "/printers/settings");
  expect(settings).toEqual({ printers: [], invalid: { message: expect.stringMatching(/^#2 language: /) } });
  expect(await ok("GET", "/printers/")).toEqual([]); // no printer is used meanwhile
  expect((await box.database.client.execute("SELECT value FROM box_settings WHERE key = 'printers'")).rows[0]!.value).toBe(corrupt);

  // Logged once per stored value, not on every read.
  const logged: string[] = [];
  const read = storedList({ db: box.database.db, key: "printers", schema: PrinterConfig, log: (m) => logged.push(m) });
  await read();
  await read();
  expect(logged).toEqual([expect.stringContaining('box_settings "printers": settings invalid (#2 language: ')]);

  await ok("PUT", "/printers/", [labels()]);
  expect(await ok("GET", "/printers/settings")).toEqual({ printers: [{ ...labels(), paper: "80mm" }] });
});
