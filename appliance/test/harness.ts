import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Appliance, bootAppliance } from "../boot";
import { shopTimeZone } from "../domain/dates";
import { fixedClock } from "../platform/clock";
import { loadConfig } from "../platform/config";
import { SETUP_CODE_FILE } from "../modules/auth/setupCode";
import { contractChecker } from "./contract";
import { sharedTemplate } from "./templates";

export const ADMIN = { user: "admin", password: "admin-pass-1", pin: "9999" };

export interface TestBox extends Appliance {
  dir: string;
  clock: ReturnType<typeof fixedClock>;
  call(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string },
  ): Promise<{ status: number; json: any; headers: Headers }>;
  agentToken(user?: string, password?: string): Promise<string>;
  employeeToken(pin: string | number, agentToken?: string): Promise<string>;
  close(): void;
}

/**
 * A data folder holding a freshly loaded demo for these options. The demo is made through the
 * counter's services (issue 22), which takes seconds: it is made once per set of options (and
 * sources, and the shop's time zone that counts its days) for all test files and processes
 * (test/templates.ts).
 */
function demoTemplate(opts: { admin?: boolean; env?: Record<string, string> }, env: Record<string, string>, now: string): Promise<string> {
  return sharedTemplate(JSON.stringify(["demo", opts.admin !== false, opts.env ?? {}, now, shopTimeZone()]), async (dir) => {
    const box = await bootAppliance(loadConfig({ ...env, IRONBOX_DATA_DIR: dir, IRONBOX_DEMO: "1" }), { clock: fixedClock(now), log: () => {} });
    await box.stop();
    box.database.close();
  });
}

/**
 * A data folder holding a freshly migrated database (with the admin unless admin: false) for
 * this clock, made once for all test files and processes (test/templates.ts). Each empty box
 * starts from a copy of it, so no test pays again for the migrations and the admin's argon2
 * hash (median 502 ms a box against 55 ms for a copy, on this machine under load). The first
 * boot's rows are stamped with the test's own `now`, as a box of its own would be; the copies
 * share the box secret, as the demo boxes do. The test's env is left out on purpose: it may
 * name stand-ins (an SMS gateway) that a template's boot would talk to; the test's box boots
 * on the copy with its env, as a box restarted with new settings does.
 */
function emptyTemplate(admin: boolean, now: string): Promise<string> {
  return sharedTemplate(JSON.stringify(["empty", admin, now, shopTimeZone()]), async (dir) => {
    const env: Record<string, string> = {
      IRONBOX_DATA_DIR: dir,
      IRONBOX_UI_DIR: join(dir, "no-ui"),
      IRONBOX_SYSFS_ROOT: join(dir, "sys"),
      IRONBOX_DEV_ROOT: join(dir, "dev"),
    };
    if (admin) Object.assign(env, adminEnv());
    const box = await bootAppliance(loadConfig(env), { clock: fixedClock(now), log: () => {} });
    await box.stop();
    box.database.close();
    // Only the database is copied: a box without an admin writes its own setup code when it boots.
    rmSync(join(dir, SETUP_CODE_FILE), { force: true });
  });
}

const adminEnv = () => ({ IRONBOX_ADMIN_USER: ADMIN.user, IRONBOX_ADMIN_PASSWORD: ADMIN.password, IRONBOX_ADMIN_PIN: ADMIN.pin });

/** A real appliance on a temporary libSQL file with the real migrations; no port needed. */
export async function testBox(
  opts: { demo?: boolean; admin?: boolean; now?: string; env?: Record<string, string>; diskRoots?: readonly string[]; linkStallMs?: number } = {},
): Promise<TestBox> {
  const dir = mkdtempSync(join(tmpdir(), "ironbox-test-"));
  // Printer discovery looks at an empty stand-in tree, not at this machine's /sys and /dev.
  const env: Record<string, string> = {
    IRONBOX_DATA_DIR: dir,
    IRONBOX_UI_DIR: join(dir, "no-ui"),
    IRONBOX_SYSFS_ROOT: join(dir, "sys"),
    IRONBOX_DEV_ROOT: join(dir, "dev"),
    ...opts.env,
  };
  if (opts.admin !== false) Object.assign(env, adminEnv());
  const clock = fixedClock(opts.now ?? "2026-11-22T09:00:00Z");
  if (opts.demo) {
    // Each demo box starts from a copy of the demo's data folder (the box then boots as any
    // box does on existing data; the loader sees its customers).
    cpSync(await demoTemplate(opts, env, clock.now().toISOString()), dir, { recursive: true });
    env.IRONBOX_DEMO = "1";
  } else if (!opts.env?.DATABASE_URL && !Object.keys(opts.env ?? {}).some((k) => k.startsWith("IRONBOX_ADMIN_"))) {
    // An empty box starts from a copy of a migrated one (a database elsewhere, or another admin, boots as it is).
    cpSync(await emptyTemplate(opts.admin !== false, clock.now().toISOString()), dir, { recursive: true });
  }
  const box = await bootAppliance(loadConfig(env), { clock, log: () => {}, diskRoots: opts.diskRoots, linkStallMs: opts.linkStallMs });
  const contract = contractChecker(box.routes);

  async function call(method: string, path: string, o: { token?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string } = {}) {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `token ${o.token}`;
    let body: string | undefined;
    if (o.rawBody !== undefined || o.body !== undefined) {
      headers["content-type"] ??= "application/json";
      body = o.rawBody ?? JSON.stringify(o.body);
    }
    const res = await box.app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    // An event stream never ends: report its status and hang up.
    if (res.headers.get("content-type") === "text/event-stream") {
      await res.body?.cancel();
      return { status: res.status, json: { success: true, stream: true } as any, headers: res.headers };
    }
    const text = await res.text();
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {}
    // Every answer is held to its route's declared response schema (test/contract.ts).
    contract.check(method, new URL(path, "http://localhost").pathname, res.status, json);
    return { status: res.status, json: json as any, headers: res.headers };
  }

  async function agentToken(user = ADMIN.user, password = ADMIN.password) {
    const r = await call("POST", "/api/v1/login/agent", { body: { user_name: user, password } });
    if (r.status !== 200) throw new Error(`agent login failed: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json.data as string;
  }
  async function employeeToken(pin: string | number, agent?: string) {
    const r = await call("POST", "/api/v1/login/employee", { token: agent ?? (await agentToken()), body: { pin: String(pin) } });
    if (r.status !== 200) throw new Error(`employee login failed: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json.data as string;
  }

  return {
    ...box,
    dir,
    clock,
    call,
    agentToken,
    employeeToken,
    close() {
      box.stop();
      box.database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
