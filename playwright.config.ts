import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, EMPTY_PORT, GATEWAY_AUTH, GATEWAY_PORT, GATEWAY_STAND_IN, MAIN_PORT, SMS_WEBHOOK_SECRET } from "./ui/e2e/pages/env";

/**
 * Browser tests: Debian's Chromium (npx playwright install cannot work here) against the
 * built appliance. Two boxes: one with demo data and a known admin, one empty for the
 * first-run setup. Each starts on a fresh data dir.
 */
const MAIN = MAIN_PORT;
const EMPTY = EMPTY_PORT;
const box = (port: number, dir: string, env: string) =>
  // Each box gets its own data dir per port, so parallel runs never share a database. Printer
  // discovery looks at a stand-in sysfs and /dev inside it, which the printing tests fill.
  // HTTP only: the HTTPS and offline specs start boxes of their own (ui/e2e/pages/ownBox.ts).
  `rm -rf ${dir} && IRONBOX_MDNS=0 IRONBOX_HTTPS=0 IRONBOX_PORT=${port} IRONBOX_DATA_DIR=${dir} IRONBOX_SYSFS_ROOT=${dir}/sys IRONBOX_DEV_ROOT=${dir}/dev ${env} node_modules/.bin/bun appliance/main.ts`;

export default defineConfig({
  testDir: "ui/e2e",
  testMatch: "**/*.e2e.ts",
  fullyParallel: false,
  workers: 1,
  // No retries: a flaky test is a bug to fix, and the first-run test cannot run twice on one box.
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  // E2E_JSON: scripts/test.sh runs the specs in two shards at once, each with its own report.
  reporter: [["list"], ["json", { outputFile: process.env.E2E_JSON ?? "test-results/e2e.json" }]],
  // Per port: Playwright empties its output folder when it starts, which would delete the
  // traces of another run sharing the machine (E2E_PORT).
  // E2E_RESULTS: npm test's folder of its own run (scripts/test.sh).
  outputDir: `${process.env.E2E_RESULTS ?? "test-results"}/e2e-artifacts-${MAIN}`,
  use: {
    baseURL: `http://localhost:${MAIN}`,
    browserName: "chromium",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: CHROMIUM_ARGS,
    },
    trace: "retain-on-failure",
    // The service worker (ui/sw.ts) stays out of the other specs; offline and https opt in.
    serviceWorkers: "block",
  },
  webServer: [
    {
      // Its SMS leave through the stand-in phone below (messaging.e2e.ts).
      command: box(
        MAIN,
        `.e2e-data/main-${MAIN}`,
        `IRONBOX_DEMO=1 IRONBOX_ADMIN_USER=admin IRONBOX_ADMIN_PASSWORD=admin-pass-1 IRONBOX_ADMIN_PIN=9999 IRONBOX_SMS_GATEWAY_URL=http://${GATEWAY_AUTH.user}:${GATEWAY_AUTH.pass}@127.0.0.1:${GATEWAY_PORT} IRONBOX_SMS_WEBHOOK_SECRET=${SMS_WEBHOOK_SECRET}`,
      ),
      url: `http://localhost:${MAIN}/api/v1/health`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `node_modules/.bin/bun scripts/e2e/gateway-stand-in.ts --port ${GATEWAY_PORT} --user ${GATEWAY_AUTH.user} --pass ${GATEWAY_AUTH.pass}`,
      url: `${GATEWAY_STAND_IN}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: box(EMPTY, `.e2e-data/empty-${EMPTY}`, ""),
      url: `http://localhost:${EMPTY}/api/v1/health`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
