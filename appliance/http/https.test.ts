import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { Database } from "bun:sqlite";
import { freePort } from "../test/ports";

/**
 * main.ts as the box runs it: HTTPS beside HTTP with its own certificates (issue 16). curl is
 * the client: it trusts only the box's CA and reaches the box by its mDNS name (--resolve).
 */
// Asked of the kernel (test/ports.ts): a second run beside this one gets its own.
const HTTP = await freePort();
const HTTPS = await freePort();
const dirs: string[] = [];
const procs: Subprocess[] = [];
afterAll(async () => {
  for (const p of procs) p.kill("SIGTERM");
  await Promise.all(procs.map((p) => p.exited));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function startBox(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "ironbox-https-"));
  dirs.push(dir);
  const p = Bun.spawn([process.execPath, join(import.meta.dir, "../main.ts")], {
    env: {
      ...process.env,
      IRONBOX_MDNS: "0",
      IRONBOX_SITE_NAME: "e2e",
      IRONBOX_DATA_DIR: dir,
      IRONBOX_SYSFS_ROOT: `${dir}/sys`,
      IRONBOX_DEV_ROOT: `${dir}/dev`,
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  procs.push(p);
  const port = env.IRONBOX_PORT;
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { dir, p };
    await Bun.sleep(100);
  }
  throw new Error("the box did not start");
}

/** curl as the client; async, so this process stays responsive. Prints status, then the body. */
async function curl(...args: string[]) {
  const c = Bun.spawn(["curl", "-s", "-w", "\n%{http_code} %{redirect_url}", ...args], { stdout: "pipe", stderr: "pipe" });
  const out = await new Response(c.stdout).text();
  await c.exited;
  const lines = out.split("\n");
  const [status, location] = lines.pop()!.split(" ");
  return { status: Number(status), location, body: lines.join("\n") };
}

test("HTTPS by the box's name with only its CA trusted; HTTP moves page loads there and keeps the API and /ca.crt", async () => {
  const { dir } = await startBox({ IRONBOX_PORT: String(HTTP), IRONBOX_HTTPS_PORT: String(HTTPS) });
  const ca = join(dir, "tls/ca.crt");
  const resolve = [`ironbox-e2e.local:${HTTPS}:127.0.0.1`, `ironbox-e2e.local:${HTTP}:127.0.0.1`];
  const byName = (...a: string[]) => curl("--cacert", ca, "--resolve", resolve[0]!, "--resolve", resolve[1]!, ...a);

  const health = await byName(`https://ironbox-e2e.local:${HTTPS}/api/v1/health`);
  expect(health.status).toBe(200);
  expect(JSON.parse(health.body).success).toBe(true);
  // A client that does not trust the CA is refused (the check can fail).
  expect((await curl("--resolve", resolve[0]!, `https://ironbox-e2e.local:${HTTPS}/api/v1/health`)).status).toBe(0);

  const page = await byName("-H", "Accept: text/html", `http://ironbox-e2e.local:${HTTP}/customers?x=1`);
  expect(page.status).toBe(307);
  expect(page.location).toBe(`https://ironbox-e2e.local:${HTTPS}/customers?x=1`);
  const api = await byName("-H", "Accept: text/html", `http://ironbox-e2e.local:${HTTP}/api/v1/health`);
  expect(api.status).toBe(200);
  const der = await byName("-o", join(dir, "dl.crt"), `http://ironbox-e2e.local:${HTTP}/ca.crt`);
  expect(der.status).toBe(200);
  const same = Bun.spawnSync(["openssl", "x509", "-inform", "DER", "-in", join(dir, "dl.crt"), "-noout", "-subject"]).stdout.toString();
  expect(same).toContain("Ironbox e2e local CA");
  // Wrong passwords are counted per client address: over HTTPS the route gets the real one.
  const login = await byName(
    "-H",
    "content-type: application/json",
    "-d",
    '{"user_name":"nobody","password":"wrong-password"}',
    `https://ironbox-e2e.local:${HTTPS}/api/v1/login/agent`,
  );
  expect(login.status).toBe(401);
  const db = new Database(join(dir, "ironbox.db"), { readonly: true });
  expect(db.query("SELECT client FROM auth_failures").all()).toEqual([{ client: "127.0.0.1 nobody" }]);
  db.close();
}, 30_000);

test("HTTPS port already taken: the box still serves HTTP, and says HTTPS is off", async () => {
  const blocker = Bun.serve({ port: 0, hostname: "0.0.0.0", fetch: () => new Response("other") });
  const taken = blocker.port;
  const http = await freePort();
  try {
    const { p } = await startBox({ IRONBOX_PORT: String(http), IRONBOX_HTTPS_PORT: String(taken) });
    expect((await curl(`http://127.0.0.1:${http}/api/v1/health`)).status).toBe(200);
    p.kill("SIGTERM");
    await p.exited;
    expect(await new Response(p.stderr).text()).toContain(`HTTPS is off: port ${taken} could not be opened`);
  } finally {
    blocker.stop(true);
  }
}, 30_000);
