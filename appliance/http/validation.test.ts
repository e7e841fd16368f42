import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../test/harness";
import { withoutControlChars } from "./validation";

let box: TestBox;
let admin: string;
beforeAll(async () => {
  box = await testBox({ demo: true });
  admin = await box.employeeToken(ADMIN.pin);
});
afterAll(() => box.close());

describe("control characters (issue 11, L3)", () => {
  test("removes C0 (except tab and line breaks), DEL and C1 from every string, at any depth", () => {
    expect(withoutControlChars({ a: "x\u0000y\u001b[0m\u007f\u0085z", b: ["\u0007bell", { c: "tab\there\r\nnext" }], n: 5, f: null, t: true })).toEqual({
      a: "xy[0mz",
      b: ["bell", { c: "tab\there\r\nnext" }],
      n: 5,
      f: null,
      t: true,
    });
    // Letters outside ASCII are text, not control characters.
    expect(withoutControlChars("Ħal Għargħur — €5 ✓")).toBe("Ħal Għargħur — €5 ✓");
  });

  test("a NUL in the customer search term is a search, not a 500", async () => {
    // Before: the NUL reached FTS5 and the box answered 500.
    for (const term of ["ab%00", "a%00b", "%00", "%01%1b%7f"]) {
      const r = await box.call("GET", `/api/v1/customers/?term=${term}`, { token: admin });
      expect(r.status, term).toBe(200);
      expect(Array.isArray(r.json.data), term).toBe(true);
    }
    // Control: the same term without the NUL finds the same customers.
    const clean = await box.call("GET", "/api/v1/customers/?term=ab", { token: admin });
    const dirty = await box.call("GET", "/api/v1/customers/?term=a%00b", { token: admin });
    expect(clean.json.data.length).toBeGreaterThan(0);
    expect(dirty.json.data.map((c: { id: number }) => c.id)).toEqual(clean.json.data.map((c: { id: number }) => c.id));
  });

  test("a name with NUL and escape is stored without them; a comment keeps its line break", async () => {
    const created = await box.call("POST", "/api/v1/customers/", {
      token: admin,
      body: { full_name: "Ann\u0000a \u001b[31mBorg\u009b", comments: "Ring twice\nthen wait\u0000" },
    });
    expect(created.status).toBe(200);
    const read = await box.call("GET", `/api/v1/customers/${created.json.data.id}`, { token: admin });
    expect(read.json.data.full_name).toBe("Anna [31mBorg");
    expect(read.json.data.comments).toBe("Ring twice\nthen wait");
    // Updates are cleaned the same way.
    const id = read.json.data.id;
    expect((await box.call("PUT", `/api/v1/customers/${id}`, { token: admin, body: { occupation: "\u0000Tailor\u0008" } })).status).toBe(200);
    expect((await box.call("GET", `/api/v1/customers/${id}`, { token: admin })).json.data.occupation).toBe("Tailor");
  });

  test("a field made only of control characters is empty, and a required one is refused", async () => {
    const r = await box.call("POST", "/api/v1/customers/", { token: admin, body: { full_name: "\u0000\u0001\u001b" } });
    expect(r.status).toBe(422);
    expect(r.json.message).toContain("full_name");
  });
});
