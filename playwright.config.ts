import { defineConfig } from "@playwright/test";
import { BESIDE_PORT, CHROMIUM_ARGS, EMPTY_PORT, GATEWAY_AUTH, GATEWAY_PORT, GATEWAY_STAND_IN, MAIN_PORT, SMS_WEBHOOK_SECRET } from "./ui/e2e/pages/env";
import { BESIDE_SPECS } from "./ui/e2e/pages/lanes";

/**
 * Browser tests: Debian's Chromium (npx playwright install cannot work here) against the
 * built appliance. Three boxes: two with demo data and a known admin (one per lane, below), one
 * empty for the first-run setup. Each starts on a fresh data dir.
 */
const MAIN = MAIN_PORT;
const EMPTY = EMPTY_PORT;
const box = (port: number, dir: string, env: string) =>
  // Each box gets its own data dir per port, so parallel runs never share a database. Printer
  // discovery looks at a stand-in sysfs and /dev inside it, which the printing tests fill.
  // HTTP only: the HTTPS and offline specs start boxes of their own (ui/e2e/pages/ownBox.ts).
  `rm -rf ${dir} && IRONBOX_MDNS=0 IRONBOX_HTTPS=0 IRONBOX_PORT=${port} IRONBOX_DATA_DIR=${dir} IRONBOX_SYSFS_ROOT=${dir}/sys IRONBOX_DEV_ROOT=${dir}/dev ${env} node_modules/.bin/bun appliance/main.ts`;

/**
 * Two lanes, one worker each, each with a demo box of its own (issue 33: one lane left a core
 * idle while a test waited on its box or its page). Each lane's specs run one after the other,
 * since specs on one box share its data.
 * - "demo": the config's demo box (+0), the empty box (+2), and every spec that reaches them by
 *   port (MAIN_PORT, EMPTY_BOX, their data dirs: printing's and scan's stand-in devices, import
 *   reading the demo box as its old system) or shares a port with one (https and import: +7).
 * - "beside" (BESIDE_SPECS): specs that reach a demo box only through their baseURL, here the
 *   second demo box (+16), and the specs that start every box they use themselves on ports of
 *   their own (absolute URLs or a baseURL of their own; hotel and bookpage share +10, release
 *   and public +11, so they run one at a time). Both lanes share the SMS phone stand-in (+1),
 *   each test on a number of its own.
 * A new spec goes in "demo" unless it meets the second lane's terms; add it to BESIDE_SPECS
 * (ui/e2e/pages/lanes.ts) only then, where it keeps the lanes' times about even
 * (docs/decisions/suite-time.md); scripts/e2e/lanes.test.ts checks the terms it can.
 */
const beside = BESIDE_SPECS.map((name) => `**/${name}.e2e.ts`);
const demoEnv = `IRONBOX_DEMO=1 IRONBOX_ADMIN_USER=admin IRONBOX_ADMIN_PASSWORD=admin-pass-1 IRONBOX_ADMIN_PIN=9999 IRONBOX_SMS_GATEWAY_URL=http://${GATEWAY_AUTH.user}:${GATEWAY_AUTH.pass}@127.0.0.1:${GATEWAY_PORT} IRONBOX_SMS_WEBHOOK_SECRET=${SMS_WEBHOOK_SECRET}`;

export default defineConfig({
  testDir: "ui/e2e",
  testMatch: "**/*.e2e.ts",
  fullyParallel: false,
  // E2E_WORKERS=1 runs the lanes one after the other.
  workers: Number(process.env.E2E_WORKERS) || 2,
  projects: [
    { name: "demo", testIgnore: beside, workers: 1 },
    { name: "beside", testMatch: beside, workers: 1, use: { baseURL: `http://localhost:${BESIDE_PORT}` } },
  ],
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
      command: box(MAIN, `.e2e-data/main-${MAIN}`, demoEnv),
      url: `http://localhost:${MAIN}/api/v1/health`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // The "beside" lane's demo box: the same demo, data of its own.
      command: box(BESIDE_PORT, `.e2e-data/main-${BESIDE_PORT}`, demoEnv),
      url: `http://localhost:${BESIDE_PORT}/api/v1/health`,
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
