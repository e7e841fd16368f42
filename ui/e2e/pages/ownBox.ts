import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { resolve } from "node:path";

/**
 * A box a spec starts, stops and starts again itself (the HTTPS and offline specs), on its
 * own port and data dir, never the shared e2e boxes of playwright.config.ts.
 */
export class OwnBox {
  readonly dir: string;
  private child: ChildProcess | null = null;

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {
    this.dir = resolve(`.e2e-data/own-${port}`);
    rmSync(this.dir, { recursive: true, force: true });
  }

  get url() {
    return `http://localhost:${this.port}`;
  }

  /** `env` adds to (or overrides) the box's environment for this start only, e.g. another release's UI. */
  async start(env: Record<string, string> = {}): Promise<void> {
    const child = spawn("node_modules/.bin/bun", ["appliance/main.ts"], {
      env: {
        ...process.env,
        IRONBOX_MDNS: "0",
        IRONBOX_DEMO: "1",
        IRONBOX_ADMIN_USER: "admin",
        IRONBOX_ADMIN_PASSWORD: "admin-pass-1",
        IRONBOX_ADMIN_PIN: "9999",
        IRONBOX_PORT: String(this.port),
        IRONBOX_DATA_DIR: this.dir,
        IRONBOX_SYSFS_ROOT: `${this.dir}/sys`,
        IRONBOX_DEV_ROOT: `${this.dir}/dev`,
        ...this.env,
        ...env,
      },
      stdio: "ignore",
    });
    this.child = child;
    for (let i = 0; i < 120; i++) {
      if (child.exitCode !== null) throw new Error(`box on ${this.port} exited with ${child.exitCode}`);
      const up = await fetch(`http://127.0.0.1:${this.port}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`box on ${this.port} did not start`);
  }

  /** SIGTERM, as systemd stops it; waits until the process has gone (and its ports with it). */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await gone;
    clearTimeout(timer);
  }

  async remove(): Promise<void> {
    await this.stop();
    // A child the box started (a nightly copy, which a moved calendar can start) may still be
    // finishing a file in the dir for a moment after the box has gone: rm retries on ENOTEMPTY.
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  }
}
