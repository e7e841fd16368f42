import { expect as baseExpect, type Page, test } from "@playwright/test";
import { addDays, businessDay } from "../../appliance/domain/dates";
import { displayDate } from "../../appliance/domain/format";
import { AppPage } from "./pages/app";
import { apiLogin } from "./pages/people";
import { shot } from "./pages/shot";

/**
 * Issue 25, the shop floor: dates and times read the same on any tablet language, a list
 * whose request fails says so (never "none"), and the counter fits a 1280×800 tablet.
 */

// The machine the suite runs on may be shared and slow; each test logs in and opens several screens.
test.describe.configure({ timeout: 90_000 });
const expect = baseExpect.configure({ timeout: 15_000 });

/** Matches a request to exactly this API path (any query). */
const apiPath = (path: string) => (url: URL) => url.pathname === `/api/v1${path}`;

const CUSTOMERS = apiPath("/customers/");
const CATEGORIES = apiPath("/garmentCategories/");

const DDMMYYYY = /^\d{2}\/\d{2}\/\d{4}$/;
/** No native date or time field anywhere on the screen: they follow the tablet's language. */
const nativeDateFields = (page: Page) => page.locator('input[type="date"], input[type="time"], input[type="datetime-local"], input[type="month"]');
/** 12-hour clock words, or a US-ordered day (month first) written with slashes. */
const twelveHour = /\b\d{1,2}:\d{2}(:\d{2})?\s?(AM|PM|am|pm)\b/;

/** The Malta day (the box's zone), whatever the browser's zone. */
const today = businessDay(new Date());

async function demoCustomerId(page: Page, term: string): Promise<number> {
  const { token } = await apiLogin(page.request, 9999);
  const r = await page.request.get(`/api/v1/customers/?term=${encodeURIComponent(term)}&limit=1`, { headers: { authorization: `token ${token}` } });
  return ((await r.json()).data as { id: number }[])[0]!.id;
}

for (const [locale, timezoneId] of [
  ["en-US", "America/New_York"],
  ["de-DE", "Asia/Tokyo"],
] as const) {
  test.describe(`a tablet in ${locale} (${timezoneId})`, () => {
    test.use({ locale, timezoneId });

    test("reporting, state logs, customers and messaging write DD/MM/YYYY; typing and tapping both work", async ({ page }) => {
      const app = new AppPage(page);
      await app.loginAs("9999");
      // The browser really is in that language: its own formatter would write another order.
      expect(await page.evaluate(() => new Date(Date.UTC(2026, 11, 3, 12)).toLocaleDateString())).not.toBe("03/12/2026");

      for (const path of ["/reporting", "/state-logs", "/customers/0", "/messaging"]) {
        await page.goto(path);
        await expect(page.locator(".date-field").first()).toBeVisible();
        await expect(nativeDateFields(page)).toHaveCount(0);
      }

      await page.goto("/reporting");
      const from = page.getByRole("region", { name: "Dates" }).getByLabel("From", { exact: true });
      await expect(from).toHaveValue(displayDate(today));
      // Typed the shop's way (a short day and month are fine), shown back in full.
      await from.fill("3/12/2025");
      await from.press("Tab");
      await expect(from).toHaveValue("03/12/2025");
      // A US-ordered day that is no date is refused, not read as month first.
      await from.fill("12/31/2025");
      await from.press("Tab");
      await expect(page.getByRole("alert").filter({ hasText: "Write the date as DD/MM/YYYY" })).toBeVisible();
      // Tapped on the calendar: the 5th of the month shown.
      await from.fill("03/12/2025");
      await from.press("Tab");
      await page.getByRole("region", { name: "Dates" }).getByRole("button", { name: "Open the calendar" }).first().click();
      await page.getByRole("dialog", { name: "Choose a date" }).getByRole("button", { name: "05/12/2025" }).click();
      await expect(from).toHaveValue("05/12/2025");
    });

    test("the state logs' filter dates are the shop's days, written DD/MM/YYYY, and no 12-hour time shows", async ({ page }) => {
      await new AppPage(page).loginAs("9999");
      // The shop's day a week back.
      await page.goto("/state-logs");
      await expect(page.getByLabel("Date From", { exact: true })).toHaveValue(displayDate(addDays(today, -7)));
      await expect(page.getByLabel("Date To", { exact: true })).toHaveValue(displayDate(today));
      for (const v of await page.locator(".date-field input").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))) expect(v).toMatch(DDMMYYYY);
      await expect(page.locator("body")).not.toContainText(twelveHour);
    });

    test("the counter's dates and the offline banner's time are the shop's: DD/MM/YYYY and 24-hour", async ({ page }) => {
      const app = new AppPage(page);
      await app.loginAs("9999");
      const id = await demoCustomerId(page, "Xuereb");
      await page.goto(`/customers/${id}/new-ticket/0`);
      const panel = page.getByRole("region", { name: "Pickup and delivery" });
      await expect(panel.getByLabel("Pickup date", { exact: true })).toHaveValue(DDMMYYYY);
      await expect(panel.getByLabel("Delivery date", { exact: true })).toHaveValue(DDMMYYYY);
      await expect(nativeDateFields(page)).toHaveCount(0);

      // The box stops answering: the banner says when it last answered, in 24-hour time.
      await page.route("**/api/v1/**", (r) => r.abort());
      await page.goto("/tickets");
      const banner = page.getByTestId("offline-banner");
      await expect(banner).toContainText(/Last contact \d{2}:\d{2}:\d{2}\./);
      await expect(banner).not.toContainText(twelveHour);
    });
  });
}

test.describe("a failed request never looks like an empty result", () => {
  test("the customer search keeps its rows and says Could not load, then Retry finds them", async ({ page }) => {
    const app = new AppPage(page);
    await app.openAs("/customers", "9999");
    const search = page.getByLabel("Search customers", { exact: true });
    await search.fill("Buttig");
    const rows = page.locator(".people-list .list li");
    await expect(rows.first()).toContainText("Claire Buttigieg");

    await page.route(CUSTOMERS, (r) => r.fulfill({ status: 500, json: { success: false, message: "Database is busy" } }));
    await search.fill("Buttigieg");
    const failed = page.getByTestId("load-failed");
    await expect(failed).toContainText("Could not load customers.");
    await expect(failed).toContainText("Database is busy");
    await expect(page.getByText("No customer matches")).toHaveCount(0);
    await expect(page.getByText(/^0 found/)).toHaveCount(0);
    await expect(page.getByText("Search failed")).toBeVisible();
    // What was shown before stays.
    await expect(rows.first()).toContainText("Claire Buttigieg");

    await page.unroute(CUSTOMERS);
    await failed.getByRole("button", { name: "Retry" }).click();
    await expect(failed).toHaveCount(0);
    await expect(page.getByText(/^\d+\+? found/)).toBeVisible();
    await expect(rows.first()).toContainText("Claire Buttigieg");
  });

  // Each list screen: its request fails (500 or the connection drops), it says so without its
  // "none" text, and Retry brings the list once the box answers.
  const LISTS: { path: string; api: (url: URL) => boolean; what: string; none: string | RegExp; shown: (page: Page) => ReturnType<Page["locator"]> }[] = [
    { path: "/agents", api: apiPath("/agents/"), what: "agents", none: /No agent matches|0 agents/, shown: (p) => p.locator(".list li") },
    { path: "/employees", api: apiPath("/employees/"), what: "employees", none: /No employee matches|0 employees/, shown: (p) => p.locator(".list li") },
    { path: "/actions", api: apiPath("/actions/"), what: "actions", none: "No action matches", shown: (p) => p.locator(".list li") },
    { path: "/garments", api: apiPath("/garmentCategories/"), what: "garments", none: "No garments match", shown: (p) => p.getByTestId("category") },
    { path: "/modifiers", api: apiPath("/modifiers/"), what: "modifiers", none: "No modifiers", shown: (p) => p.locator(".accordion .badge").first() },
    { path: "/tickets", api: apiPath("/tickets/"), what: "tickets", none: "No tickets", shown: (p) => p.getByRole("list", { name: "Tickets" }).locator("li") },
    {
      path: "/express",
      api: apiPath("/ticketSubCategory/express/"),
      what: "express items",
      none: "No express items waiting.",
      shown: (p) => p.getByRole("list", { name: "Express items" }),
    },
    {
      path: "/scheduling",
      api: (url: URL) => url.pathname.startsWith("/api/v1/statistics/schedule/"),
      what: "the week",
      none: "Nothing booked",
      shown: (p) => p.getByTestId("sched-day"),
    },
    {
      path: "/state-logs",
      api: apiPath("/ticketLogStates/logStateJourney/query"),
      what: "the state logs",
      none: "No logs",
      shown: (p) => p.getByTestId("grand-total"),
    },
  ];
  // One signed-in page walks them all (issue 33: nine tests each signed in again), a step each.
  test("every list screen: could not load, with Retry", async ({ page }) => {
    const app = new AppPage(page);
    await app.loginAs("9999");
    for (const [i, l] of LISTS.entries()) {
      await test.step(l.path, async () => {
        await page.route(l.api, (r) => (i % 2 ? r.abort() : r.fulfill({ status: 500, json: { success: false, message: "Something broke" } })));
        await page.goto(l.path);
        const failed = page.getByTestId("load-failed");
        await expect(failed).toContainText(`Could not load ${l.what}.`);
        await expect(page.getByText(l.none)).toHaveCount(0);
        await page.unroute(l.api);
        await failed.getByRole("button", { name: "Retry" }).click();
        await expect(failed).toHaveCount(0);
        await expect(l.shown(page).first()).toBeVisible();
      });
    }
  });

  test("the counter's garments and the messaging picker say Could not load, with Retry", async ({ page }) => {
    const app = new AppPage(page);
    await app.loginAs("9999");
    const id = await demoCustomerId(page, "Xuereb");
    await page.route(CATEGORIES, (r) => r.fulfill({ status: 500, json: { success: false, message: "Catalogue unavailable" } }));
    await page.goto(`/customers/${id}/new-ticket/0`);
    const failed = page.getByTestId("load-failed");
    await expect(failed).toContainText("Could not load the garments.");
    await page.unroute(CATEGORIES);
    await failed.getByRole("button", { name: "Retry" }).click();
    await expect(failed).toHaveCount(0);
    await expect(page.getByRole("tab", { name: "Dry Cleaning" })).toBeVisible();

    await page.goto("/messaging");
    let asked = 0;
    await page.route(CUSTOMERS, (r) => {
      asked++;
      return r.abort();
    });
    const search = page.getByLabel("Search customers", { exact: true });
    await search.fill("Xuereb");
    await search.press("Enter");
    await expect(failed).toContainText("Could not load customers.");
    // Enter searched at once and cancelled the pause-in-typing search: a late second search
    // would clear the failure behind the user's back (it once made this Retry vanish). (On a
    // slow machine the pause may pass before Enter: then both ran before the failure showed.)
    const before = asked;
    await page.waitForTimeout(450);
    expect(asked).toBe(before);
    await expect(page.getByText("No customer matches.")).toHaveCount(0);
    await page.unroute(CUSTOMERS);
    await failed.getByRole("button", { name: "Retry" }).click();
    await expect(failed).toHaveCount(0);
    await expect(page.getByTestId("picker-count")).toContainText("found");
  });
});

test("the counter on a 1280×800 tablet: the garment picker is above the fold, not under the actions bar", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = new AppPage(page);
  await app.loginAs("9999");
  const id = await demoCustomerId(page, "Buttigieg");
  await page.goto(`/customers/${id}/new-ticket/0`);
  const tab = page.getByRole("tab", { name: "Dry Cleaning" });
  await expect(tab).toBeVisible();
  const garment = page.locator(".garment-grid button, .garments button").first();
  await expect(garment).toBeVisible();
  const picker = (await garment.boundingBox())!;
  // The first row of garments fits on the screen, above the sticky bar if it sits over the page.
  const bar = await page.getByRole("region", { name: "Actions" }).boundingBox();
  const limit = bar && bar.y < 800 ? Math.min(800, bar.y) : 800;
  expect(picker.y + picker.height).toBeLessThanOrEqual(limit);
  // Both legs off: one line each, no strips.
  await expect(page.getByRole("region", { name: "Pickup and delivery" }).getByRole("group")).toHaveCount(0);
});

test("on a phone, sub-modifiers show under their parent, indented, not among the roots", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const app = new AppPage(page);
  await app.loginAs("9999");
  const id = await demoCustomerId(page, "Buttigieg");
  await page.goto(`/customers/${id}/new-ticket/0`);
  await page.getByRole("tab", { name: "Dry Cleaning" }).click();
  await page.getByRole("button", { name: "Dress", exact: true }).click();
  const stains = page.getByRole("region", { name: "Selected item" }).getByLabel("STAIN", { exact: true });
  const wine = stains.getByRole("button", { name: "Wine", exact: true });
  const kinds = stains.getByRole("group", { name: "Wine: kinds" });
  await expect(kinds.getByRole("button")).toHaveText(["Red Wine", "White Wine"]);
  // The roots without kinds are not in any family; the kinds sit below their parent and further in.
  await expect(stains.getByRole("group").getByRole("button", { name: "Coffee" })).toHaveCount(0);
  const parent = (await wine.boundingBox())!;
  const red = (await kinds.getByRole("button", { name: "Red Wine" }).boundingBox())!;
  expect(red.y).toBeGreaterThanOrEqual(parent.y + parent.height);
  expect(red.x).toBeGreaterThan(parent.x);
  // A kind is still picked like any modifier.
  await kinds.getByRole("button", { name: "Red Wine" }).click();
  await expect(kinds.getByRole("button", { name: "Red Wine" })).toHaveAttribute("aria-pressed", "true");
  await shot(page, "counter-submodifiers-phone", { fullPage: true });
});

test("modifiers and garments are reordered on screen, and the order stays", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  const stamp = Date.now().toString(36).slice(-5);
  const { token } = await apiLogin(page.request, 9999);
  const call = async <T>(method: string, path: string, data: unknown): Promise<T> =>
    (await (await page.request.fetch(`/api/v1${path}`, { method, data, headers: { authorization: `token ${token}` } })).json()).data as T;
  const cat = await call<{ id: number }>("POST", "/garmentCategories/", { type: "Dry Clean", name: `Reorder ${stamp}` });
  for (const name of ["Coat", "Cape"]) await call("POST", "/garmentSubCategories/", { garment_category_id: cat.id, name: `${name} ${stamp}` });
  const root = await call<{ id: number }>("POST", "/modifiers/", { type: "STAIN", name: `Paint ${stamp}` });
  for (const name of ["Oil paint", "Chalk"]) await call("POST", "/modifiers/", { type: "STAIN", name: `${name} ${stamp}`, parent_id: root.id });

  // A sub-modifier moves up among its siblings; Done saves; a reload shows the new order.
  await page.goto("/modifiers");
  await page.getByRole("button", { name: /STAIN/ }).click();
  await page.getByRole("button", { name: "Reorder", exact: true }).click();
  const subs = page.getByRole("list", { name: `Paint ${stamp}: sub-modifiers` });
  await expect(subs.getByRole("listitem")).toHaveText([`Oil paint ${stamp}↑↓`, `Chalk ${stamp}↑↓`]);
  await page.getByRole("button", { name: `Move Chalk ${stamp} up` }).click();
  await expect(subs.getByRole("listitem")).toHaveText([`Chalk ${stamp}↑↓`, `Oil paint ${stamp}↑↓`]);
  // The root moves up one among the STAIN roots.
  const roots = page.getByRole("list", { name: "STAIN modifiers" }).getByTestId("modifier");
  const before = await roots.locator("strong").allTextContents();
  await page.getByRole("button", { name: `Move Paint ${stamp} up` }).click();
  await page.getByRole("button", { name: "Done reordering" }).click();
  await expect(page.locator(".toast", { hasText: "Information Saved" }).last()).toBeVisible();
  await page.reload();
  await page.getByRole("button", { name: /STAIN/ }).click();
  // The list after the reload, once it is there: read at once, it could still be empty (a
  // second lane beside this one made that a failure, issue 33).
  await expect(roots.filter({ hasText: `Paint ${stamp}` })).toBeVisible();
  const after = await roots.locator("strong").allTextContents();
  const at = before.findIndex((t) => t.includes(`Paint ${stamp}`));
  expect(after.findIndex((t) => t.includes(`Paint ${stamp}`))).toBe(at - 1);
  const row = roots.filter({ hasText: `Paint ${stamp}` });
  await expect(row.locator(".chips .chip")).toHaveText([new RegExp(`^Chalk ${stamp}`), new RegExp(`^Oil paint ${stamp}`)]);

  // A garment moves up within its category.
  await page.goto("/garments");
  await page.getByRole("button", { name: "Reorder", exact: true }).click();
  const garments = page.getByRole("list", { name: `Reorder ${stamp}: garments` });
  await expect(garments.getByRole("listitem")).toHaveText([`Coat ${stamp}↑↓`, `Cape ${stamp}↑↓`]);
  await page.getByRole("button", { name: `Move Cape ${stamp} up` }).click();
  await page.getByRole("button", { name: "Done reordering" }).click();
  await expect(page.locator(".toast", { hasText: "Information Saved" }).last()).toBeVisible();
  await page.reload();
  await expect(
    page
      .getByTestId("category")
      .filter({ hasText: `Reorder ${stamp}` })
      .locator(".chips .chip"),
  ).toHaveText([`Cape ${stamp}`, `Coat ${stamp}`]);
});

test("an admin sets the shop's time zone on The box; a shop's admin sees it read-only", async ({ page }) => {
  const app = new AppPage(page);
  await app.openAs("/box", "9999");
  const zone = page.getByLabel("Shop's time zone");
  await expect(zone).toHaveValue("Europe/Malta");
  // Rome keeps Malta's hours, so a test running beside this one counts the same days.
  await zone.selectOption("Europe/Rome");
  await page.getByRole("button", { name: "Save time zone" }).click();
  await expect(page.locator(".toast", { hasText: "Time zone saved" })).toBeVisible();
  try {
    expect((await (await page.request.get("/api/v1/health")).json()).data.time_zone).toBe("Europe/Rome");
    await page.reload();
    await expect(zone).toHaveValue("Europe/Rome");
  } finally {
    await zone.selectOption("Europe/Malta");
    await page.getByRole("button", { name: "Save time zone" }).click();
    await expect(page.locator(".toast", { hasText: "Time zone saved" })).toBeVisible();
  }
  expect((await (await page.request.get("/api/v1/health")).json()).data.time_zone).toBe("Europe/Malta");
  // A shop's admin: the box's zone shows, and cannot be changed.
  await page.evaluate(() => localStorage.clear());
  await app.openAs("/box", "5555", "birkirkara", "shop-demo-2026");
  await expect(zone).toHaveValue("Europe/Malta");
  await expect(zone).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save time zone" })).toHaveCount(0);
});
