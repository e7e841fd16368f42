// Pure logic of the UI shell, run by bun test (no browser): query strings, claims, access
// rules, the page-button window and the loading indicator's timing.
import { describe, expect, test } from "bun:test";
import { allowed } from "../app/access";
import { loadingVisible, MIN_VISIBLE_UNTIL_MS, SHOW_AFTER_MS, trackLoading } from "../components/loading";
import { pageWindow } from "../components/ListView";
import { TILES } from "../features/home/Home";
import { idleMs } from "../features/auth/idle";
import { queryString } from "./api";
import { decodeClaims, type EmployeeClaims } from "./session";

describe("queryString (spec §7)", () => {
  test("arrays are repeated keys without brackets; empty values are left out", () => {
    expect(queryString({ states: ["READY", "DELIVERED"], limit: 20, q: "borg", skip: undefined, none: null })).toBe("?states=READY&states=DELIVERED&limit=20&q=borg");
    expect(queryString({})).toBe("");
    expect(queryString()).toBe("");
    expect(queryString({ term: "Ħal Qormi & co" })).toBe("?term=%C4%A6al+Qormi+%26+co");
  });
});

describe("decodeClaims", () => {
  const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  test("reads a JWT payload, base64url and UTF-8", () => {
    const claims = { employee_id: 7, role: "driver", hq: true, employee_name: "Ġużeppi Żammit", agent_name: "Ħamrun", agent_id: 2, exp: 1 };
    expect(decodeClaims<EmployeeClaims>(`h.${b64url(claims)}.s`)).toEqual(claims as EmployeeClaims);
  });
  test("garbage is no session", () => {
    expect(decodeClaims("not-a-token")).toBeNull();
    expect(decodeClaims("a.b.c")).toBeNull();
    expect(decodeClaims(null)).toBeNull();
  });
});

describe("spec §6 visibility", () => {
  const who = (role: EmployeeClaims["role"], hq = false) => ({ role, hq });
  const tiles = (e: ReturnType<typeof who>) => TILES.filter((t) => allowed(t.access, e)).map((t) => t.label);
  test("admin sees every tile; the Scheduler only with HQ", () => {
    expect(tiles(who("admin", true))).toHaveLength(13);
    expect(tiles(who("admin", false))).not.toContain("Scheduler");
  });
  test("manager and employee: no admin tiles, no Scheduler even at HQ", () => {
    for (const role of ["manager", "employee"] as const) expect(tiles(who(role, true))).toEqual(["Customers", "Tickets", "Tracking", "Express", "State Logs"]);
  });
  test("driver: no Express or State Logs; Scheduler at HQ only", () => {
    expect(tiles(who("driver", true))).toEqual(["Customers", "Tickets", "Tracking", "Scheduler"]);
    expect(tiles(who("driver", false))).toEqual(["Customers", "Tickets", "Tracking"]);
  });
  test("nobody logged in reaches nothing", () => {
    expect(allowed("all", null)).toBe(false);
  });
  test("idle: 480 minutes for drivers, 6 for everyone else", () => {
    expect(idleMs("driver")).toBe(480 * 60_000);
    expect(idleMs("admin")).toBe(6 * 60_000);
    expect(idleMs("employee")).toBe(6 * 60_000);
  });
});

describe("pageWindow", () => {
  test("a window of 5 page buttons around the current page, clamped to the ends", () => {
    expect(pageWindow(0, 3)).toEqual([0, 1, 2]);
    expect(pageWindow(0, 10)).toEqual([0, 1, 2, 3, 4]);
    expect(pageWindow(5, 10)).toEqual([3, 4, 5, 6, 7]);
    expect(pageWindow(9, 10)).toEqual([5, 6, 7, 8, 9]);
    expect(pageWindow(0, 0)).toEqual([]);
  });
});

describe("loading indicator (spec §9)", () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  test("quick work never shows it", async () => {
    const done = trackLoading();
    await sleep(100);
    done();
    await sleep(SHOW_AFTER_MS + 50);
    expect(loadingVisible.value).toBe(false);
  });
  test("slow work shows it after 250 ms and keeps it until 500 ms", async () => {
    const started = Date.now();
    const done = trackLoading();
    await sleep(SHOW_AFTER_MS - 100);
    expect(loadingVisible.value).toBe(false);
    await sleep(150);
    expect(loadingVisible.value).toBe(true);
    done();
    expect(loadingVisible.value).toBe(true);
    await sleep(Math.max(0, started + MIN_VISIBLE_UNTIL_MS - Date.now()) + 50);
    expect(loadingVisible.value).toBe(false);
  });
  test("finishing twice counts once", async () => {
    const a = trackLoading();
    const b = trackLoading();
    a();
    a();
    await sleep(SHOW_AFTER_MS + 50);
    expect(loadingVisible.value).toBe(true);
    b();
    await sleep(MIN_VISIBLE_UNTIL_MS);
    expect(loadingVisible.value).toBe(false);
  });
});
