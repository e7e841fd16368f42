import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { ADMIN, type TestBox, testBox } from "../test/harness";
import { API } from "./app";

/**
 * QUALITY.md: bad input anywhere (random bodies, wrong types, huge strings, unknown ids)
 * answers 4xx with a clear message, never 5xx. Every route is hit with random JSON bodies,
 * random path ids and random query strings, as the admin (who passes every guard).
 */
let box: TestBox;
let admin: string;
beforeAll(async () => {
  box = await testBox();
  admin = await box.employeeToken(ADMIN.pin);
});
afterAll(() => box.close());

const SESSION_ENDING = new Set(["/logout/agent", "/logout/employee", "/login/employee/unlock"]);
const json = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.constantFrom("id", "name", "user_name", "password", "pin", "role", "full_name", "address", "locality_id", "street_id", "enabled", "hq", "localities", "agent_name"), fc.jsonValue({ maxDepth: 2 })),
  fc.string({ maxLength: 5000 }).map((s) => ({ name: s, full_name: s, user_name: s })),
);
const segment = fc.oneof(fc.nat(), fc.constantFrom("-1", "0", "1e3", "abc", "9999999999999999999999", "%00", "1.5"));

test("random requests to every route never produce a 5xx", async () => {
  const routes = box.routes.filter((r) => !SESSION_ENDING.has(r.path) && r.path !== "/setup");
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...routes), json, segment, fc.string({ maxLength: 30 }), async (r, body, id, q) => {
      const path = API + r.path.replace(/:\w+/g, String(id)) + `?x=${encodeURIComponent(q)}`;
      const res = await box.call(r.method, path, { token: admin, body: r.method === "GET" ? undefined : body });
      if (res.status >= 500) throw new Error(`${r.method} ${path} answered ${res.status}: ${JSON.stringify(res.json)}`);
      expect(res.json.success === true || typeof res.json.message === "string" || r.raw).toBe(true);
    }),
    { numRuns: 400, seed: 20261122 },
  );
});
