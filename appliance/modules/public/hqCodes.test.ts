import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { join } from "node:path";
import { desc, eq } from "drizzle-orm";
import { agents, customers, localities, outgoingMessages, pickupDeliveries, publicBookings, streets } from "../../../db/schema";
import { addDays, businessDay } from "../../domain/dates";
import { createPublicApp } from "../../http/publicApp";
import { type TestBox, testBox } from "../../test/harness";
import { pub, roomy } from "../../test/publicFace";
import { createDownlinkHq } from "../bookings/downlink";
import { publicKeyText, type SigningKey } from "../reference/signing";
import { createSchedulingService } from "../scheduling/service";
import { publicRoutes } from "./routes";
import { createPublicService } from "./service";

// Issue 35: the public face at HQ, where the shops' customers are in the shops' restored copies,
// not in HQ's own database. A demo shop box ("bkr") whose database HQ reads as its copy, HQ's own
// database as a second site's copy ("north", the only one whose vans serve Northville), and HQ's
// public app over a public service that knows both copies. Every locality has a van stop every
// day of the year, so the tests hold whatever weekday or month's end the fixed clock says.
const TOKEN = "t".repeat(40);
const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const key: SigningKey = { privateKey, publicText: publicKeyText(publicKey) };
const SHOP_MOBILE = "79004321";

let shop: TestBox;
let hq: TestBox;
let app: ReturnType<typeof createPublicApp>;
let testville = 0;
let northville = 0;
let copies: { site: string; url: string }[] = [];

const hdb = () => hq.database.db;
const tomorrow = () => addDays(businessDay(hq.clock.now()), 1);
const codesTo = async (dial: string) =>
  (await hdb().select().from(outgoingMessages).where(eq(outgoingMessages.recipient, dial)).orderBy(desc(outgoingMessages.id))).filter((m) =>
    /^\d{6} is your code/.test(m.text),
  );

beforeAll(async () => {
  shop = await testBox({ demo: true, env: { IRONBOX_SITE_NAME: "bkr" } });
  // HQ with its own SMS channel (nothing answers there: the sender is paused, the outbox is what is looked at).
  hq = await testBox({ env: { IRONBOX_MODE: "hq", IRONBOX_HQ_TOKEN: TOKEN, IRONBOX_SMS_GATEWAY_URL: "http://sms:s3cret@127.0.0.1:9/" } });
  hq.messaging.sender.pause();
  shop.messaging.sender.pause();
  const sdb = shop.database.db;
  testville = (await sdb.insert(localities).values({ name: "Testville" }).returning())[0]!.id;
  northville = testville + 1000;
  await sdb.insert(streets).values({ locality_id: testville, name: "Triq il-Prova" });
  // HQ's places and van settings (its reference data) keep the shop's ids; Northville is HQ's alone.
  await hdb()
    .insert(localities)
    .values([
      { id: testville, name: "Testville" },
      { id: northville, name: "Northville" },
    ]);
  for (const day_of_week of [0, 1, 2, 3, 4, 5, 6]) {
    await sdb.insert(pickupDeliveries).values({ season: "OFFSEASON", day_of_week, quantity: 3, localities: String(testville) });
    await hdb()
      .insert(pickupDeliveries)
      .values({ season: "OFFSEASON", day_of_week, quantity: 3, localities: `${testville},${northville}` });
  }
  // A Birkirkara customer's mobile, known only in the shop's database (HQ has no customer with it).
  const bkr = (await sdb.query.agents.findFirst({ where: eq(agents.user_name, "birkirkara") }))!.id;
  const c = (await sdb.query.customers.findFirst({ where: (x, { eq }) => eq(x.agent_id, bkr) }))!;
  await sdb.update(customers).set({ mobile: SHOP_MOBILE }).where(eq(customers.id, c.id));
  expect(await hdb().select().from(customers).where(eq(customers.mobile, SHOP_MOBILE))).toEqual([]);

  copies = [
    { site: "bkr", url: `file:${join(shop.dir, "ironbox.db")}` },
    { site: "north", url: `file:${join(hq.dir, "ironbox.db")}` },
  ];
  const service = createPublicService({
    db: hdb(),
    clock: hq.clock,
    links: hq.statusLinks,
    scheduling: createSchedulingService({ db: hdb(), clock: hq.clock }),
    messaging: hq.messaging,
    siteCopies: () => copies,
    log: () => {},
  });
  app = createPublicApp({ db: hdb(), clock: hq.clock, ...publicRoutes(service, roomy()) });
});
afterAll(() => {
  hq?.close();
  shop?.close();
});

describe("one-time codes and bookings at HQ", () => {
  const book = async (phone: string, locality: number) => {
    const sent = await pub(app, "POST", "/public/v1/otp", { phone });
    const dial = `+356${phone}`;
    const [m] = await codesTo(dial);
    if (!m) return { sent, booked: null, m };
    const code = /^(\d{6}) /.exec(m.text)![1]!;
    const booked = await pub(app, "POST", "/public/v1/bookings", { phone, code, locality, street: "Triq il-Prova", number: "4", day: tomorrow(), note: "" });
    return { sent, booked, m };
  };
  const routedTo = async (phone: string) => {
    const down = createDownlinkHq({ db: hdb(), clock: hq.clock, key: () => key, copies: () => copies, log: () => {} });
    await down.route();
    const [b] = await hdb()
      .select()
      .from(publicBookings)
      .where(eq(publicBookings.phone, `+356${phone}`));
    const rows = await hq.database.client.execute({ sql: "SELECT site FROM downlinks WHERE uid = ?", args: [b!.uid] });
    return rows.rows[0]?.site;
  };

  test("a phone known only in a shop's copy gets a code through HQ's own channel, books, and the booking goes to that shop", async () => {
    const { sent, booked, m } = await book(SHOP_MOBILE, testville);
    expect(sent.status).toBe(200);
    expect(m).toBeDefined();
    // Filed under HQ's own agent, no customer of HQ named: the shop's customer id means nothing here.
    expect(m!.customer_id).toBeNull();
    expect((await hdb().query.agents.findFirst({ where: eq(agents.id, m!.agent_id) }))!.is_hq).toBe(true);
    expect(booked!.status).toBe(200);
    expect(booked!.json.data.status).toBe("received");
    expect(await routedTo(SHOP_MOBILE)).toBe("bkr");
  });

  test("a phone no shop knows gets a code too, and its booking goes to the site whose vans serve the locality", async () => {
    const unknown = "99117722";
    const { sent, booked } = await book(unknown, northville);
    expect(booked!.status).toBe(200);
    // bkr comes first but its vans do not go to Northville.
    expect(await routedTo(unknown)).toBe("north");
    // The same answer, byte for byte, whoever holds the number.
    const known = await pub(app, "POST", "/public/v1/otp", { phone: SHOP_MOBILE });
    expect(sent.text).toBe(known.text);
    expect(sent.status).toBe(known.status);
  });
});
