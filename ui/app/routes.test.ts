import { expect, test } from "bun:test";
import { allowed } from "./access";
import { ROUTES } from "./routes";

// The chain's screens call routes the server keeps for HQ staff (HQ_STAFF): a shop's admin who
// types /sites must land on /home, not on a screen whose every call answers 403.
test("the Sites and chain report screens are for HQ staff only, as on the server", () => {
  const chain = ROUTES.filter((r) => r.path === "/sites" || r.path.startsWith("/sites/"));
  expect(chain.map((r) => r.path).sort()).toEqual(["/sites", "/sites/reports"]);
  for (const r of chain) {
    expect(allowed(r.access, { role: "admin", hq: false }, false)).toBe(false);
    expect(allowed(r.access, { role: "manager", hq: true }, true)).toBe(false);
    expect(allowed(r.access, { role: "admin", hq: true }, false)).toBe(true);
    expect(allowed(r.access, { role: "admin", hq: false }, true)).toBe(true);
    // Not known yet: the route gate waits (App.tsx) instead of showing the screen.
    expect(allowed(r.access, { role: "admin", hq: false }, undefined)).toBe(false);
  }
});
