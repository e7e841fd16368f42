import { afterAll, beforeAll, expect, test } from "bun:test";
import { DEFAULT_TZ, setShopTimeZone, shopTimeZone } from "../../domain/dates";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { createTimeZoneSetting } from "./timeZone";

/** The shop's time zone as a setting on "The box" (issue 25). */
let box: TestBox;
let hqAdmin: string;
beforeAll(async () => {
  box = await testBox({ demo: true });
  hqAdmin = await box.employeeToken(ADMIN.pin);
}, 60_000);
afterAll(() => {
  // The zone is the process's: put Malta back for whatever runs next.
  setShopTimeZone(DEFAULT_TZ);
  delete process.env.IRONBOX_TIME_ZONE;
  box.close();
});

test("Europe/Malta by default; an HQ admin sets another, it applies at once and stays over a restart", async () => {
  let r = await box.call("GET", "/api/v1/box/timeZone", { token: hqAdmin });
  expect(r.json.data).toEqual({ time_zone: "Europe/Malta", from: "default" });
  r = await box.call("PUT", "/api/v1/box/timeZone", { token: hqAdmin, body: { time_zone: "Europe/London" } });
  expect(r.status).toBe(200);
  expect(r.json.data).toEqual({ time_zone: "Europe/London", from: "settings" });
  expect(shopTimeZone()).toBe("Europe/London");
  expect((await box.call("GET", "/api/v1/health")).json.data.time_zone).toBe("Europe/London");
  const audit = await box.database.client.execute("SELECT detail FROM audit_log WHERE entity = 'time_zone'");
  expect(String(audit.rows.at(-1)?.detail)).toContain("Europe/London");
  // At the next boot (the process's zone back to Malta) the saved one is loaded; the environment's wins over it.
  setShopTimeZone(DEFAULT_TZ);
  await createTimeZoneSetting({ db: box.database.db, clock: box.clock, envZone: null }).load();
  expect(shopTimeZone()).toBe("Europe/London");
  const fromEnv = createTimeZoneSetting({ db: box.database.db, clock: box.clock, envZone: "Asia/Tokyo" });
  setShopTimeZone(DEFAULT_TZ);
  await fromEnv.load();
  expect(shopTimeZone()).toBe(DEFAULT_TZ);
  expect(await fromEnv.get()).toEqual({ time_zone: "Asia/Tokyo", from: "env" });
});

test("an unknown zone is refused with the field named, and nothing changes", async () => {
  setShopTimeZone("Europe/London");
  for (const time_zone of ["Mars/Olympus", "UTC+2", ""]) {
    const r = await box.call("PUT", "/api/v1/box/timeZone", { token: hqAdmin, body: { time_zone } });
    expect(r.status).toBe(422);
    expect(r.json.message).toContain("time_zone");
  }
  expect(shopTimeZone()).toBe("Europe/London");
});

test("a shop's admin reads the zone but cannot change the box's; an employee cannot read it", async () => {
  const shopAdmin = await box.employeeToken(5555, await box.agentToken("birkirkara", "shop-demo-2026"));
  expect((await box.call("GET", "/api/v1/box/timeZone", { token: shopAdmin })).status).toBe(200);
  expect((await box.call("PUT", "/api/v1/box/timeZone", { token: shopAdmin, body: { time_zone: "Asia/Tokyo" } })).status).toBe(403);
  const employee = await box.employeeToken(3333);
  expect((await box.call("GET", "/api/v1/box/timeZone", { token: employee })).status).toBe(403);
  expect(shopTimeZone()).not.toBe("Asia/Tokyo");
});
