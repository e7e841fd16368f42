import { expect, test } from "bun:test";
import { loadConfig } from "./config";

const base = { IRONBOX_DATA_DIR: "/tmp/ironbox-config-test" };

test("attack: a short HQ enrolment token stops the box at start with a clear error (issue 22)", () => {
  for (const env of [
    { IRONBOX_MODE: "hq", IRONBOX_HQ_TOKEN: "secret" },
    { IRONBOX_HQ_URL: "https://hq.example", IRONBOX_HQ_PUBLIC_KEY: "k", IRONBOX_HQ_TOKEN: "x".repeat(31) },
  ]) {
    expect(() => loadConfig({ ...base, ...env })).toThrow(/^IRONBOX_HQ_TOKEN is \d+ characters; it must be at least 32/);
  }
});

test("control: a token of 32 characters or more starts; no token at all still starts", () => {
  expect(loadConfig({ ...base, IRONBOX_MODE: "hq", IRONBOX_HQ_TOKEN: "x".repeat(32) }).reference.token).toBe("x".repeat(32));
  expect(loadConfig({ ...base }).reference.token).toBeNull();
});
