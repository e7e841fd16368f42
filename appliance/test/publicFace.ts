// Issue 35: the public face's test box, shared by modules/public's test files: a demo box
// with a public address, an SMS stand-in, a customer with a known mobile, and Testville, a
// locality of these tests with one van stop on every weekday all year (an undated season
// always applies), so the capacity tests hold whatever day the clock says.
import { and, desc, eq, ne } from "drizzle-orm";
import { customers, outgoingMessages, tickets } from "../../db/schema";
import { type GatewayStandIn, startGatewayStandIn } from "../../drivers/messaging/testing/android-gateway-stand-in";
import { createPublicApp } from "../http/publicApp";
import type { PublicLimits } from "../modules/public/routes";
import { publicRoutes } from "../modules/public/routes";
import { rateLimit } from "../platform/rateLimit";
import { type TestBox, testBox } from "./harness";

export const PUBLIC_URL = "https://status.ironbox.test";
const API = "/api/v1";

/** Limits no test reaches by accident (the rate-limit tests use the box's own, or fresh ones). */
export const roomy = (): PublicLimits => {
  const big = () => rateLimit({ burst: 10_000, everyMs: 1 });
  return { status: big(), pickupDays: big(), otpAddress: big(), otpPhone: big(), bookingAddress: big(), bookingPhone: big() };
};

/** A request to a public app (no server: the client address is "local"). */
export async function pub(a: { handle(r: Request): Promise<Response> }, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await a.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, json, text, headers: res.headers };
}

export async function setUpPublicFace() {
  const gateway: GatewayStandIn = startGatewayStandIn({ user: "sms", pass: "s3cret", sentAfterMs: 5 });
  const box: TestBox = await testBox({ demo: true, env: { IRONBOX_PUBLIC_URL: PUBLIC_URL } });
  box.messaging.sender.pause();
  const db = () => box.database.db;
  const staff = (method: string, path: string, token: string, body?: unknown) => box.call(method, `${API}${path}`, { token, body });
  const ok = async (method: string, path: string, token: string, body?: unknown) => {
    const r = await staff(method, path, token, body);
    if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json.data;
  };
  const hqAdmin = await box.employeeToken("1111");
  const bkr = await box.agentToken("birkirkara", "shop-demo-2026");
  const tokens = {
    hqAdmin,
    shopManager: await box.employeeToken("5555", bkr), // a shop admin: may revoke
    shopEmployee: await box.employeeToken("6666", bkr),
    otherManager: await box.employeeToken("7777", await box.agentToken("mosta", "shop-demo-2026")),
  };
  await ok("PUT", "/messaging/settings", hqAdmin, { sms_gateway_url: gateway.url, modem_path: "", smtp_url: "", smtp_from: "" });
  const bkrId = (await db().query.agents.findFirst({ where: (a, { eq }) => eq(a.user_name, "birkirkara") }))!.id;
  const t = (await db().query.tickets.findFirst({ where: and(eq(tickets.agent_id, bkrId), ne(tickets.state, "CREATED")) }))!;
  await db().update(customers).set({ mobile: "79001234" }).where(eq(customers.id, t.customer_id));
  const ids = { ticket: t.id, customer: t.customer_id, locality: 0, street: 0 };
  ids.locality = (await ok("POST", "/localities/", hqAdmin, { name: "Testville" })).id;
  ids.street = (await ok("POST", "/streets/", hqAdmin, { locality_id: ids.locality, name: "Triq il-Prova" })).id;
  const settings = await ok("GET", "/pickupDeliveries/", hqAdmin);
  const mine = [0, 1, 2, 3, 4, 5, 6].map((day_of_week) => ({ season: "OFFSEASON", day_of_week, quantity: 1, localities: [ids.locality] }));
  await ok("POST", "/pickupDeliveries/", hqAdmin, [...settings, ...mine]);
  const app = createPublicApp({ db: db(), clock: box.clock, ...publicRoutes(box.publicService, roomy()) });

  return {
    box,
    gateway,
    tokens,
    ids,
    app,
    staff,
    ok,
    /** Sends the ticket's status message and answers the link's token, read from the queued text. */
    async linkOf(ticketId: number): Promise<string> {
      box.clock.advance(61_000); // status messages of one ticket are a minute apart at least
      const [row] = await ok("POST", `/messages/${ticketId}/status`, tokens.shopEmployee);
      const m = /https:\/\/status\.ironbox\.test\/s\/([A-Za-z0-9_-]+)$/.exec(row.text);
      if (!m) throw new Error(`no link in ${row.text}`);
      return m[1]!;
    },
    /** The code of the last SMS to this mobile. */
    async lastCode(mobile: string): Promise<string> {
      const [row] = await db().select().from(outgoingMessages).where(eq(outgoingMessages.recipient, mobile)).orderBy(desc(outgoingMessages.id)).limit(1);
      return /^(\d{6}) /.exec(row!.text)![1]!;
    },
    async close() {
      box.close();
      await gateway.stop();
    },
  };
}
export type PublicFace = Awaited<ReturnType<typeof setUpPublicFace>>;
