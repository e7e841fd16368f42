import { expect, test } from "bun:test";
import { allowed } from "./access";

// The Scheduler's tile and route follow the server's rule for its routes: admins and drivers of
// the head-quarters agent (spec §2), whatever the employee's own HQ flag says.
test("the Scheduler is for the HQ agent's admins and drivers only", () => {
  const as = (role: "admin" | "manager" | "employee" | "driver", hq: boolean) => ({ role, hq });
  expect(allowed("scheduler", as("admin", false), true)).toBe(true);
  expect(allowed("scheduler", as("driver", false), true)).toBe(true);
  expect(allowed("scheduler", as("manager", true), true)).toBe(false);
  expect(allowed("scheduler", as("employee", true), true)).toBe(false);
  // A shop's admin with the HQ flag: the server answers 403, so the tile is not offered.
  expect(allowed("scheduler", as("admin", true), false)).toBe(false);
  // Not known yet: not offered (the route gate waits instead of redirecting).
  expect(allowed("scheduler", as("admin", true), undefined)).toBe(false);
  expect(allowed("admin", as("admin", false))).toBe(true);
  expect(allowed("notDriver", as("driver", true))).toBe(false);
});
