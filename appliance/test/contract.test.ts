import { afterAll, beforeAll, expect, test } from "bun:test";
import { z } from "zod";
import type { RouteDef } from "../http/route";
import { ContractBreach, contractChecker } from "./contract";
import { type TestBox, testBox } from "./harness";

const def = (method: RouteDef["method"], path: string, response?: z.ZodType): RouteDef =>
  ({ method, path, summary: "", tag: "t", access: { public: true }, response, handler: () => null }) as RouteDef;
const ok = (data: unknown) => ({ success: true, data });

test("an answer outside its schema, or with a field the schema does not declare, is a breach; a faithful one passes", () => {
  const c = contractChecker([def("GET", "/things/:id", z.object({ id: z.number(), name: z.string() })), def("GET", "/things/count", z.number())]);
  expect(() => c.check("GET", "/api/v1/things/3", 200, ok({ id: 3, name: "a" }))).not.toThrow();
  expect(() => c.check("GET", "/api/v1/things/3", 200, ok({ id: 3, name: "a", secret: 1 }))).toThrow(
    /things\/:id answered fields .*\.secret \(not in the schema\)/,
  );
  expect(() => c.check("GET", "/api/v1/things/3", 200, ok({ id: "3", name: "a" }))).toThrow(ContractBreach);
  expect(() => c.check("GET", "/api/v1/things/3", 200, ok({ id: 3 }))).toThrow(/name/);
  // The static route wins over the parameter, as in the router.
  expect(() => c.check("GET", "/api/v1/things/count", 200, ok(7))).not.toThrow();
  // Failures and unknown routes are not the contract's business.
  expect(() => c.check("GET", "/api/v1/things/3", 404, { success: false, message: "x" })).not.toThrow();
  expect(() => c.check("GET", "/api/v1/other", 200, ok({ anything: true }))).not.toThrow();
});

let box: TestBox;
beforeAll(async () => {
  box = await testBox({});
});
afterAll(() => box.close());

test("every route that answers JSON declares its response schema (raw routes answer files and streams)", () => {
  const missing = box.routes.filter((r) => !r.raw && !r.response).map((r) => `${r.method} ${r.path}`);
  expect(missing).toEqual([]);
});
