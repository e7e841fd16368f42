import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parse } from "csv-parse/sync";
import { SMTPServer } from "smtp-server";
import { checkTotals } from "../money/check";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

let box: TestBox;
/** A local SMTP server keeping each mail as it arrived (the messaging tests' stand-in). */
let smtp: SMTPServer;
const mails: { to: string; raw: string }[] = [];
let admin: string;
let manager: string;
let clerk: string;
let otherManager: string;
const ids: Record<string, number> = {};

const api = (method: string, path: string, body: unknown, token: string, headers?: Record<string, string>) =>
  box.call(method, `/api/v1${path}`, { token, body, headers });
const ok = async (method: string, path: string, body: unknown, token: string, headers?: Record<string, string>) => {
  const r = await api(method, path, body, token, headers);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
const raw = (path: string, token: string) => box.app.handle(new Request(`http://localhost/api/v1${path}`, { headers: { authorization: `token ${token}` } }));
const values = async (sql: string) => (await box.database.client.execute(sql)).rows.map((r) => Object.values(r));

async function login() {
  admin = await box.employeeToken(ADMIN.pin, await box.agentToken());
  if (!ids.mosta) return;
  manager = await box.employeeToken(5101, await box.agentToken("mosta-a", "mosta-a-pass"));
  clerk = await box.employeeToken(5102, await box.agentToken("mosta-a", "mosta-a-pass"));
  otherManager = await box.employeeToken(5202, await box.agentToken("bkara-a", "bkara-a-pass"));
}
/** Moves the box's clock (and logs everyone in again: sessions expire). */
async function at(iso: string) {
  box.clock.set(iso);
  await login();
}

/** A confirmed ticket of Mosta for a customer: two shirts at €3 and a suit at €12.50 (€18.50). */
async function ticket(customer = ids.hotelGuest!) {
  const t = await ok("POST", "/tickets/", { customer_id: customer }, clerk);
  for (const g of [ids.shirt, ids.shirt, ids.suit]) await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: g }, clerk);
  await ok("PUT", `/tickets/${t.id}/confirm`, undefined, clerk);
  return t.id as number;
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c) => chunks.push(c));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), raw: Buffer.concat(chunks).toString("utf8") });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
  box = await testBox({ now: "2026-10-01T09:00:00Z" });
  box.messaging.sender.pause();
  await login();
  for (const [name, user] of [
    ["Mosta", "mosta-a"],
    ["B Kara", "bkara-a"],
  ] as const) {
    const shop = await ok("POST", "/agents/", { name, user_name: user, landline: "21234567" }, admin);
    await ok("PUT", `/agents/password/${shop.id}`, { password: `${user}-pass` }, admin);
    ids[user === "mosta-a" ? "mosta" : "bkara"] = shop.id;
  }
  await ok("POST", "/employees/", { agent_id: ids.mosta, full_name: "Maria Manager", role: "manager", pin: 5101 }, admin);
  await ok("POST", "/employees/", { agent_id: ids.mosta, full_name: "Carl Clerk", role: "employee", pin: 5102 }, admin);
  await ok("POST", "/employees/", { agent_id: ids.bkara, full_name: "Omar Other", role: "manager", pin: 5202 }, admin);
  await login();
  const dc = (await ok("POST", "/actions/", { name: "Dry Cleaning", up_charge: 10 }, admin)).id;
  const cat = (await ok("POST", "/garmentCategories/", { type: "Dry Clean", name: "Suits", default_action_id: dc }, admin)).id;
  ids.suit = (await ok("POST", "/garmentSubCategories/", { garment_category_id: cat, name: "Suit 2pc", pieces: "Jacket,Trousers" }, admin)).id;
  ids.shirt = (await ok("POST", "/garmentSubCategories/", { garment_category_id: cat, name: "Shirt" }, admin)).id;
  await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids.suit, action_id: dc, price: 12.5 }, admin);
  await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids.shirt, action_id: dc, price: 3 }, admin);
  ids.hotelGuest = (await ok("POST", "/customers/", { full_name: "Hotel Phoenicia housekeeping", mobile: "79123456" }, clerk)).id;
  ids.walkIn = (await ok("POST", "/customers/", { full_name: "Joseph Camilleri", mobile: "79123457" }, clerk)).id;
  ids.otherCustomer = (await ok("POST", "/customers/", { full_name: "Rita Other", mobile: "79123458" }, otherManager)).id;
  await ok("PUT", `/invoicePrefixes/${ids.mosta}`, { prefix: "MST" }, admin);
  await ok(
    "PUT",
    "/messaging/settings",
    {
      sms_gateway_url: "",
      modem_path: "",
      smtp_url: `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`,
      smtp_from: "Ironbox Mosta <mosta@ironbox.mt>",
    },
    admin,
  );
});
afterAll(async () => {
  box.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

describe("accounts", () => {
  test("CRUD, scoped like customers: another shop's account or customer is not found; a customer charges to one account", async () => {
    const a = await ok(
      "POST",
      "/accounts/",
      {
        name: "=Hotel Phoenicia",
        customer_ids: [ids.hotelGuest],
        billing_contact: "Anna Accounts",
        email: "accounts@phoenicia.example",
        vat_number: "MT 1234-5678",
        terms_days: 30,
        credit_limit: 40,
      },
      manager,
    );
    ids.hotel = a.id;
    expect(a).toMatchObject({ agent_id: ids.mosta, customer_ids: [ids.hotelGuest], credit_limit: 40, balance: 0, terms_days: 30 });
    expect((await ok("GET", "/accounts/", undefined, clerk)).map((x: { id: number }) => x.id)).toEqual([a.id]);
    // People read names, not numbers: the billing shop's name (HQ lists every shop's) and the customers'.
    expect(a.customers).toEqual([{ id: ids.hotelGuest, full_name: "Hotel Phoenicia housekeeping", mobile: "79123456" }]);
    expect((await ok("GET", "/accounts/", undefined, admin)).map((x: { agent_name: string }) => x.agent_name)).toEqual(["Mosta"]);
    expect((await ok("GET", `/accounts/${a.id}`, undefined, clerk)).agent_name).toBe("Mosta");
    expect((await api("GET", `/accounts/${a.id}`, undefined, otherManager)).status).toBe(404);
    expect((await api("PUT", `/accounts/${a.id}`, { name: "Mine" }, otherManager)).status).toBe(404);
    expect(await ok("GET", "/accounts/", undefined, otherManager)).toEqual([]);
    // Another shop's customer: 404; a customer already on an account: 409; a clerk may not open one.
    expect((await api("POST", "/accounts/", { name: "X", customer_ids: [ids.otherCustomer] }, manager)).status).toBe(404);
    expect((await api("POST", "/accounts/", { name: "X", customer_ids: [ids.hotelGuest] }, manager)).status).toBe(409);
    expect((await api("POST", "/accounts/", { name: "X" }, clerk)).status).toBe(403);
    // Fractions of a cent are refused, not rounded.
    const frac = await api("POST", "/accounts/", { name: "X", credit_limit: 10.005 }, manager);
    expect(frac.status).toBe(422);
    expect((await ok("PUT", `/accounts/${a.id}`, { ...a, terms_days: 14 }, manager)).terms_days).toBe(14);
    // HQ sees every shop's.
    expect((await ok("GET", "/accounts/", undefined, admin)).length).toBe(1);
  });

  test("the account tender: a payment row of tender account and the account's charge; over the limit a manager's PIN", async () => {
    await at("2026-10-05T09:00:00Z");
    const t1 = await ticket();
    const paid = await ok("PUT", `/tickets/paidFor/${t1}?method=account`, undefined, clerk);
    expect(paid).toMatchObject({ total_paid: 18.5, balance: 0 });
    const rows = await ok("GET", `/payments/?ticket=${t1}`, undefined, clerk);
    expect(rows.every((r: { tender: string }) => r.tender === "account")).toBe(true);
    expect((await ok("GET", `/accounts/${ids.hotel}`, undefined, clerk)).balance).toBe(18.5);
    // Not in the drawer: cash expected stays 0, shown as on account.
    const till = await ok("GET", "/till/2026-10-05", undefined, manager);
    expect(till.expected).toEqual({ cash: 0, card: 0, other: 0 });
    expect(till.on_account).toBe(18.5);
    // A customer on no account cannot charge.
    const walkIn = await ticket(ids.walkIn);
    expect((await api("PUT", `/tickets/paidFor/${walkIn}?method=account`, undefined, clerk)).status).toBe(422);

    await at("2026-10-12T09:00:00Z");
    const t2 = await ticket();
    // €37 > €40? No: €18.50 + €18.50 = €37 fits; a third would not.
    await ok("PUT", `/tickets/paidFor/${t2}?method=account`, undefined, clerk);
    await at("2026-10-20T09:00:00Z");
    const t3 = await ticket();
    const refused = await api("PUT", `/tickets/paidFor/${t3}?method=account`, undefined, clerk);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toStartWith("Manager approval required");
    expect((await api("PUT", `/tickets/paidFor/${t3}?method=account`, { approval: { pin: "0000" } }, clerk)).status).toBe(403);
    const approved = await ok("PUT", `/tickets/paidFor/${t3}?method=account`, { approval: { pin: "5101" } }, clerk);
    expect(approved.total_paid).toBe(18.5);
    expect((await ok("GET", `/accounts/${ids.hotel}`, undefined, clerk)).balance).toBe(55.5);
    // The payment rows carry who approved.
    const r3 = await ok("GET", `/payments/?ticket=${t3}`, undefined, clerk);
    expect(r3.every((r: { approved_by: number | null }) => r.approved_by !== null)).toBe(true);
    ids.t1 = t1;
  });

  test("an invoice bills the month's charges: its shop's series, lines per ticket and item, VAT per rate to the cent, due date from the terms", async () => {
    await at("2026-11-01T08:00:00Z");
    const key = { "idempotency-key": "inv-oct-1" };
    const inv = await ok("POST", `/accounts/${ids.hotel}/invoices`, { from: "2026-10-01", to: "2026-10-31" }, manager, key);
    expect(inv.number).toBe("MST-2026-000001");
    expect(inv.issued_on).toBe("2026-11-01");
    expect(inv.due_on).toBe("2026-11-15");
    expect(inv.vat_number).toBe("MT 1234-5678");
    expect(inv.lines.length).toBe(9);
    for (const l of inv.lines) expect(Math.round(l.net * 100) + Math.round(l.vat * 100)).toBe(Math.round(l.gross * 100));
    expect(inv.lines.find((l: { gross: number }) => l.gross === 12.5)).toMatchObject({ net: 10.59, vat: 1.91, vat_rate: 18 });
    expect(inv.total).toBe(55.5);
    expect(inv.vat).toEqual([{ rate: 18, net: inv.net, vat: inv.vat_total, gross: 55.5 }]);
    expect(Math.round(inv.net * 100) + Math.round(inv.vat_total * 100)).toBe(5550);
    // A retry with the same key answers the first invoice; another POST finds nothing left and takes no number.
    expect((await ok("POST", `/accounts/${ids.hotel}/invoices`, { from: "2026-10-01", to: "2026-10-31" }, manager, key)).id).toBe(inv.id);
    expect((await api("POST", `/accounts/${ids.hotel}/invoices`, { from: "2026-10-01", to: "2026-10-31" }, manager)).status).toBe(422);
    expect((await api("POST", `/accounts/${ids.hotel}/invoices`, { from: "2026-10-01", to: "2026-10-31" }, otherManager)).status).toBe(404);
    expect((await api("GET", `/invoices/${inv.id}`, undefined, otherManager)).status).toBe(404);
    ids.inv1 = inv.id;
    // The account's tickets: each charged ticket once, with the invoice that billed it; another shop's: 404.
    const charged = await ok("GET", `/accounts/${ids.hotel}/charges`, undefined, manager);
    expect(charged.length).toBeGreaterThan(0);
    expect(charged.every((c: { invoice_number: string | null }) => c.invoice_number === "MST-2026-000001")).toBe(true);
    expect(Math.round(charged.reduce((t: number, c: { amount: number }) => t + c.amount * 100, 0))).toBe(5550);
    expect((await api("GET", `/accounts/${ids.hotel}/charges`, undefined, otherManager)).status).toBe(404);
    // The database refuses changing or deleting it.
    await expect(box.database.client.execute(`UPDATE invoice_lines SET gross = 1 WHERE invoice_id = ${inv.id}`)).rejects.toThrow();
    await expect(box.database.client.execute(`DELETE FROM invoices WHERE id = ${inv.id}`)).rejects.toThrow();
  });

  test("the PDF shows the shop, the VAT number and DD/MM/YYYY dates; sending e-mails it once with the PDF attached", async () => {
    const pdf = await raw(`/invoices/${ids.inv1}/pdf`, manager);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const file = `${box.dir}/inv.pdf`;
    await Bun.write(file, bytes);
    const text = Bun.spawnSync(["pdftotext", "-layout", file, "-"]).stdout.toString();
    for (const s of ["Mosta", "MST-2026-000001", "MT 1234-5678", "01/11/2026", "15/11/2026", "=Hotel Phoenicia"]) expect(text).toContain(s);

    const first = await ok("POST", `/invoices/${ids.inv1}/send`, undefined, manager);
    const again = await ok("POST", `/invoices/${ids.inv1}/send`, undefined, manager);
    expect(first.sent.length).toBe(1);
    expect(again.sent).toEqual(first.sent);
    await box.messaging.sender.tick();
    expect(mails.length).toBe(1);
    const mail = mails[0]!;
    expect(mail.to).toBe("accounts@phoenicia.example");
    expect(mail.raw).toContain("Subject: Invoice MST-2026-000001 from Mosta");
    expect(mail.raw).toContain("application/pdf");
    expect(mail.raw).toContain("Invoice MST-2026-000001.pdf");
    expect((await ok("GET", `/invoices/${ids.inv1}`, undefined, manager)).sent[0].status).toBe("sent");
    // Deliberately again: a second round, a second mail.
    expect((await ok("POST", `/invoices/${ids.inv1}/send?again=true`, undefined, manager)).sent.length).toBe(2);
    await box.messaging.sender.tick();
    expect(mails.length).toBe(2);
  });

  test("a credit note takes money off, in its own series, never more than the invoice asks", async () => {
    const cn = await ok("POST", `/invoices/${ids.inv1}/credit`, { amount: 5.5, reason: "Shirt returned stained" }, manager, { "idempotency-key": "cn-1" });
    expect(cn).toMatchObject({ number: "MST-CN-2026-000001", amount: 5.5 });
    ids.cn1 = cn.id;
    expect(
      (await ok("POST", `/invoices/${ids.inv1}/credit`, { amount: 5.5, reason: "Shirt returned stained" }, manager, { "idempotency-key": "cn-1" })).id,
    ).toBe(cn.id);
    expect((await api("POST", `/invoices/${ids.inv1}/credit`, { amount: 50.01, reason: "too much" }, manager)).status).toBe(422);
    expect((await api("POST", `/invoices/${ids.inv1}/credit`, { amount: 1.001, reason: "fraction" }, manager)).status).toBe(422);
    expect((await api("POST", `/invoices/${ids.inv1}/credit`, { amount: 1, reason: "x" }, clerk)).status).toBe(403);
    const inv = await ok("GET", `/invoices/${ids.inv1}`, undefined, manager);
    expect(inv).toMatchObject({ total: 55.5, credited: 5.5, open: 50 });
    expect((await ok("GET", `/accounts/${ids.hotel}`, undefined, manager)).balance).toBe(50);
  });

  test("payments on account: oldest invoice first, part payments, an overpayment stays as credit", async () => {
    // A second invoice for November's charge.
    await at("2026-11-10T09:00:00Z");
    const t4 = await ticket();
    // The account is past its limit: a manager charges it alone.
    await ok("PUT", `/tickets/paidFor/${t4}?method=account&amount=10`, undefined, manager);
    await at("2026-12-01T09:00:00Z");
    const inv2 = await ok("POST", `/accounts/${ids.hotel}/invoices`, { from: "2026-11-01", to: "2026-11-30" }, manager);
    expect(inv2.number).toBe("MST-2026-000002");
    expect(inv2.total).toBe(10);
    ids.inv2 = inv2.id;
    const part = await ok("POST", `/accounts/${ids.hotel}/payments`, { amount: 30, method: "bank_transfer", reference: "TRF 991" }, manager, {
      "idempotency-key": "p-1",
    });
    expect(part.allocations).toEqual([{ invoice_id: ids.inv1, invoice_number: "MST-2026-000001", amount: 30 }]);
    expect(part.unallocated).toBe(0);
    // The retry moves no money.
    expect(
      (
        await ok("POST", `/accounts/${ids.hotel}/payments`, { amount: 30, method: "bank_transfer", reference: "TRF 991" }, manager, {
          "idempotency-key": "p-1",
        })
      ).id,
    ).toBe(part.id);
    // The invoice lists what settled it: its credit note and the part payment; open is the rest to the cent.
    const settled = await ok("GET", `/invoices/${ids.inv1}`, undefined, manager);
    expect(settled.allocations).toEqual([
      { kind: "credit_note", id: ids.cn1, date: "2026-11-01", amount: 5.5, method: null, reference: "MST-CN-2026-000001" },
      { kind: "payment", id: part.id, date: "2026-12-01", amount: 30, method: "bank_transfer", reference: "TRF 991" },
    ]);
    expect(settled).toMatchObject({ total: 55.5, credited: 5.5, paid: 30, open: 20 });
    // Told which invoice; then an overpayment.
    const told = await ok(
      "POST",
      `/accounts/${ids.hotel}/payments`,
      { amount: 4, method: "card", allocations: [{ invoice_id: ids.inv2, amount: 4 }] },
      manager,
    );
    expect(told.allocations.map((a: { invoice_id: number }) => a.invoice_id)).toEqual([ids.inv2]);
    expect(
      (await api("POST", `/accounts/${ids.hotel}/payments`, { amount: 4, method: "card", allocations: [{ invoice_id: ids.inv2, amount: 7 }] }, manager)).status,
    ).toBe(422);
    expect((await api("POST", `/accounts/${ids.hotel}/payments`, { amount: 0.001, method: "card" }, manager)).status).toBe(422);
    const over = await ok("POST", `/accounts/${ids.hotel}/payments`, { amount: 40, method: "cheque" }, manager);
    expect(over.allocations.map((a: { amount: number }) => a.amount)).toEqual([20, 6]);
    expect(over.unallocated).toBe(14);
    // 55.50 + 10 charged − 5.50 credited − 74 paid = −14: credit on the account.
    expect((await ok("GET", `/accounts/${ids.hotel}`, undefined, manager)).balance).toBe(-14);
    const paidOff = await ok("GET", `/invoices/${ids.inv1}`, undefined, manager);
    expect(paidOff.allocations.map((x: { kind: string; amount: number; method: string | null }) => [x.kind, x.amount, x.method])).toEqual([
      ["credit_note", 5.5, null],
      ["payment", 30, "bank_transfer"],
      ["payment", 20, "cheque"],
    ]);
    expect(paidOff.open).toBe(0);
  });

  test("the statement and the aged report agree with the balance to the cent; both as CSV", async () => {
    await at("2026-12-20T09:00:00Z");
    const t5 = await ticket();
    await ok(
      "PUT",
      `/ticketSubCategory/paidFor/${(await ok("GET", `/tickets/${t5}`, undefined, clerk)).ticket_sub_categories[2].id}/12.5?method=account`,
      undefined,
      manager,
    );
    const s = await ok("GET", `/accounts/${ids.hotel}/statement?from=2026-11-15&to=2026-12-20`, undefined, manager);
    // Before 15/11: invoice 1 (55.50) less its credit note (5.50).
    expect(s.opening_balance).toBe(50);
    expect(s.lines.map((l: { kind: string; amount: number }) => [l.kind, l.amount])).toEqual([
      ["invoice", 10],
      ["payment", -30],
      ["payment", -4],
      ["payment", -40],
    ]);
    expect(s.closing_balance).toBe(-14);
    expect(s.not_invoiced).toBe(12.5);
    const balance = (await ok("GET", `/accounts/${ids.hotel}`, undefined, manager)).balance;
    expect(Math.round((s.closing_balance + s.not_invoiced) * 100)).toBe(Math.round(balance * 100));
    const aged = await ok("GET", "/accounts/aged", undefined, manager);
    const row = aged.accounts.find((a: { account_id: number }) => a.account_id === ids.hotel);
    expect(row).toMatchObject({ not_invoiced: 12.5, d0_30: -14, d31_60: 0, balance: -1.5 });
    expect(row.balance).toBe(balance);

    const csv = await (await raw(`/accounts/${ids.hotel}/statement?from=2026-11-15&to=2026-12-20&format=csv`, manager)).text();
    const rows = parse(csv) as string[][];
    expect(rows[0]).toEqual(["Date", "Kind", "Reference", "Amount", "Balance"]);
    expect(rows.at(-2)).toEqual(["20-12-2026", "closing balance", "", "", "-14.00"]);
    const agedCsv = parse(await (await raw("/accounts/aged?format=csv", manager)).text()) as string[][];
    // The account's name starts with "=": neutralised, never a formula.
    expect(agedCsv[1]![0]).toBe("'=Hotel Phoenicia");
    expect(agedCsv[1]!.at(-1)).toBe("-1.50");
    // The shop by its name, not its number; a shop's box has no sites' copies to read.
    expect(agedCsv[1]![1]).toBe("Mosta");
    expect(row).toMatchObject({ agent_name: "Mosta", site: null });
    expect((await api("GET", "/accounts/aged?site=mosta", undefined, manager)).status).toBe(404);
    expect((await api("GET", `/accounts/${ids.hotel}/statement?from=2026-11-15&to=2026-12-20&site=mosta`, undefined, manager)).status).toBe(404);
    expect((await raw("/accounts/aged", otherManager).then((r) => r.json())).data.accounts).toEqual([]);
  });

  test("the accountant's journal: charges, payments on account and credit notes balance every day, and the receivable is the accounts' balances", async () => {
    const res = await raw("/accounting/journal?from=2026-10-01&to=2026-12-31&format=csv", admin);
    expect(res.status).toBe(200);
    const rows = (parse((await res.text()).replace(/^\uFEFF/, "")) as string[][]).slice(1);
    const cents = (v: string) => (v === "" ? 0 : Math.round(Number(v) * 100));
    const days = new Map<string, number>();
    for (const r of rows) days.set(r[2]!, (days.get(r[2]!) ?? 0) + cents(r[6]!) - cents(r[7]!));
    expect(days.size).toBeGreaterThan(2);
    for (const [day, net] of days) expect(net, day).toBe(0);
    const receivable = rows.filter((r) => r[3] === "610").reduce((a, r) => a + cents(r[6]!) - cents(r[7]!), 0);
    const list = (await ok("GET", "/accounts/", undefined, admin)) as { balance: number }[];
    expect(receivable).toBe(list.reduce((a, x) => a + Math.round(x.balance * 100), 0));
    expect(rows.some((r) => r[5] === "Payments on account by bank transfer")).toBe(true);
    expect(rows.some((r) => r[5] === "Credit notes" && r[3] === "610")).toBe(true);
  });

  test("a refund of a charge on account lowers the account; the daily money check covers the new rows", async () => {
    const [p] = await ok("GET", `/payments/?ticket=${ids.t1}`, undefined, manager);
    const before = (await ok("GET", `/accounts/${ids.hotel}`, undefined, manager)).balance;
    await ok("POST", `/payments/${p.id}/refund`, { amount: 1, reason: "goodwill" }, manager);
    expect((await ok("GET", `/accounts/${ids.hotel}`, undefined, manager)).balance).toBe(before - 1);
    expect((await checkTotals(values)).ok).toBe(true);
    // A charge that is not its payment row is refused by the database; a payment row on account without its charge is found.
    await expect(
      box.database.client.execute(
        `INSERT INTO account_charges (account_id, payment_id, ticket_id, amount, at) VALUES (${ids.hotel}, ${p.id}, ${ids.t1}, 1, 'x')`,
      ),
    ).rejects.toThrow();
    await box.database.client.execute(
      `INSERT INTO payments (ticket_id, agent_id, amount, tender, taken_at, till_day) VALUES (${ids.t1}, ${ids.mosta}, 1, 'account', '2026-12-20T09:00:00Z', '2026-12-20')`,
    );
    const check = await checkTotals(values);
    expect(check.ok).toBe(false);
    expect(check.first.some((m) => m.kind === "account charge")).toBe(true);
  });
});
