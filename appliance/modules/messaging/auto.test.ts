import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { and, eq, isNull, ne } from "drizzle-orm";
import { agents, autoMessages, boxSettings, customers, outgoingMessages, tickets } from "../../../db/schema";
import { type GatewayStandIn, startGatewayStandIn } from "../../../drivers/messaging/testing/android-gateway-stand-in";
import { bootAppliance } from "../../boot";
import { loadConfig } from "../../platform/config";
import { testBox, type TestBox } from "../../test/harness";
import { ticketReads } from "../tickets/reads";

// Automatic status messages (issue 25) against the real database and a stand-in of the
// Android gateway. The sender is paused: the state log is followed with auto.follow() and
// the outbox sent with tick(), the clock moved by hand.

const API = "/api/v1";
let box: TestBox;
let gateway: GatewayStandIn;
let employee: string;
let shopAdmin: string;
let hqAdmin: string;
let birkirkara = 0;
const READY = "AWAITING DELIVERY";
let readyId = 0;

const db = () => box.database.db;
const autoRows = (ticketId: number) =>
  db()
    .select()
    .from(outgoingMessages)
    .where(and(eq(outgoingMessages.ticket_id, ticketId), isNull(outgoingMessages.employee_id)));
const decided = (ticketId: number) => db().select().from(autoMessages).where(eq(autoMessages.ticket_id, ticketId));

async function login() {
  const shop = await box.agentToken("birkirkara", "shop-demo-2026");
  employee = await box.employeeToken("6666", shop);
  shopAdmin = await box.employeeToken("5555", shop);
  hqAdmin = await box.employeeToken("1111");
}
/** A confirmed Birkirkara ticket not yet messaged, given a customer of its own reachable at `mobile`. */
async function ticketFor(mobile: string, noMessages = false) {
  const list = await db()
    .select()
    .from(tickets)
    .where(and(eq(tickets.agent_id, birkirkara), ne(tickets.state, "CREATED"), ne(tickets.state, READY)));
  const t = list.find((x) => !taken.has(x.id))!;
  taken.add(t.id);
  const all = await db().select({ id: customers.id }).from(customers).where(eq(customers.agent_id, birkirkara));
  const c = all.find((x) => !takenCustomers.has(x.id))!;
  takenCustomers.add(c.id);
  await db().update(customers).set({ mobile, no_messages: noMessages }).where(eq(customers.id, c.id));
  await db().update(tickets).set({ customer_id: c.id }).where(eq(tickets.id, t.id));
  return t;
}
const taken = new Set<number>();
const takenCustomers = new Set<number>();
async function setState(ids: number[], state: string) {
  const r = await box.call("PUT", `${API}/tickets/changeState`, { token: employee, body: { Ids: ids, State: state } });
  expect(r.status).toBe(200);
}
async function setTemplate(token: string, stateId: number, body: { text: string; auto_send?: boolean }) {
  return box.call("PUT", `${API}/messaging/templates/${stateId}`, { token, body });
}

beforeAll(async () => {
  gateway = startGatewayStandIn({ user: "sms", pass: "s3cret", sentAfterMs: 1 });
  box = await testBox({ demo: true });
  box.messaging.sender.pause();
  birkirkara = (await db().query.agents.findFirst({ where: eq(agents.user_name, "birkirkara") }))!.id;
  await login();
  const put = await box.call("PUT", `${API}/messaging/settings`, {
    token: hqAdmin,
    body: { sms_gateway_url: gateway.url, modem_path: "", smtp_url: "", smtp_from: "" },
  });
  expect(put.status).toBe(200);
  const templates = (await box.call("GET", `${API}/messaging/templates`, { token: employee })).json.data as { state_id: number; state: string; text: string }[];
  readyId = templates.find((t) => t.state === READY)!.state_id;
  // The box starts following the state log here: earlier changes are not messaged.
  await box.messaging.auto.follow();
}, 60_000);
afterAll(async () => {
  box?.close();
  await gateway?.stop();
});
beforeEach(async () => {
  box.clock.set("2026-11-23T09:00:00Z"); // 10:00 in Malta: not quiet
  await login();
});

describe("marking a template", () => {
  test("HQ staff mark a state's template to go by itself; a shop's admin cannot (403), and nothing changes", async () => {
    const text = "Dear {customer_name}, ticket {ticket_id} is {state}. Amount due: {amount_due}. {shop_name}";
    const refused = await setTemplate(shopAdmin, readyId, { text, auto_send: true });
    expect(refused.status).toBe(403);
    const before = (await box.call("GET", `${API}/messaging/templates`, { token: employee })).json.data.find(
      (t: { state_id: number }) => t.state_id === readyId,
    );
    expect(before.auto_send).toBe(false);
    const ok = await setTemplate(hqAdmin, readyId, { text, auto_send: true });
    expect(ok.status).toBe(200);
    expect(ok.json.data).toMatchObject({ state: READY, auto_send: true, is_default: false });
    // Saving the text alone keeps the flag.
    expect((await setTemplate(hqAdmin, readyId, { text })).json.data.auto_send).toBe(true);
  });
});

describe("a ticket reaching a marked state", () => {
  test("queues its message once, whatever happens next: the state reached again, two followers at once", async () => {
    const t = await ticketFor("79100001");
    await setState([t.id], READY);
    const [a, b] = await Promise.all([box.messaging.auto.follow(), box.messaging.auto.follow()]);
    expect(a.queued + (a === b ? 0 : b.queued)).toBe(1);
    const [row] = await autoRows(t.id);
    expect(await autoRows(t.id)).toHaveLength(1);
    expect(row).toMatchObject({ status: "queued", channel: "sms", recipient: "79100001", next_attempt_at: "2026-11-23T09:00:00.000Z" });
    // Said as people say it, never the state's code.
    expect(row!.text).toContain("is ready for delivery");
    expect(row!.text).not.toContain(READY);
    await box.messaging.sender.tick();
    expect(gateway.received.filter((m) => m.to === "79100001")).toHaveLength(1);
    // Back to IN PROGRESS and ready again: no second message.
    await setState([t.id], "IN PROGRESS");
    await setState([t.id], READY);
    await box.messaging.auto.follow();
    expect(await autoRows(t.id)).toHaveLength(1);
    expect(await decided(t.id)).toMatchObject([{ state: READY, outcome: "queued", outgoing_message_id: row!.id }]);
  });

  test("a state that is not marked sends nothing (control: the marked one does)", async () => {
    const t = await ticketFor("79100002");
    await setState([t.id], "IN PROGRESS");
    expect((await box.messaging.auto.follow()).queued).toBe(0);
    expect(await autoRows(t.id)).toHaveLength(0);
    await setState([t.id], READY);
    expect((await box.messaging.auto.follow()).queued).toBe(1);
  });

  test("a customer who asked for no messages is skipped, and the skip is recorded", async () => {
    const t = await ticketFor("79100003", true);
    await setState([t.id], READY);
    const tally = await box.messaging.auto.follow();
    expect(tally).toMatchObject({ queued: 0, skipped_no_messages: 1 });
    expect(await autoRows(t.id)).toHaveLength(0);
    expect(await decided(t.id)).toMatchObject([{ state: READY, outcome: "skipped_no_messages", outgoing_message_id: null }]);
    await box.messaging.sender.tick();
    expect(gateway.received.filter((m) => m.to === "79100003")).toHaveLength(0);
  });

  test("at night it waits for the end of quiet hours (21:00–08:00 in Malta by default), then goes", async () => {
    box.clock.set("2026-11-23T21:30:00Z"); // 22:30 in Malta
    await login();
    const t = await ticketFor("79100004");
    await setState([t.id], READY);
    await box.messaging.auto.follow();
    const [row] = await autoRows(t.id);
    expect(row).toMatchObject({ status: "queued", next_attempt_at: "2026-11-24T07:00:00.000Z" }); // 08:00 in Malta
    await box.messaging.sender.tick();
    expect(gateway.received.filter((m) => m.to === "79100004")).toHaveLength(0);
    box.clock.set("2026-11-24T06:59:00Z");
    await box.messaging.sender.tick();
    expect(gateway.received.filter((m) => m.to === "79100004")).toHaveLength(0);
    box.clock.set("2026-11-24T07:00:00Z");
    await box.messaging.sender.tick();
    expect(gateway.received.filter((m) => m.to === "79100004")).toHaveLength(1);
  });

  test("quiet hours are a setting: HQ staff change them (a shop's admin cannot); bad times are refused", async () => {
    expect((await box.call("GET", `${API}/messaging/settings/quietHours`, { token: shopAdmin })).json.data).toEqual({
      enabled: true,
      start: "21:00",
      end: "08:00",
    });
    const body = { enabled: true, start: "23:00", end: "07:30" };
    expect((await box.call("PUT", `${API}/messaging/settings/quietHours`, { token: shopAdmin, body })).status).toBe(403);
    const bad = await box.call("PUT", `${API}/messaging/settings/quietHours`, { token: hqAdmin, body: { ...body, start: "9pm" } });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toContain("start");
    expect((await box.call("PUT", `${API}/messaging/settings/quietHours`, { token: hqAdmin, body })).status).toBe(200);
    box.clock.set("2026-11-23T21:30:00Z"); // 22:30 in Malta: quiet no more
    await login();
    const t = await ticketFor("79100005");
    await setState([t.id], READY);
    await box.messaging.auto.follow();
    expect((await autoRows(t.id))[0]!.next_attempt_at).toBe("2026-11-23T21:30:00.000Z");
    await box.call("PUT", `${API}/messaging/settings/quietHours`, { token: hqAdmin, body: { enabled: true, start: "21:00", end: "08:00" } });
  });
});

describe("a restart", () => {
  test("sends nothing again: the box restarted on the same database, even re-reading the state log, and a change made before the stop still goes", async () => {
    const t = await ticketFor("79100006");
    const before = await ticketReads(db()).lastStateChangeId();
    await setState([t.id], READY);
    expect((await box.messaging.auto.follow()).queued).toBe(1);
    await box.messaging.sender.tick();
    expect(gateway.received.filter((m) => m.to === "79100006")).toHaveLength(1);
    // A change the box never got to follow before it stopped: seen after the restart.
    const late = await ticketFor("79100007");
    await setState([late.id], READY);
    box.stop();
    box.database.close();
    const again = await bootAppliance(
      loadConfig({ IRONBOX_DATA_DIR: box.dir, IRONBOX_UI_DIR: `${box.dir}/no-ui`, IRONBOX_SYSFS_ROOT: `${box.dir}/sys`, IRONBOX_DEV_ROOT: `${box.dir}/dev` }),
      { clock: box.clock, log: () => {} },
    );
    try {
      again.messaging.sender.pause();
      await again.messaging.auto.follow();
      // The cursor put back before the first change (as if its move had been lost): read again, the unique key holds.
      await again.database.db
        .update(boxSettings)
        .set({ value: String(before) })
        .where(eq(boxSettings.key, "messaging_auto_cursor"));
      expect((await again.messaging.auto.follow()).queued).toBe(0);
      await again.messaging.sender.tick();
      const rows = (ticketId: number) =>
        again.database.db
          .select()
          .from(outgoingMessages)
          .where(and(eq(outgoingMessages.ticket_id, ticketId), isNull(outgoingMessages.employee_id)));
      expect(await rows(t.id)).toHaveLength(1);
      expect(await rows(late.id)).toMatchObject([{ status: "sent" }]);
      expect(gateway.received.filter((m) => m.to === "79100006")).toHaveLength(1);
      expect(gateway.received.filter((m) => m.to === "79100007")).toHaveLength(1);
    } finally {
      again.stop();
      again.database.close();
    }
  });
});
