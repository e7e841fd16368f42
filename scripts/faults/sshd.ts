/**
 * A real OpenSSH server standing in for HQ's storage, for tests and fault scripts: Debian's
 * /usr/sbin/sshd on 127.0.0.1:<port> with its own config, host key and one user key (key
 * login only), every session forced into `internal-sftp` and chrooted to `root`, with a
 * folder per site inside it. The machine's own sshd and its config are left alone.
 *
 *   const hq = await startSshd({ port: 5141 });
 *   hq.url("mosta")  // sftp://root@127.0.0.1:5141/mosta, with hq.keyPath as the key
 *   await hq.stop(); await hq.start();  // an HQ outage and its end; the files stay
 *   await hq.close();                   // stops it and removes its folders
 *
 * sshd refuses a chroot with a component that is not root-owned or is group/other
 * writable (so nothing under /tmp): by default the root is a fresh folder under /srv.
 * It runs as root (the tests do); the login user is root, confined by ForceCommand
 * internal-sftp and the chroot.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Sshd {
  port: number;
  /** The chroot: HQ's storage, a folder per site (the replica as Litestream writes it). */
  root: string;
  /** The user's private key (0600), what the box's IRONBOX_REPLICA_KEY points at. */
  keyPath: string;
  /** The public key a wrong box would not have: a second key sshd does not accept. */
  wrongKeyPath: string;
  /** The replica URL of a site (its folder is created). */
  url(site: string): string;
  /** The folder of a site as seen from this machine (for file:// restores and checks). */
  dir(site: string): string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops sshd and removes its keys and, if it made it, the root. */
  close(): Promise<void>;
}

const SSHD = "/usr/sbin/sshd";

async function keygen(path: string) {
  const p = Bun.spawn(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "ironbox-test", "-f", path], { stdout: "ignore", stderr: "pipe" });
  if ((await p.exited) !== 0) throw new Error(`ssh-keygen failed: ${await new Response(p.stderr).text()}`);
}

/** The processes below `pid` (sshd's per-connection processes re-exec and fork, so children of children). */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, pp] of parent) if (pp === p) out.push(child), walk(child);
  };
  walk(pid);
  return out;
}

/** Resolves once something accepts TCP connections on the port (or rejects after `ms`). */
async function waitListening(port: number, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((res) => {
      const s = createConnection({ host: "127.0.0.1", port }, () => (s.destroy(), res(true)));
      s.on("error", () => res(false));
    });
    if (ok) return;
    await Bun.sleep(50);
  }
  throw new Error(`sshd did not listen on 127.0.0.1:${port}`);
}

export async function startSshd(opts: { port: number; root?: string }): Promise<Sshd> {
  const { port } = opts;
  const madeRoot = !opts.root;
  mkdirSync("/srv", { recursive: true });
  const root = opts.root ?? mkdtempSync("/srv/ironbox-sftp-");
  mkdirSync(root, { recursive: true });
  chmodSync(root, 0o755);
  const etc = mkdtempSync(join(tmpdir(), "ironbox-sshd-"));
  const hostKey = join(etc, "host_ed25519");
  const keyPath = join(etc, "user_ed25519");
  const wrongKeyPath = join(etc, "wrong_ed25519");
  await Promise.all([keygen(hostKey), keygen(keyPath), keygen(wrongKeyPath)]);
  writeFileSync(join(etc, "authorized_keys"), await Bun.file(`${keyPath}.pub`).text(), { mode: 0o600 });
  const config = join(etc, "sshd_config");
  writeFileSync(
    config,
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${hostKey}`,
      `PidFile ${join(etc, "sshd.pid")}`,
      `AuthorizedKeysFile ${join(etc, "authorized_keys")}`,
      // The key files live in a temp folder (group/other-readable parents): skip the owner checks.
      "StrictModes no",
      "PubkeyAuthentication yes",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PermitRootLogin prohibit-password",
      "UsePAM no",
      "AllowTcpForwarding no",
      "X11Forwarding no",
      "LogLevel VERBOSE",
      "Subsystem sftp internal-sftp",
      "ForceCommand internal-sftp",
      `ChrootDirectory ${root}`,
      "",
    ].join("\n"),
  );
  // sshd needs its privilege separation folder (absent where no sshd ever ran).
  if (!existsSync("/run/sshd")) mkdirSync("/run/sshd", { mode: 0o755 });

  let child: ReturnType<typeof Bun.spawn> | null = null;
  const sshd: Sshd = {
    port,
    root,
    keyPath,
    wrongKeyPath,
    dir: (site) => join(root, site),
    url(site) {
      mkdirSync(join(root, site), { recursive: true });
      return `sftp://root@127.0.0.1:${port}/${site}`;
    },
    async start() {
      if (child) return;
      // -D: stay in the foreground (our child); -e: log to stderr.
      child = Bun.spawn([SSHD, "-D", "-e", "-f", config], { stdout: "ignore", stderr: "ignore" });
      try {
        await waitListening(port, 5000);
      } catch (e) {
        child.kill("SIGKILL");
        child = null;
        throw e;
      }
    },
    async stop() {
      if (!child) return;
      const c = child;
      child = null;
      // An outage: the listener and every open session with it (found from its pid, not by name).
      const sessions = descendants(c.pid);
      c.kill("SIGKILL");
      for (const pid of sessions) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      await c.exited;
    },
    async close() {
      await sshd.stop();
      rmSync(etc, { recursive: true, force: true });
      if (madeRoot) rmSync(root, { recursive: true, force: true });
    },
  };
  await sshd.start();
  return sshd;
}
