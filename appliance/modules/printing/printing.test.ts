import { afterAll, beforeAll, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { parseScan } from "../../domain/scancodes";

let box: TestBox;
let admin: string;
let ticketId: number;
const ok = async (method: string, path: string, body?: unknown) => {
  const r = await box.call(method, `/api/v1${path}`, { token: admin, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};

beforeAll(async () => {
  box = await testBox({ demo: true });
  admin = await box.employeeToken(ADMIN.pin);
  const garments = await ok("GET", "/garmentSubCategories/");
  const suit = garments.find((g: { name: string }) => g.name === "Suit 2pc");
  const shirt = garments.find((g: { name: string }) => g.name === "Shirt");
  const c = await ok("POST", "/customers/", { full_name: "Ġużeppi Żammit", mobile: "79111222" });
  const t = await ok("POST", "/tickets/", { customer_id: c.id });
  ticketId = t.id;
  await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: suit.id });
  await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: shirt.id, quantity: 3 });
  await ok("PUT", `/tickets/${t.id}/confirm`);
});
afterAll(() => box.close());

async function pdfText(path: string) {
  const res = await box.app.handle(new Request(`http://localhost/api/v1${path}`, { headers: { authorization: `token ${admin}` } }));
  expect(res.status).toBe(200);
  const file = `${box.dir}/t.pdf`;
  await Bun.write(file, await res.arrayBuffer());
  return { res, text: Bun.spawnSync(["pdftotext", "-layout", file, "-"]).stdout.toString() };
}

test("the ticket PDF downloads as ticket{id} DD-MM-YYYY.pdf with customer, items, conditions and stamp; no prices in early states", async () => {
  const { res, text } = await pdfText(`/tickets/pdf/${ticketId}`);
  expect(res.headers.get("content-disposition")).toBe(`attachment; filename="ticket${ticketId} 22-11-2026.pdf"`);
  expect(text).toContain(`Ticket #${ticketId}`);
  expect(text).toContain("Ġużeppi Żammit");
  expect(text).toContain("Suit 2pc (Jacket, Trousers)");
  expect(text).toContain("3 × Shirt");
  expect(text).toContain("No responsibility for button or sequin damage.");
  expect(text).toContain("Head Quarters / Administrator · Employee ID 1");
  expect(text).not.toContain("€"); // the ticket is in the empty state: no prices yet
});

test("in a later state prices and the VAT split print; ticketSubCategories picks items; preview is inline", async () => {
  await ok("PUT", "/tickets/changeState", { Ids: [ticketId], State: "AWAITING DELIVERY" });
  const t = await ok("GET", `/tickets/${ticketId}`);
  const { res, text } = await pdfText(`/tickets/pdf/${ticketId}?preview=true`);
  expect(res.headers.get("content-disposition")).toStartWith("inline");
  expect(res.headers.get("filename")).toBe(`ticket${ticketId} 22-11-2026.pdf`);
  expect(text).toMatch(/Total\s+€/);
  expect(text).toContain("VAT 18%");
  expect(text).toContain(`€${t.total.toFixed(2)}`);
  const only = await pdfText(`/tickets/pdf/${ticketId}?ticketSubCategories=${t.ticket_sub_categories[1].id}`);
  expect(only.text).toContain("Shirt");
  expect(only.text).not.toContain("Suit 2pc");
  expect((await box.call("GET", `/api/v1/tickets/pdf/${ticketId}?ticketSubCategories=abc`, { token: admin })).status).toBe(422);
});

test("the ticket PDF's QR, rendered to an image with pdftoppm, scans back to the ticket", async () => {
  const res = await box.app.handle(new Request(`http://localhost/api/v1/tickets/pdf/${ticketId}`, { headers: { authorization: `token ${admin}` } }));
  const file = `${box.dir}/qr.pdf`;
  await Bun.write(file, await res.arrayBuffer());
  expect(Bun.spawnSync(["pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", file, `${box.dir}/page`]).exitCode).toBe(0);
  const png = (await Array.fromAsync(new Bun.Glob("page*.png").scan(box.dir)))[0]!;
  const text = Bun.spawnSync(["zbarimg", "--raw", "-q", `${box.dir}/${png}`])
    .stdout.toString()
    .trim();
  expect(parseScan(text)).toEqual({ type: "ticket", TicketID: ticketId });
});
