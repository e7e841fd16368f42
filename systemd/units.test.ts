import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isUnder, MOUNTED_DISK_ROOTS } from "../appliance/domain/disks";
import { freePort } from "../appliance/test/ports";

/**
 * Installing a box (scripts/install.sh) into an empty temporary root, twice: the second run changes
 * nothing. Every unit passes `systemd-analyze verify` (this machine has no systemd as PID 1,
 * so the units are checked against a root holding the installed release and systemd's own
 * units). Then the appliance is started exactly as the unit says (its ExecStart in its
 * WorkingDirectory, Environment then EnvironmentFile, as its User with its groups) and
 * answers /api/v1/health.
 */
const REPO = resolve(import.meta.dir, "..");
// PORT and PORT + 1 (HTTPS), asked of the kernel (test/ports.ts): a second run beside this one gets its own.
const PORT = await freePort(2);
let root: string;
const sh = (cmd: string[], opts: { cwd?: string } = {}) => {
  const r = spawnSync(cmd[0]!, cmd.slice(1), { cwd: opts.cwd ?? REPO, encoding: "utf8" });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
};
/** Every path under the root with its mode, owner and link target or size (the release's dependencies aside). */
const snapshot = () => sh(["find", root, "-path", "*/node_modules", "-prune", "-o", "-printf", "%P %m %u %g %l %s\n"]).out.split("\n").sort().join("\n");
const runs: { code: number | null; out: string }[] = [];
const snapshots: string[] = [];

beforeAll(() => {
  // Empty: install.sh makes the account files useradd --prefix needs (systemd/upgrade.test.ts
  // installs into a root that has them).
  root = mkdtempSync(join(tmpdir(), "ironbox-install-"));
  chmodSync(root, 0o755); // the service user must reach its data folder and the release
  for (let i = 0; i < 2; i++) {
    runs.push(sh(["sh", "scripts/install.sh", "--root", root]));
    snapshots.push(snapshot());
  }
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }), 60_000);

test("the scripts parse (sh -n)", () => {
  for (const s of ["install.sh", "upgrade.sh", "rollback.sh", "box-lib.sh", "restore-box.sh"])
    expect(sh(["sh", "-n", `scripts/${s}`])).toEqual({ code: 0, out: "" });
});

test("install.sh into a root: user and groups, data folder, release and current, env file, udev rules, unit; a second run changes nothing", () => {
  expect(runs[0]!.code).toBe(0);
  for (const step of [
    "made /etc/passwd in",
    "made /etc/gshadow in",
    "user ironbox created",
    "ironbox added to dialout",
    "release",
    "current -> releases/",
    "installed /etc/udev/rules.d/70-ironbox.rules",
    "installed /etc/systemd/system/ironbox.service",
  ])
    expect(runs[0]!.out).toContain(step);
  const passwd = readFileSync(join(root, "etc/passwd"), "utf8");
  const [, , uid, gid, , home, shell] = passwd
    .split("\n")
    .find((l) => l.startsWith("ironbox:"))!
    .split(":");
  expect([home, shell]).toEqual(["/var/lib/ironbox", "/usr/sbin/nologin"]);
  expect(passwd).toStartWith("root:x:0:0:");
  expect(statSync(join(root, "etc/shadow")).mode & 0o777).toBe(0o640);
  const group = readFileSync(join(root, "etc/group"), "utf8");
  for (const g of ["lp", "dialout", "input", "plugdev"]) expect(group).toMatch(new RegExp(`^${g}:[^:]*:\\d+:(.*,)?ironbox(,.*)?$`, "m"));
  const data = statSync(join(root, "var/lib/ironbox"));
  expect([data.uid, data.gid, data.mode & 0o777]).toEqual([Number(uid), Number(gid), 0o750]);
  const version = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version;
  expect(sh(["readlink", join(root, "opt/ironbox/current")]).out.trim()).toBe(`releases/${version}`);
  expect(existsSync(join(root, "opt/ironbox/current/ui/dist/index.html"))).toBe(true);
  expect(statSync(join(root, "opt/ironbox/current/appliance/main.ts")).mode & 0o022).toBe(0); // the service cannot rewrite its code
  expect(statSync(join(root, "etc/ironbox/ironbox.env")).mode & 0o777).toBe(0o640);

  // Again: nothing created, installed or switched, and the tree is the same.
  expect(runs[1]!.code).toBe(0);
  expect(runs[1]!.out).not.toMatch(/created|added to|installed|current ->|wrote/);
  expect(snapshots[1]).toBe(snapshots[0]!);
});

test("udev rules: printers and guns get the service user's groups, never world-writable", () => {
  const group = readFileSync(join(root, "etc/group"), "utf8");
  const rules = readFileSync(join(root, "etc/udev/rules.d/70-ironbox.rules"), "utf8")
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"));
  const kernels = rules.map((l) => /KERNEL=="([^"]+)"/.exec(l)?.[1]);
  expect(kernels).toEqual(["lp[0-9]*", "ttyUSB[0-9]*", "ttyACM[0-9]*", "rfcomm[0-9]*", "hidraw[0-9]*", "event[0-9]*"]);
  for (const l of rules) {
    // Every clause is KEY=="match" or KEY="assignment".
    expect(l.split(/,\s*/).every((c) => /^[A-Z]+(\{[^}]+\})?(==|!=|=|\+=)"[^"]*"$/.test(c))).toBe(true);
    const g = /GROUP="([^"]+)"/.exec(l)![1]!;
    expect(group).toMatch(new RegExp(`^${g}:[^:]*:\\d+:(.*,)?ironbox(,.*)?$`, "m"));
    expect(/MODE="(\d+)"/.exec(l)![1]).toBe("0660");
  }
});

test("systemd-analyze verify accepts every unit, and refuses a broken one", () => {
  cpSync("/usr/lib/systemd", join(root, "usr/lib/systemd"), { recursive: true });
  const units = readdirSync(join(REPO, "systemd")).filter((f) => /\.(service|timer|socket|path)$/.test(f));
  expect(units).toContain("ironbox.service");
  for (const u of units) {
    const r = sh(["systemd-analyze", "verify", `--root=${root}`, join(root, "etc/systemd/system", u)]);
    expect(r).toEqual({ code: 0, out: "" });
  }
  const broken = join(root, "etc/systemd/system/broken.service");
  writeFileSync(broken, readFileSync(join(REPO, "systemd/ironbox.service"), "utf8").replace("node_modules/.bin/bun", "node_modules/.bin/no-such-bun"));
  const r = sh(["systemd-analyze", "verify", `--root=${root}`, broken]);
  expect(r.code).not.toBe(0);
  expect(r.out).toContain("no-such-bun");
  rmSync(broken);
});

test("the unit's sandbox: hardened to systemd-analyze security's OK or better, and writable where the settings may point", () => {
  const unitFile = join(REPO, "systemd/ironbox.service");
  const r = sh(["systemd-analyze", "security", "--offline=yes", unitFile]);
  const m = /Overall exposure level for ironbox\.service: ([\d.]+) (\w+)/.exec(r.out);
  expect(m).not.toBeNull();
  // systemd's scale: under 5.0 is OK, under 1.0 SAFE (README, "Installing a box", says the score).
  expect(Number(m![1])).toBeLessThan(5);
  expect(["OK", "SAFE", "PERFECT"]).toContain(m![2]);
  const unit = unitSettings(unitFile);
  for (const [k, v] of Object.entries({
    UMask: "0077",
    RestrictNamespaces: "true",
    SystemCallFilter: "@system-service",
    SystemCallArchitectures: "native",
    ProtectKernelLogs: "true",
    ProtectClock: "true",
    ProtectHostname: "true",
    RestrictRealtime: "true",
    LockPersonality: "true",
    ProtectSystem: "strict",
    PrivateTmp: "true",
  }))
    expect([k, unit.get(k)]).toEqual([k, [v]]);
  // mDNS and the LAN addresses need netlink and UDP; no Bluetooth socket (rfcomm is a tty).
  expect(unit.get("RestrictAddressFamilies")![0]!.split(" ").sort()).toEqual(["AF_INET", "AF_INET6", "AF_NETLINK", "AF_UNIX"]);
  // Every folder a file:// replica or a backup disk may be in is writable under ProtectSystem=strict,
  // and nothing else but the data folder; /tmp (tests) is the service's private one.
  const writable = unit
    .get("ReadWritePaths")!
    .flatMap((l) => l.split(" "))
    .map((p) => p.replace(/^-/, ""));
  expect(writable.sort()).toEqual(["/var/lib/ironbox", ...MOUNTED_DISK_ROOTS].sort());
  for (const accepted of ["/srv/ironbox/mosta", "/mnt/usb/backups", "/media/ironbox/USBSTICK"])
    expect(
      isUnder(
        accepted,
        writable.filter((p) => p !== "/var/lib/ironbox"),
      ),
    ).toBe(true);
  for (const refused of ["/etc/ironbox", "/opt/ironbox", "/srvx/a", "/var/lib/other"]) expect(isUnder(refused, MOUNTED_DISK_ROOTS)).toBe(false);
});

/** The unit's [Service] settings, repeated keys in order. */
function unitSettings(file: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (m) out.set(m[1]!, [...(out.get(m[1]!) ?? []), m[2]!]);
  }
  return out;
}

test("the appliance starts as the unit starts it (ExecStart, WorkingDirectory, Environment, EnvironmentFile, User) and answers /api/v1/health", async () => {
  const unit = unitSettings(join(root, "etc/systemd/system/ironbox.service"));
  const inRoot = (p: string) => (p.startsWith("/") ? join(root, p) : p);
  // The test's own settings go where a shop's would: the environment file, which overrides Environment=.
  const envFile = inRoot(unit.get("EnvironmentFile")![0]!.replace(/^-/, ""));
  writeFileSync(
    envFile,
    `${readFileSync(envFile, "utf8")}IRONBOX_PORT=${PORT}\nIRONBOX_HTTPS_PORT=${PORT + 1}\nIRONBOX_MDNS=0\nIRONBOX_SITE_NAME="units test"\n`,
  );
  const env: Record<string, string> = { PATH: "/usr/bin:/bin" };
  for (const e of unit.get("Environment")!) {
    const [k, v] = e.split(/=(.*)/) as [string, string];
    env[k] = inRoot(v);
  }
  for (const line of readFileSync(envFile, "utf8").split("\n")) {
    const m = /^\s*([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) env[m[1]!] = m[2]!.replace(/^"(.*)"$/, "$1");
  }
  const [exe, ...args] = unit.get("ExecStart")![0]!.split(" ");
  const passwd = readFileSync(join(root, "etc/passwd"), "utf8").split("\n");
  const groups = readFileSync(join(root, "etc/group"), "utf8").split("\n");
  const [, , uid, gid] = passwd.find((l) => l.startsWith(`${unit.get("User")![0]}:`))!.split(":");
  const extra = unit
    .get("SupplementaryGroups")![0]!
    .split(" ")
    .map((g) => groups.find((l) => l.startsWith(`${g}:`))!.split(":")[2]);
  const child = Bun.spawn(
    ["sh", "-c", 'umask 022 && exec "$@"', "sh", "setpriv", `--reuid=${uid}`, `--regid=${gid}`, `--groups=${extra.join(",")}`, "--", inRoot(exe!), ...args],
    {
      cwd: inRoot(unit.get("WorkingDirectory")![0]!),
      env,
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  try {
    let health: { status: number; json: any } | null = null;
    for (let i = 0; i < 200 && !health; i++) {
      health = await fetch(`http://127.0.0.1:${PORT}/api/v1/health`)
        .then(async (r) => ({ status: r.status, json: await r.json() }))
        .catch(() => null);
      if (!health) await Bun.sleep(50);
    }
    expect(health?.status).toBe(200);
    expect(health!.json.data).toMatchObject({ database: "ok", setup_required: true });
    // The database is in the data folder, owned by the service user.
    const db = statSync(join(root, "var/lib/ironbox/ironbox.db"));
    expect([db.uid, db.gid]).toEqual([Number(uid), Number(gid)]);
    // The UI of the release is served.
    expect(await (await fetch(`http://127.0.0.1:${PORT}/`)).text()).toContain("<html");
    // What the box wrote is its own (started with this test's umask 022: the process sets 077
    // itself, as the unit's UMask= does): the database, its WAL and shm, the certificates.
    const made = sh(["find", join(root, "var/lib/ironbox"), "-mindepth", "1", "-printf", "%P %m\n"])
      .out.trim()
      .split("\n")
      .map((l) => l.split(" ") as [string, string]);
    expect(made.map(([f]) => f)).toEqual(expect.arrayContaining(["ironbox.db", "ironbox.db-wal", "ironbox.db-shm", "tls"]));
    // Bun's own transpiler cache (.bun, written before main.ts runs) is covered by the unit's
    // UMask=; the CA and server certificates are public (served at /ca.crt), in a 0700 folder.
    const exempt = (f: string) => f.startsWith(".bun") || ["tls/ca.crt", "tls/server.crt"].includes(f);
    expect(made.filter(([f, mode]) => !exempt(f) && Number.parseInt(mode, 8) & 0o077)).toEqual([]);
    expect(made.filter(([f]) => f.startsWith("ironbox.db")).map(([, mode]) => mode)).toEqual(["600", "600", "600"]);
  } finally {
    child.kill("SIGTERM"); // as systemctl stop does
  }
  expect(await child.exited).toBe(0);
}, 30_000);
