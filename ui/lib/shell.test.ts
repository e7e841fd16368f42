// Pure logic of the UI shell, run by bun test (no browser): query strings, claims, access
// rules, the page-button window and the loading indicator's timing.
import { afterEach, describe, expect, test } from "bun:test";
import { allowed } from "../app/access";
import { loadingOverlay, loadingVisible, MIN_VISIBLE_UNTIL_MS, OVERLAY_AFTER_MS, SHOW_AFTER_MS, trackLoading } from "../components/loading";
import { pageWindow } from "../components/ListView";
import { TILES } from "../features/home/Home";
import { idleMs } from "../features/auth/idle";
import { api, newIdempotencyKey, queryString } from "./api";
import { decodeClaims, type EmployeeClaims } from "./session";

describe("queryString (spec §7)", () => {
  test("arrays are repeated keys without brackets; empty values are left out", () => {
    expect(queryString({ states: ["READY", "DELIVERED"], limit: 20, q: "borg", skip: undefined, none: null })).toBe(
      "?states=READY&states=DELIVERED&limit=20&q=borg",
    );
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
  // hq here: the employee belongs to the head-quarters agent (the Scheduler's rule, spec §2).
  const who = (role: EmployeeClaims["role"], hq = false) => ({ role, hq });
  const tiles = (e: ReturnType<typeof who>) => TILES.filter((t) => allowed(t.access, e, e.hq)).map((t) => t.label);
  test("admin sees every tile; the Scheduler only with HQ", () => {
    expect(tiles(who("admin", true))).toHaveLength(15);
    expect(tiles(who("admin", false))).not.toContain("Scheduler");
  });
  test("manager and employee: no admin tiles, no Scheduler even at HQ; End of day and Accounts for managers", () => {
    expect(tiles(who("manager", true))).toEqual(["Customers", "Tickets", "Tracking", "Express", "State Logs", "End of day", "Accounts"]);
    expect(tiles(who("employee", true))).toEqual(["Customers", "Tickets", "Tracking", "Express", "State Logs"]);
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
  test("work still pending after 5 s covers the screen, until it ends", async () => {
    const done = trackLoading();
    await sleep(OVERLAY_AFTER_MS - 300);
    expect(loadingOverlay.value).toBe(false);
    await sleep(400);
    expect(loadingOverlay.value).toBe(true);
    done();
    expect(loadingOverlay.value).toBe(false);
  }, 10_000);
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

describe("Idempotency-Key (issue 17: a second tap after a timeout makes no second ticket)", () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });
  /** Records the headers of each request and answers a successful envelope. */
  function recordFetch(): Headers[] {
    const sent: Headers[] = [];
    globalThis.fetch = (async (_url: string, init?: RequestInit) => {
      sent.push(new Headers(init?.headers));
      return new Response(JSON.stringify({ success: true, data: {} }), { headers: { "content-type": "application/json" } });
    }) as typeof fetch;
    return sent;
  }
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  test("every call but a GET carries its own key: POST, and PUT paidFor too (issue 31); GET none", async () => {
    const sent = recordFetch();
    await api("POST", "/tickets/", { body: { customer_id: 1 } });
    await api("POST", "/tickets/", { body: { customer_id: 1 } });
    await api("GET", "/tickets/");
    await api("PUT", "/tickets/paidFor/1", { query: { amount: 5, method: "cash" } });
    await api("PUT", "/tickets/paidFor/1", { query: { amount: 5, method: "cash" } });
    await api("put", "/ticketSubCategory/paidFor/2/5");
    await api("DELETE", "/ticketSubCategoryActions/", { query: { id: 3 } });
    const keys = sent.map((h) => h.get("idempotency-key"));
    expect(keys[2]).toBeNull();
    const sentKeys = keys.filter((_, i) => i !== 2);
    for (const k of sentKeys) expect(k).toMatch(UUID);
    // One key per call: no two calls (two taps, two submits) share one.
    expect(new Set(sentKeys).size).toBe(sentKeys.length);
  });

  test("the money screens' calls carry a key: pay a ticket, pay an item, refund, close and reopen the drawer", async () => {
    const sent = recordFetch();
    const { payTicketBy, payItemBy, refundPayment } = await import("../features/tickets/api");
    await payTicketBy(1, { method: "cash", amount: 5 });
    await payItemBy(2, { method: "card", amount: 3 });
    await refundPayment(3, 1, "Stain")();
    await api("POST", "/till/2026-11-20/close", { body: { counted: { cash: 0, card: 0, other: 0 } } });
    await api("POST", "/till/2026-11-20/reopen");
    const keys = sent.map((h) => h.get("idempotency-key"));
    expect(keys.length).toBe(5);
    for (const k of keys) expect(k).toMatch(UUID);
    expect(new Set(keys).size).toBe(5);
  });

  test("a caller's own key is kept, so one key can span a whole user action", async () => {
    const sent = recordFetch();
    await api("POST", "/tickets/", { body: {}, headers: { "idempotency-key": "tap-1" } });
    expect(sent[0]!.get("idempotency-key")).toBe("tap-1");
  });

  test("without crypto.randomUUID (plain http on the LAN) the key is still a random v4 UUID", () => {
    const real = crypto.randomUUID;
    try {
      (crypto as { randomUUID?: unknown }).randomUUID = undefined;
      expect(typeof crypto.randomUUID).toBe("undefined");
      const a = newIdempotencyKey();
      expect(a).toMatch(UUID);
      expect(newIdempotencyKey()).not.toBe(a);
    } finally {
      crypto.randomUUID = real;
    }
  });
});
