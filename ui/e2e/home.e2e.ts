import { expect, type Locator, type Page, test } from "@playwright/test";
import { apiDate, displayDate } from "../../appliance/domain/format";
import { AppPage } from "./pages/app";
import { shot } from "./pages/shot";

// Demo employees on the admin's HQ agent (README): PIN → role.
const EVERY = [
  "Agents",
  "Employees",
  "Customers",
  "Tickets",
  "Actions",
  "Garments",
  "Modifiers",
  "Configuration",
  "Tracking",
  "Scheduler",
  "Reporting",
  "Express",
  "State Logs",
  "End of day",
  "Accounts",
  "Logout",
];
const cases = [
  { who: "admin (HQ)", pin: "9999", tiles: EVERY },
  { who: "manager", pin: "2222", tiles: ["Customers", "Tickets", "Tracking", "Express", "State Logs", "End of day", "Accounts", "Logout"] },
  { who: "employee", pin: "3333", tiles: ["Customers", "Tickets", "Tracking", "Express", "State Logs", "Logout"] },
  { who: "driver (HQ)", pin: "4444", tiles: ["Today's run", "Customers", "Tickets", "Tracking", "Scheduler", "Logout"] },
];

test.describe("home tiles by role (spec §6)", () => {
  for (const c of cases) {
    test(c.who, async ({ page }) => {
      const app = new AppPage(page);
      await app.loginAs(c.pin);
      await expect(app.tiles()).toHaveText(c.tiles);
    });
  }

  test("a shop admin without the HQ flag does not see the Scheduler", async ({ page }) => {
    const app = new AppPage(page);
    await app.loginAs("5555", "birkirkara", "shop-demo-2026");
    await expect(app.tiles()).toHaveText(EVERY.filter((t) => t !== "Scheduler"));
  });
});

// Issue 25: recognisable icons (an SVG each, distinct), not letters in squares.
test("every home tile carries its own icon, not letters", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  const icons = page.locator(".tiles .tile-icon");
  await expect(icons).toHaveCount(16);
  for (const icon of await icons.all()) {
    await expect(icon.locator("svg")).toHaveCount(1);
    await expect(icon).toHaveText("");
  }
  const kinds = await icons.evaluateAll((els) => els.map((el) => el.querySelector("svg")!.getAttribute("class")));
  expect(new Set(kinds).size).toBe(16);
});

test("a driver reaches today's run in one tap from home", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const app = new AppPage(page);
  await app.loginAs("4444");
  await app.tiles().filter({ hasText: "Today's run" }).click();
  const today = apiDate(new Date());
  await expect(page).toHaveURL(new RegExp(`day=${today}&view=driver$`));
  await expect(page.getByTestId("day-title")).toContainText(displayDate(today));
  await expect(page.getByRole("button", { name: "Driver", pressed: true })).toBeVisible();
  await expect(page.getByText(/^\d+ stops? for Mark Farrugia$/)).toBeVisible();
});

// The gate itself; which role lands where for each route is ui/app/routes.test.ts (issue 33).
test("an admin-only route typed by a driver redirects to /home", async ({ page }) => {
  const app = new AppPage(page);
  await app.openAs("/agents", "4444");
  await expect(page).toHaveURL(/\/home$/);
  await page.goto("/tracking");
  await expect(page).toHaveURL(/\/tracking$/);
});

test("an admin reaches admin routes, and back returns home", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  await page.getByRole("link", { name: /Agents/ }).click();
  await expect(page).toHaveURL(/\/agents$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Agents");
  await page.getByRole("button", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/home$/);
});

test("the Logout tile logs the employee out and the PIN modal returns", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("3333");
  await page.getByRole("button", { name: /Logout/ }).click();
  await expect(app.pin).toBeVisible();
  await expect(page.getByTestId("who")).not.toContainText("Anna Vella");
});

test("idle for 6 minutes logs the employee out (not the shop)", async ({ page }) => {
  await page.clock.install();
  const app = new AppPage(page);
  await app.loginAs("3333");
  await page.clock.fastForward("05:00");
  await expect(app.pin).toBeHidden();
  await page.clock.fastForward("01:05");
  await expect(app.pin).toBeVisible();
  await expect(app.userName).toBeHidden();
});

test("a reload after the idle time has passed still asks for the PIN", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("3333");
  await page.evaluate(() => localStorage.setItem("ironbox.lastActivity", String(Date.now() - 7 * 60_000)));
  await page.reload();
  await expect(app.pin).toBeVisible();
  await expect(app.userName).toBeHidden();
});

test("before the PIN no screen opens: a deep link waits on home under the PIN modal", async ({ page }) => {
  const app = new AppPage(page);
  await app.open();
  await app.loginShop();
  await page.goto("/agents");
  await expect(app.pin).toBeVisible();
  await expect(page).toHaveURL(/\/home$/);
  await app.enterPin("9999");
  await expect(app.pin).toBeHidden();
  await expect(page).toHaveURL(/\/home$/);
});

// Spec §2's full route list, each open to an admin (no redirect to /home): ui/app/routes.test.ts
// (issue 33: 26 full page loads here, 24 s, for what the route table decides).

test("screens look right on desktop, tablet and phone", async ({ page }) => {
  const app = new AppPage(page);
  await page.setViewportSize({ width: 1366, height: 900 });
  await app.open();
  await shot(page, "login-desktop");
  await app.loginShop();
  await shot(page, "pin-desktop");
  await app.enterPin("9999");
  await expect(app.tiles().first()).toBeVisible();
  await expect(page.getByText("v1.0.6")).toBeVisible();
  await shot(page, "home-desktop");
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, "home-tablet");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByText("v1.0.6")).toBeHidden();
  await shot(page, "home-phone");
  await page.getByRole("button", { name: /Logout/ }).click();
  await expect(app.pin).toBeVisible();
  await shot(page, "pin-phone");
  await page.getByRole("button", { name: "Log out shop" }).click();
  await shot(page, "confirm-phone");
  await page.getByRole("button", { name: "OK" }).click();
  await expect(app.userName).toBeVisible();
  await shot(page, "login-phone");
});

// Issue 13: the home statistics are admin-only (spec §2/§6), with charts loaded on demand.
const stats = (page: Page) => page.getByRole("region", { name: "Statistics" });
/** Whether a chart's canvas has drawn something (any pixel not transparent). */
const drawn = (canvas: Locator) =>
  canvas.evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext("2d")?.getImageData(0, 0, c.width, c.height).data ?? [];
    return c.width > 0 && data.some((v, i) => i % 4 === 3 && v > 0);
  });

for (const [size, viewport] of [
  ["tablet", { width: 1280, height: 800 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`an HQ admin's home shows the statistics, their charts and the shops (${size})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const asked: string[] = [];
    page.on("request", (r) => r.url().includes("/statistics/home") && asked.push(r.url()));
    const app = new AppPage(page);
    await app.loginAs("9999");
    await expect(stats(page).getByRole("heading", { name: "Statistics: every shop" })).toBeVisible();
    for (const label of ["Sales", "Takings", "Cash", "Card", "Paid", "Outstanding", "Items due today", "Items overdue", "Express open"]) {
      await expect(stats(page).locator(".stat-card", { hasText: label }).first()).toBeVisible();
    }
    await expect(stats(page).locator(".stat-card", { hasText: "Takings" }).locator("dd")).toHaveText(/^€[\d,]+\.\d\d$/);
    const chart = stats(page).getByRole("img", { name: /^Tickets by state \(open now\)\./ });
    await expect(chart).toBeVisible();
    await expect.poll(() => drawn(chart)).toBe(true);
    await expect(stats(page).getByRole("img", { name: /^Sales: paid and outstanding\./ })).toBeVisible();
    await expect(stats(page).getByRole("img", { name: /^Top garments this month\./ })).toBeVisible();
    await expect(stats(page).getByRole("img", { name: /^Shops: sales today\./ })).toBeVisible();
    await stats(page).getByRole("button", { name: "This month" }).click();
    await expect(stats(page).getByRole("img", { name: /^Shops: sales this month\./ })).toBeVisible();
    await expect(stats(page).getByText(/^01\/\d\d\/\d{4} – \d\d\/\d\d\/\d{4}$/)).toBeVisible();
    await shot(page, `home-stats-${size}`, { fullPage: true });
    expect(asked).toHaveLength(1);
  });
}

test("a shop admin's home shows its own statistics without the shop comparison", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("5555", "birkirkara", "shop-demo-2026");
  await expect(stats(page).getByRole("heading", { name: "Statistics", exact: true })).toBeVisible();
  await expect(stats(page).getByRole("img", { name: /^Tickets by state/ })).toBeVisible();
  await expect(stats(page).getByRole("img", { name: /^Shops:/ })).toHaveCount(0);
});

test("non-admins see no statistics and never ask the box for them", async ({ page }) => {
  const asked: string[] = [];
  page.on("request", (r) => r.url().includes("/statistics/home") && asked.push(r.url()));
  const app = new AppPage(page);
  for (const pin of ["2222", "3333", "4444"]) {
    await app.loginAs(pin);
    await expect(app.tiles().first()).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expect(stats(page)).toHaveCount(0);
    await page.getByRole("button", { name: /Logout/ }).click();
    await expect(app.pin).toBeVisible();
    await page.evaluate(() => localStorage.clear());
  }
  expect(asked).toEqual([]);
});
