import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { AppPage } from "./pages/app";
import { MAIN_PORT } from "./pages/env";

/**
 * HQ's reference data in the browser (issue 15): an HQ-mode box publishes, a shop box enrolled
 * with it applies the snapshot and shows HQ-owned screens read-only with a "managed by head
 * quarters" banner. Both boxes are started here (ports E2E_PORT+5 and +6), not by the config.
 */
const HQ_PORT = MAIN_PORT + 5;
const SHOP_PORT = MAIN_PORT + 6;
const TOKEN = "e2e-reference-enrolment-token-0123456789";
const ADMIN = "IRONBOX_ADMIN_USER=admin IRONBOX_ADMIN_PASSWORD=admin-pass-1 IRONBOX_ADMIN_PIN=9999";
const started: ChildProcess[] = [];
const dirs: string[] = [];

async function startBox(port: number, env: Record<string, string>) {
  const dir = `.e2e-data/reference-${port}`;
  rmSync(dir, { recursive: true, force: true });
  dirs.push(dir);
  const vars = Object.fromEntries(ADMIN.split(" ").map((kv) => kv.split("=") as [string, string]));
  const child = spawn("node_modules/.bin/bun", ["appliance/main.ts"], {
    env: {
      ...process.env,
      ...vars,
      IRONBOX_MDNS: "0",
      IRONBOX_HTTPS: "0",
      IRONBOX_PORT: String(port),
      IRONBOX_DATA_DIR: dir,
      IRONBOX_SYSFS_ROOT: `${dir}/sys`,
      IRONBOX_DEV_ROOT: `${dir}/dev`,
      ...env,
    },
    stdio: "ignore",
  });
  started.push(child);
  for (let i = 0; i < 120; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`box on ${port} did not start`);
}

async function adminToken(port: number) {
  const call = async (path: string, body: unknown, token?: string) => {
    const r = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `token ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await r.json()).data as string;
  };
  return call("/login/employee", { pin: "9999" }, await call("/login/agent", { user_name: "admin", password: "admin-pass-1" }));
}

const api = async (port: number, method: string, path: string, token: string) =>
  (await (await fetch(`http://127.0.0.1:${port}/api/v1${path}`, { method, headers: { authorization: `token ${token}` } })).json()).data;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  await startBox(HQ_PORT, { IRONBOX_DEMO: "1", IRONBOX_MODE: "hq", IRONBOX_HQ_TOKEN: TOKEN });
  const hq = await adminToken(HQ_PORT);
  const published = await api(HQ_PORT, "POST", "/reference/publish", hq);
  await startBox(SHOP_PORT, { IRONBOX_HQ_URL: `http://127.0.0.1:${HQ_PORT}`, IRONBOX_HQ_PUBLIC_KEY: published.public_key, IRONBOX_HQ_TOKEN: TOKEN });
  // The shop fetches at boot, in the background.
  const shop = await adminToken(SHOP_PORT);
  await expect.poll(async () => (await api(SHOP_PORT, "GET", "/reference/status", shop)).version, { timeout: 20_000 }).toBe(1);
});
test.afterAll(() => {
  for (const c of started) c.kill("SIGTERM");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test("a managed shop shows HQ's catalogue read-only with the banner, and the version it runs", async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(`http://localhost:${SHOP_PORT}/`);
  await app.loginShop();
  await app.signIn("9999");
  await expect(page).toHaveURL(/\/home$/);

  // HQ's demo catalogue arrived; the shop's admin (an HQ admin of its own box) may not edit it.
  await page.goto(`http://localhost:${SHOP_PORT}/actions`);
  await expect(page.getByRole("note")).toContainText("managed by head quarters");
  await page.getByText("Dry Cleaning", { exact: true }).first().click();
  await expect(page.getByLabel("Name", { exact: true })).toBeDisabled();
  await expect(page.getByRole("note")).toContainText("managed by head quarters");

  // The status message templates are HQ's too: shown, not editable.
  await page.goto(`http://localhost:${SHOP_PORT}/messaging/templates`);
  await expect(page.getByRole("note")).toContainText("managed by head quarters");
  await expect(page.getByLabel("Template")).not.toBeEditable();
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);

  await page.goto(`http://localhost:${SHOP_PORT}/configuration`);
  await expect(page.getByText(/Reference data version 1 since \d\d\/\d\d\/\d{4}/)).toBeVisible();
  await page.getByRole("link", { name: "Reference data" }).click();
  await expect(page.getByText(`Managed by head quarters at http://127.0.0.1:${HQ_PORT}`)).toBeVisible();
  await page.getByRole("button", { name: "Check with head quarters now" }).click();
  await expect(app.toast("Checked with head quarters.")).toBeVisible();
});

test("head quarters publishes from the Reference data screen", async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(`http://localhost:${HQ_PORT}/`);
  await app.loginShop();
  await app.signIn("9999");
  await page.goto(`http://localhost:${HQ_PORT}/configReference`);
  await expect(page.getByText("Last published: version 1")).toBeVisible();
  await expect(page.getByLabel("Public key")).toHaveValue(/^MC[A-Za-z0-9+/=]+$/);
  await page.getByRole("button", { name: "Publish reference data" }).click();
  await expect(app.toast("Nothing changed: version 1 stands.")).toBeVisible();
});

test("a shop's admin on head quarters' box is not offered Publish (the server keeps it for HQ staff)", async ({ page }) => {
  const app = new AppPage(page);
  await page.goto(`http://localhost:${HQ_PORT}/`);
  await app.loginShop("birkirkara", "shop-demo-2026");
  await app.signIn("5555");
  await expect(page).toHaveURL(/\/home$/);
  await page.goto(`http://localhost:${HQ_PORT}/configReference`);
  await expect(page.getByText("Last published: version 1")).toBeVisible();
  await expect(page.getByText("Only head-quarters staff publish it.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Publish reference data" })).toHaveCount(0);
  // Nor the Sites screen: typed by hand, it lands on the home screen.
  await page.goto(`http://localhost:${HQ_PORT}/sites`);
  await expect(page).toHaveURL(/\/home$/);
});
