import { afterAll, beforeAll, expect, test } from "bun:test";
import { parseRackCode } from "../../domain/racks";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

// Issue 25: rack labels print on the label printer, journaled like item labels.
let box: TestBox;
let admin: string;
const call = (body: unknown) => box.call("POST", "/api/v1/print/rackLabels", { token: admin, body });

beforeAll(async () => {
  box = await testBox();
  admin = await box.employeeToken(ADMIN.pin);
});
afterAll(() => box.close());

test("one label a rack, its QR the rack code; repeats print once; the journal lists them", async () => {
  const r = await call({ names: ["A1", " A2 ", "A1"], port: "ble", device: "MPT-II", encoding: "PPLZ" });
  expect(r.status).toBe(200);
  const zpl = r.json.data.payloads.map((p: { data: string }) => Buffer.from(p.data, "base64").toString("utf8"));
  expect(zpl).toHaveLength(2);
  const qr = zpl.map((z: string) => /\^FDMA,(.*)\^FS/.exec(z)![1]!);
  expect(qr.map(parseRackCode)).toEqual(["A1", "A2"]);
  expect(zpl[1]).toContain("^FDRACK A2^FS");
  const jobs = (await box.call("GET", "/api/v1/printJobs/", { token: admin })).json.data;
  expect(jobs.filter((j: { kind: string }) => j.kind === "rack-label")).toHaveLength(2);
});

test("bounds: at least one name, at most 100, each 1..40 characters; receipts' encoding refused", async () => {
  const base = { port: "ble", device: "MPT-II", encoding: "PPLZ" };
  for (const names of [[], [""], ["x".repeat(41)], Array.from({ length: 101 }, (_, i) => `R${i}`), "A1"])
    expect((await call({ ...base, names })).status).toBe(422);
  expect((await call({ ...base, encoding: "ESCPOS", names: ["A1"] })).json.message).toContain("labels print in PPLZ or PPLA");
  // Control: 100 names of 40 characters print.
  expect((await call({ ...base, names: Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(40, "x")) })).status).toBe(200);
});
