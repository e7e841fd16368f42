import { afterAll, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { connect } from "node:net";
import { hostname } from "node:os";
import { loadConfig } from "../platform/config";
import { testBox } from "../test/harness";
import { hostGuard, interfaceAddresses, MISDIRECTED } from "./hostGuard";

const boxes: Awaited<ReturnType<typeof testBox>>[] = [];
afterAll(() => {
  for (const b of boxes) b.close();
});

const ENV = {
  IRONBOX_SITE_NAME: "Mosta",
  IRONBOX_ALLOWED_HOSTS: "hq.chain.example, .shops.example",
};

async function boxWith(env: Record<string, string> = ENV) {
  const box = await testBox({ env });
  boxes.push(box);
  /** A request as a browser sends it to http://<host>/…: Bun builds request.url from Host. */
  const as = async (host: string, path = "/api/v1/lan/tablet-setup", init: RequestInit = {}) => {
    const res = await box.app.handle(new Request(`http://${host}${path}`, init));
    return { status: res.status, body: await res.text() };
  };
  return { box, as };
}

test("DNS rebinding: a name that is not the box's gets 421 on the API, the pages and the login; nothing runs", async () => {
  const { box, as } = await boxWith();
  for (const host of [
    "attacker.example",
    "attacker.example:8080",
    "ironbox-mosta.local.attacker.example",
    "localhost.attacker.example",
    "evil-shops.example",
    "mosta",
  ]) {
    const r = await as(host);
    expect({ host, status: r.status }).toEqual({ host, status: 421 });
    expect(JSON.parse(r.body)).toEqual({ success: false, message: MISDIRECTED });
  }
  expect((await as("attacker.example", "/")).status).toBe(421);
  expect((await as("attacker.example", "/ca.crt")).status).toBe(421);
  // A rebound page posting a login learns nothing, and the box's lock-out counter is not fed either.
  const login = await as("attacker.example", "/api/v1/login/agent", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ user_name: "admin", password: "admin-pass-1" }),
  });
  expect(login.status).toBe(421);
  expect(login.body).not.toContain("token");
  // Control: the same login by the box's own name works.
  expect((await box.call("POST", "/api/v1/login/agent", { body: { user_name: "admin", password: "admin-pass-1" } })).status).toBe(200);
});

test("control: the box's own names, loopback, IRONBOX_ALLOWED_HOSTS and the config's own HQ name are answered", async () => {
  const { as } = await boxWith({
    ...ENV,
    IRONBOX_HQ_URL: "https://hq-box.lan:8443",
    IRONBOX_HQ_PUBLIC_KEY: generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "der" }).toString("base64"),
    IRONBOX_HQ_TOKEN: "t".repeat(40),
  });
  const host = hostname().toLowerCase();
  const ok = [
    "localhost",
    "localhost:8080",
    "LOCALHOST",
    "ironbox-mosta.local",
    "ironbox-mosta.local.",
    "ironbox-mosta.local:8443",
    // With a port: Elysia finds the path from the 11th character on, so "http://vm/…" would not route.
    `${host}:8080`,
    `${host}.local`,
    "127.0.0.1",
    "127.0.1.1:8080",
    "[::1]:8080",
    "hq.chain.example",
    "mosta.shops.example",
    "hq-box.lan",
  ];
  for (const h of ok) expect({ h, status: (await as(h)).status }).toEqual({ h, status: 200 });
});

test("DNS rebinding by address: an address that is not the box's own gets 421", async () => {
  const { as } = await boxWith();
  for (const host of ["203.0.113.9", "203.0.113.9:8080", "10.255.0.7", "[2001:db8::9]", "[fe80::dead:1]:8443", "0.0.0.0"])
    expect({ host, status: (await as(host)).status }).toEqual({ host, status: 421 });
  expect((await as("203.0.113.9", "/")).status).toBe(421);
});

test("control: every address of the box's own interfaces is answered, and IRONBOX_ALLOWED_HOSTS adds one", async () => {
  const own = interfaceAddresses();
  expect(own).toContain("127.0.0.1");
  const { as } = await boxWith({ ...ENV, IRONBOX_ALLOWED_HOSTS: "203.0.113.9, [2001:DB8:0::9]" });
  for (const a of own) {
    const host = a.includes(":") ? `[${a}]` : a;
    expect({ host, status: (await as(`${host}:8080`)).status }).toEqual({ host, status: 200 });
  }
  for (const host of ["203.0.113.9", "[2001:db8::9]"]) expect({ host, status: (await as(host)).status }).toEqual({ host, status: 200 });
  expect((await as("203.0.113.10")).status).toBe(421);
});

test("a renumbered box answers to its new address without a restart; the old one stops", () => {
  let addresses = ["127.0.0.1", "192.168.1.20"];
  let t = 0;
  const guard = hostGuard(["localhost"], { addresses: () => addresses, now: () => t });
  const status = (host: string) => guard(new Request(`http://${host}:8080/api/v1/health`))?.status ?? 200;
  expect(status("192.168.1.20")).toBe(200);
  expect(status("192.168.1.77")).toBe(421);
  addresses = ["127.0.0.1", "192.168.1.77"]; // DHCP gave the box a new lease
  t += 60_000;
  expect(status("192.168.1.77")).toBe(200);
  expect(status("192.168.1.20")).toBe(421);
  // An attacker's stream of unknown addresses re-reads the interfaces at most once per interval.
  let reads = 0;
  const counted = hostGuard([], { addresses: () => (reads++, addresses), now: () => t });
  for (let i = 0; i < 50; i++) counted(new Request(`http://10.0.0.${i}:8080/`));
  expect(reads).toBe(1);
});

test("over a real socket: the Host header decides (421 for a foreign name, 200 for the box's)", async () => {
  const { box } = await boxWith();
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => box.app.handle(r) });
  const raw = (host: string) =>
    new Promise<string>((resolve, reject) => {
      const s = connect(server.port!, "127.0.0.1", () => s.write(`GET /api/v1/lan/tablet-setup HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
      let out = "";
      s.on("data", (d) => (out += d));
      s.on("end", () => resolve(out));
      s.on("error", reject);
      s.setTimeout(5000, () => s.destroy(new Error("timeout")));
    });
  try {
    expect((await raw(`rebind.attacker.example:${server.port}`)).split("\r\n")[0]).toBe("HTTP/1.1 421 Misdirected Request");
    expect((await raw(`ironbox-mosta.local:${server.port}`)).split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
    expect((await raw(`127.0.0.1:${server.port}`)).split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
    expect((await raw(`203.0.113.9:${server.port}`)).split("\r\n")[0]).toBe("HTTP/1.1 421 Misdirected Request");
  } finally {
    server.stop(true);
  }
});

test("IRONBOX_ALLOWED_HOSTS takes host names only, and says which entry is wrong", () => {
  expect(loadConfig({ IRONBOX_ALLOWED_HOSTS: " HQ.Example.com ,.shops.example," }).allowedHosts).toEqual(["hq.example.com", ".shops.example"]);
  expect(loadConfig({}).allowedHosts).toEqual([]);
  expect(loadConfig({ IRONBOX_ALLOWED_HOSTS: "203.0.113.9,[2001:db8::9]" }).allowedHosts).toEqual(["203.0.113.9", "[2001:db8::9]"]);
  for (const bad of ["http://hq.example.com", "hq.example.com:8443", "203.0.113.9:8080", "dead:8443", "*", "a b"])
    expect(() => loadConfig({ IRONBOX_ALLOWED_HOSTS: bad })).toThrow("IRONBOX_ALLOWED_HOSTS");
});
