import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { inboundMessages, reminders } from "../../../db/schema";
import { type ModemSimulator, startModemSimulator } from "../../../drivers/messaging/testing/modem-simulator";
import { parseCmgl } from "../../../drivers/messaging/gsmModem";
import { addDays, businessDay } from "../../domain/dates";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

// Replies read off a GSM modem (issue 35): the reminder leaves through the modem stand-in (a
// socat pty answering AT commands), the customer's SKIP is stored on it, the box lists the
// stored texts with AT+CMGL, records each once and deletes it with AT+CMGD.

let dir: string;
let box: TestBox;
let sim: ModemSimulator;
const rows = async (sql: string, args: (number | string | null)[] = []) =>
  (await box.database.client.execute({ sql, args })).rows as unknown as Record<string, any>[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ironbox-modem-replies-"));
  const devRoot = join(dir, "dev");
  sim = await startModemSimulator({ devRoot, dir });
  box = await testBox({ demo: true, env: { IRONBOX_DEV_ROOT: devRoot } });
  box.messaging.sender.pause();
  const admin = await box.employeeToken(ADMIN.pin);
  const put = await box.call("PUT", "/api/v1/messaging/settings", {
    token: admin,
    body: { sms_gateway_url: "", modem_path: sim.path, smtp_url: "", smtp_from: "" },
  });
  expect(put.status).toBe(200);
}, 60_000);
afterAll(async () => {
  box?.close();
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("AT+CMGL's text-mode answer: header and text lines per message", () => {
  expect(
    parseCmgl([
      '+CMGL: 3,"REC UNREAD","+35679140001",,"26/11/22,10:00:00+04"',
      "SKIP",
      '+CMGL: 7,"REC READ","+447700900123",,"26/11/22,10:01:00+04"',
      "two",
      "lines",
    ]),
  ).toEqual([
    { index: 3, from: "+35679140001", sentAt: "26/11/22,10:00:00+04", text: "SKIP" },
    { index: 7, from: "+447700900123", sentAt: "26/11/22,10:01:00+04", text: "two\nlines" },
  ]);
});

test("a SKIP stored on the modem answers the reminder once and is deleted from the modem", async () => {
  const [c] = await rows(
    "SELECT c.id, c.address_id FROM customers c JOIN agents a ON a.id = c.agent_id WHERE a.user_name = 'birkirkara' AND c.address_id IS NOT NULL ORDER BY c.id LIMIT 1",
  );
  await rows("UPDATE customers SET mobile = '79140001', no_messages = 0 WHERE id = ?", [c!.id]);
  const day = addDays(businessDay(box.clock.now()), 1);
  const [tk] = await rows(
    `INSERT INTO tickets (agent_id, employee_id, customer_id, pickup_date, pickup_from_client, state, total, pickup_address_id, confirmed_at)
     SELECT agent_id, (SELECT id FROM employees WHERE agent_id = customers.agent_id LIMIT 1), id, ?, 1, 'AWAITING PICKUP', 1000, address_id, '2026-11-20T10:00:00.000Z' FROM customers WHERE id = ? RETURNING id`,
    [day, c!.id],
  );
  const ticket = Number(tk!.id);
  await box.messaging.reminders.remind();
  await box.messaging.sender.tick();
  expect(sim.messages.find((m) => m.to === "79140001")?.text).toEndWith("Reply YES to confirm or SKIP");

  sim.stored.push(
    { index: 1, from: "+35679140001", sentAt: "26/11/22,10:00:00+04", text: "Skip", read: false },
    { index: 2, from: "+447700900999", sentAt: "26/11/22,10:00:05+04", text: "hello?", read: false },
  );
  expect(await box.messaging.readModem()).toBe(2);
  expect(sim.stored).toEqual([]);
  expect(sim.commands).toContain('AT+CMGL="ALL"');
  expect(sim.commands).toContain("AT+CMGD=1");
  const [r] = await box.database.db.select().from(reminders).where(eq(reminders.ticket_id, ticket));
  expect(r).toMatchObject({ answer: "skip" });
  const got = await box.database.db.select().from(inboundMessages).where(eq(inboundMessages.source, "modem"));
  expect(got.map((g) => g.action).sort()).toEqual(["inbox", "skipped"]);

  // The same text stored again (a delete lost with the power): recorded once.
  sim.stored.push({ index: 1, from: "+35679140001", sentAt: "26/11/22,10:00:00+04", text: "Skip", read: false });
  expect(await box.messaging.readModem()).toBe(1);
  expect((await box.database.db.select().from(inboundMessages).where(eq(inboundMessages.source, "modem"))).length).toBe(2);
});
