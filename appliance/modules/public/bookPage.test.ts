import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { customers, publicBookings } from "../../../db/schema";
import { type PublicFace, setUpPublicFace } from "../../test/publicFace";
import { longDay } from "./bookRoutes";

// Issue 35: the booking page (server-rendered forms on the public listener), step by step,
// against a real demo box (test/publicFace.ts; Testville has one stop a day all year).
let f: PublicFace;
beforeAll(async () => {
  f = await setUpPublicFace();
});
afterAll(() => f?.close());

const form = async (path: string, fields?: Record<string, string>) => {
  const res = await f.app.handle(
    new Request(
      `http://localhost${path}`,
      fields ? { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() } : {},
    ),
  );
  return { status: res.status, text: await res.text(), headers: res.headers };
};
const hiddenOf = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? "";
const daysOf = (page: string) => [...page.matchAll(/<option value="(\d{4}-\d{2}-\d{2})"/g)].map((m) => m[1]!);

/** Steps 1 and 2 for a phone: the second step's page. */
async function toStepTwo(phone: string) {
  const one = await form("/book");
  const two = await form("/book/code", { t: hiddenOf(one.text, "t"), locality: String(f.ids.locality), phone });
  expect(two.status).toBe(200);
  return two.text;
}
const stepThree = (two: string, o: Record<string, string>) =>
  form("/book", {
    t: hiddenOf(two, "t"),
    locality: hiddenOf(two, "locality"),
    phone: hiddenOf(two, "phone"),
    street: "Triq <b>il-Prova</b>",
    number: "7",
    note: "",
    ...o,
  });

describe("the booking page", () => {
  test("step 1 lists the served localities under the strict CSP, without a script", async () => {
    const one = await form("/book");
    expect(one.status).toBe(200);
    expect(one.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(one.text).toContain(`<option value="${f.ids.locality}">Testville</option>`);
    expect(one.text).not.toContain("<script");
    expect(one.text).not.toContain("style=");
  });

  test("code, day and address book the day: the confirmation names it, the row is stored, text escaped", async () => {
    const two = await toStepTwo("7900 1234");
    const days = daysOf(two);
    expect(days.length).toBeGreaterThan(1);
    expect(two).toContain(longDay(days[1]!));
    const code = await f.lastCode("+35679001234");
    const wrong = code === "000000" ? "000001" : "000000";
    const bad = await stepThree(two, { code: wrong, day: days[1]! });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("4 tries left");
    const done = await stepThree(bad.text, { code, day: days[1]! });
    expect(done.status).toBe(200);
    expect(done.text).toContain(`Booked for ${longDay(days[1]!)}`);
    expect(done.text).toContain("we will confirm by SMS".replace("we", "We"));
    expect(done.text).toContain("Triq &#60;b&#62;il-Prova&#60;/b&#62;");
    const rows = await f.box.database.db.select().from(publicBookings).where(eq(publicBookings.day, days[1]!));
    expect(rows).toMatchObject([{ phone: "+35679001234", locality_id: f.ids.locality, number: "7", status: "received" }]);
  });

  test("a full day offers the next day with room; the code is kept for it", async () => {
    const two = await toStepTwo("79001234");
    const days = daysOf(two);
    // Another customer takes the first day's one stop meanwhile (through the API's service).
    const other = (await f.box.database.db.query.customers.findFirst({ where: (c, { ne }) => ne(c.id, f.ids.customer) }))!;
    await f.box.database.db.update(customers).set({ mobile: "79007777" }).where(eq(customers.id, other.id));
    await f.box.publicService.sendCode("79007777");
    await f.box.publicService.book({
      phone: "79007777",
      code: await f.lastCode("+35679007777"),
      locality: f.ids.locality,
      street: "X",
      number: "1",
      day: days[0]!,
      note: "",
    });
    const full = await stepThree(two, { code: await f.lastCode("+35679001234"), day: days[0]! });
    expect(full.status).toBe(409);
    expect(full.text).toContain(`the next day with room is ${longDay(days[1]!)}`);
    expect(full.text).toContain(`<option value="${days[1]}" selected>`);
  });

  test("a forged or another step's form token is refused, and nothing is sent or booked", async () => {
    const one = await form("/book");
    const forged = await form("/book/code", { t: "1.abc", locality: String(f.ids.locality), phone: "79001234" });
    expect(forged.status).toBe(400);
    const cross = await form("/book", {
      t: hiddenOf(one.text, "t"),
      locality: String(f.ids.locality),
      phone: "79001234",
      code: "123456",
      street: "a",
      number: "1",
      day: "2026-12-01",
    });
    expect(cross.status).toBe(400);
    // Step 2's token is bound to the phone: another phone cannot reuse it.
    const two = await toStepTwo("79001234");
    const swapped = await form("/book", {
      t: hiddenOf(two, "t"),
      locality: String(f.ids.locality),
      phone: "79007777",
      code: "123456",
      street: "a",
      number: "1",
      day: daysOf(two)[0]!,
    });
    expect(swapped.status).toBe(400);
  });
});
