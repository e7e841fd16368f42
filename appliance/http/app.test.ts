import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ADMIN, type TestBox, testBox } from "../test/harness";
import { createApp } from "./app";

let box: TestBox;
let admin: string;
beforeAll(async () => {
  box = await testBox();
  admin = await box.employeeToken(ADMIN.pin);
});
afterAll(() => box.close());

describe("API foundation", () => {
  test("health answers the envelope with version and database ok", async () => {
    const r = await box.call("GET", "/api/v1/health");
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      success: true,
      data: {
        version: "1.0.6",
        database: "ok",
        setup_required: false,
        mode: "shop",
        time_zone: "Europe/Malta",
        link: { state: "off", lag_seconds: null, last_shipped_at: null, last_error: null, warn_after_seconds: 300 },
      },
    });
  });

  test("every response carries the security headers, errors and 404s included", async () => {
    for (const [m, p] of [
      ["GET", "/api/v1/health"],
      ["GET", "/api/v1/nope"],
      ["POST", "/api/v1/login/agent"],
    ] as const) {
      const r = await box.call(m, p, { body: m === "POST" ? {} : undefined });
      expect(r.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      expect(r.headers.get("referrer-policy")).toBe("no-referrer");
    }
  });

  test("unknown API routes are a 404 envelope; malformed JSON a 400", async () => {
    const r = await box.call("GET", "/api/v1/does-not-exist");
    expect(r.status).toBe(404);
    expect(r.json.success).toBe(false);
    const bad = await box.call("POST", "/api/v1/login/agent", { rawBody: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ success: false, message: "The request body is not valid JSON" });
  });

  test("a form-encoded body is refused before it can log in (a web page elsewhere can send one)", async () => {
    const form = `user_name=${ADMIN.user}&password=${ADMIN.password}`;
    const r = await box.call("POST", "/api/v1/login/agent", { rawBody: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(r.status).toBe(415);
    expect(r.json).toEqual({ success: false, message: "Send the body as JSON (Content-Type: application/json)" });
    const plain = await box.call("POST", "/api/v1/login/agent", {
      rawBody: JSON.stringify({ user_name: ADMIN.user, password: ADMIN.password }),
      headers: { "content-type": "text/plain" },
    });
    expect(plain.status).toBe(415);
    // Control: the same login as JSON works.
    expect((await box.call("POST", "/api/v1/login/agent", { body: { user_name: ADMIN.user, password: ADMIN.password } })).status).toBe(200);
  });

  test("a body of JSON null (or any non-object) is refused, not taken as an empty change", async () => {
    for (const raw of ["null", "[]", "42", '"x"']) {
      const r = await box.call("PUT", "/api/v1/employees/1", { token: admin, rawBody: raw });
      expect(r.status, raw).toBe(422);
      expect(r.json.message, raw).toContain("body");
    }
  });

  test("validation errors are 422, name the field and never echo the input", async () => {
    const secret = "<script>alert(1)</script>".repeat(20);
    const r = await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: secret, role: "boss", pin: "abc" } });
    expect(r.status).toBe(422);
    expect(r.json.message).toContain("full_name");
    expect(r.json.message).toContain("role");
    expect(r.json.message).toContain("pin");
    expect(r.json.message).not.toContain("script");
    expect(r.json.message).not.toContain("boss");
  });

  test("OpenAPI document lists every route with its request schema", async () => {
    const r = await box.call("GET", "/api/v1/openapi.json");
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe("3.1.0");
    for (const route of box.routes) {
      const path = `/api/v1${route.path}`.replace(/:(\w+)/g, "{$1}");
      expect(r.json.paths[path]?.[route.method.toLowerCase()], `${route.method} ${path}`).toBeDefined();
    }
    const login = r.json.paths["/api/v1/login/employee"].post;
    expect(login.requestBody.content["application/json"].schema.properties.pin).toBeDefined();
  });

  test("Idempotency-Key: a retried create returns the first result and creates nothing new", async () => {
    const body = { full_name: "Once Only", role: "employee", pin: 5151 };
    const headers = { "idempotency-key": "create-once-only-1" };
    const a = await box.call("POST", "/api/v1/employees/", { token: admin, body, headers });
    const b = await box.call("POST", "/api/v1/employees/", { token: admin, body, headers });
    expect(a.status).toBe(200);
    expect(b.json).toEqual(a.json);
    const list = await box.call("GET", "/api/v1/employees/", { token: admin });
    expect(list.json.data.filter((e: { full_name: string }) => e.full_name === "Once Only")).toHaveLength(1);
    // Without the key the same body is a second request: the PIN is now taken.
    expect((await box.call("POST", "/api/v1/employees/", { token: admin, body })).status).toBe(409);
  });
});

describe("the UI is served with an SPA fallback", () => {
  test("deep links get index.html; API paths never do", async () => {
    const ui = join(box.dir, "ui");
    mkdirSync(join(ui, "assets"), { recursive: true });
    writeFileSync(join(ui, "index.html"), "<!doctype html><title>Ironbox</title>");
    writeFileSync(join(ui, "assets", "app-abcdef12.js"), "console.log(1)");
    const app = createApp({
      db: box.database.db,
      clock: box.clock,
      auth: { authenticate: async () => ({ kind: "none" }) } as never,
      routes: box.routes,
      uiDir: ui,
    });
    const deep = await app.handle(new Request("http://localhost/customers/12/new-ticket/0"));
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain("<title>Ironbox</title>");
    expect(deep.headers.get("content-security-policy")).toContain("default-src 'self'");
    const asset = await app.handle(new Request("http://localhost/assets/app-abcdef12.js"));
    expect(await asset.text()).toBe("console.log(1)");
    expect(asset.headers.get("cache-control")).toContain("immutable");
    const escape = await app.handle(new Request("http://localhost/..%2f..%2fetc%2fpasswd"));
    expect(await escape.text()).toContain("<title>Ironbox</title>");
    const api = await app.handle(new Request("http://localhost/api/v1/nothing-here"));
    expect(api.status).toBe(404);
    expect((await api.json()).success).toBe(false);
  });
});

describe("every API answer names the UI build the box serves (issue 23: upgrades an open tablet survives)", () => {
  const appFor = (ui: string) =>
    createApp({ db: box.database.db, clock: box.clock, auth: { authenticate: async () => ({ kind: "none" }) } as never, routes: box.routes, uiDir: ui });

  test("answers and errors carry X-Ironbox-UI from build.json; a bad or missing id sends none", async () => {
    const ui = join(box.dir, "ui-release");
    mkdirSync(ui, { recursive: true });
    writeFileSync(join(ui, "index.html"), "<!doctype html><title>Ironbox</title>");
    writeFileSync(join(ui, "build.json"), JSON.stringify({ build: "1.2.3+abc", version: "1.2.3" }));
    const app = appFor(ui);
    const health = await app.handle(new Request("http://localhost/api/v1/health"));
    expect(health.status).toBe(200);
    expect(health.headers.get("x-ironbox-ui")).toBe("1.2.3+abc");
    const missing = await app.handle(new Request("http://localhost/api/v1/nothing-here"));
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-ironbox-ui")).toBe("1.2.3+abc");

    writeFileSync(join(ui, "build.json"), JSON.stringify({ build: "<script>" }));
    expect((await appFor(ui).handle(new Request("http://localhost/api/v1/health"))).headers.get("x-ironbox-ui")).toBeNull();
    rmSync(join(ui, "build.json"));
    expect((await appFor(ui).handle(new Request("http://localhost/api/v1/health"))).headers.get("x-ironbox-ui")).toBeNull();
  });
});
