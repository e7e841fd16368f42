import { expect as baseExpect, type Page, test } from "@playwright/test";
import { addDays } from "../../appliance/domain/dates";
import { apiDate } from "../../appliance/domain/format";
import { weekOf } from "../../appliance/domain/schedule";
import { AppPage } from "./pages/app";
import { apiLogin } from "./pages/people";

/**
 * Issue 31, screens that must not lie: End of day, a ticket's payments, the pickup/delivery
 * settings and the import screen each say "Could not load" with a working Retry when their
 * request fails, and a screen that saves a whole list never offers to save one it failed to load.
 */

test.describe.configure({ timeout: 90_000 });
const expect = baseExpect.configure({ timeout: 15_000 });

/** Matches a request to exactly this API path (any query), or under it when `prefix`. */
const apiPath =
  (path: string, prefix = false) =>
  (url: URL) =>
    prefix ? url.pathname.startsWith(`/api/v1${path}`) : url.pathname === `/api/v1${path}`;
const fail = (i: number) => (r: import("@playwright/test").Route) =>
  i % 2 ? r.abort() : r.fulfill({ status: 500, json: { success: false, message: "Something broke" } });

async function apiGet<T>(page: Page, path: string): Promise<T> {
  const { token } = await apiLogin(page.request, 9999);
  return ((await (await page.request.get(`/api/v1${path}`, { headers: { authorization: `token ${token}` } })).json()) as { data: T }).data;
}

const SCREENS: { path: string; api: (url: URL) => boolean; what: string; stuck: string | RegExp; shown: (p: Page) => ReturnType<Page["locator"]> }[] = [
  { path: "/till", api: apiPath("/till/", true), what: "the drawer", stuck: "Loading the drawer…", shown: (p) => p.getByRole("region", { name: "Drawer" }) },
  { path: "/configImport", api: apiPath("/import/"), what: "the import", stuck: "Reading the import…", shown: (p) => p.locator(".stack").first() },
];
// One signed-in page for both screens (issue 33), a step each.
test("End of day and Import: could not load, with Retry (never stuck on loading)", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  for (const [i, s] of SCREENS.entries()) {
    await test.step(s.path, async () => {
      await page.route(s.api, fail(i));
      await page.goto(s.path);
      const failed = page.getByTestId("load-failed");
      await expect(failed).toContainText(`Could not load ${s.what}.`);
      await expect(page.getByText(s.stuck)).toHaveCount(0);
      await page.unroute(s.api);
      await failed.getByRole("button", { name: "Retry" }).click();
      await expect(failed).toHaveCount(0);
      await expect(s.shown(page)).toBeVisible();
    });
  }
});

test("pickup & delivery settings: a failed load is not 'No settings yet', and Save and Add are not offered until Retry loads it", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  const API = apiPath("/pickupDeliveries/");
  let saves = 0;
  await page.route(API, (r) => (r.request().method() === "GET" ? fail(0)(r) : (saves++, r.continue())));
  await page.goto("/configPickupDeliveries");
  const failed = page.getByTestId("load-failed");
  await expect(failed).toContainText("Could not load the pickup and delivery settings.");
  await expect(page.getByText(/No settings yet/)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save settings" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "+ PEAK setting" })).toBeDisabled();
  expect(saves).toBe(0);
  await page.unroute(API);
  await failed.getByRole("button", { name: "Retry" }).click();
  await expect(failed).toHaveCount(0);
  await expect(page.getByTestId("pd-setting").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Save settings" })).toBeEnabled();
});

test("a ticket's payments: a failed list says Could not load (it never just vanishes), and Retry shows the payments", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  const paid = (await apiGet<{ id: number; total_paid: number }[]>(page, "/tickets/?limit=100")).find((t) => t.total_paid > 0);
  expect(paid, "the demo data has a ticket with a payment").toBeTruthy();
  const API = apiPath("/payments/");
  await page.route(API, fail(1));
  await page.goto(`/tickets/${paid!.id}`);
  const failed = page.getByTestId("load-failed");
  await expect(failed).toContainText("Could not load the payments.");
  await expect(page.getByTestId("payments")).toHaveCount(0);
  await page.unroute(API);
  await failed.getByRole("button", { name: "Retry" }).click();
  await expect(failed).toHaveCount(0);
  await expect(page.getByTestId("payments")).toBeVisible();
});

test("the customer screen on a 390 px phone with a long Maltese address scrolls nowhere sideways", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const app = new AppPage(page);
  await app.loginAs("9999");
  const { token } = await apiLogin(page.request, 9999);
  const auth = { authorization: `token ${token}` };
  const locality = (await apiGet<{ id: number }[]>(page, "/localities/"))[0]!;
  const street = (await apiGet<{ id: number }[]>(page, `/streets/locality/${locality.id}`))[0]!;
  const r = await page.request.post("/api/v1/customers/", {
    headers: auth,
    data: {
      full_name: "Marija Concetta Abela-Xuereb Grech Sant Fournier",
      address: {
        name: "Dar il-Madonna tal-Ħniena ta' San Ġużepp ta' Ħal Għargħur",
        number: "Flat 12, Blokk B",
        locality_id: locality.id,
        street_id: street.id,
      },
    },
  });
  expect(r.ok()).toBe(true);
  const id = ((await r.json()) as { data: { id: number } }).data.id;
  await page.goto(`/customers/${id}`);
  await expect(page.getByText("Marija Concetta").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  const wide = await page.evaluate(() => {
    const w = document.scrollingElement!.scrollWidth;
    const culprits = [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((e) => e.getBoundingClientRect().right > 391)
      .slice(0, 5)
      .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
    return { w, culprits };
  });
  expect(wide.w, wide.culprits.join("; ")).toBeLessThanOrEqual(390);
});

test("every configuration tile carries its own icon, like the home's, not letters", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  await page.goto("/configuration");
  const icons = page.getByRole("navigation", { name: "Configuration" }).locator(".tile-icon");
  await expect(icons.first()).toBeVisible();
  const n = await icons.count();
  expect(n).toBeGreaterThanOrEqual(12);
  for (const icon of await icons.all()) {
    await expect(icon.locator("svg")).toHaveCount(1);
    await expect(icon).toHaveText("");
  }
  const kinds = await icons.evaluateAll((els) => els.map((el) => el.querySelector("svg")!.getAttribute("class")));
  expect(new Set(kinds).size).toBe(n);
});

test('the driver\'s delivery with money due: "Delivered, cash taken" is the primary button; a ticket not ready is flagged', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { token } = await apiLogin(page.request, 9999);
  const api = async <T>(method: string, path: string, data?: unknown): Promise<T> => {
    const r = await page.request.fetch(`/api/v1${path}`, { method, data, headers: { authorization: `token ${token}` } });
    const json = (await r.json()) as { success: boolean; data: T; message?: string };
    expect(json.success, `${method} ${path}: ${json.message}`).toBe(true);
    return json.data;
  };
  // A day of its own, far ahead: any weekday, any month end.
  const day = addDays(apiDate(new Date()), 95);
  const bkr = (await api<{ id: number; name: string }[]>("GET", "/localities/")).find((l) => l.name === "Birkirkara")!.id;
  const street = (await api<{ id: number }[]>("GET", `/streets/locality/${bkr}`))[0]!.id;
  const address = await api<{ id: number }>("POST", "/address/", { number: "3", name: "", locality_id: bkr, street_id: street });
  const customer = await api<{ id: number }>("POST", "/customers/", { full_name: "Run Owing Customer", mobile: "79900031", address_id: address.id });
  const ticket = await api<{ id: number }>("POST", "/tickets/", { customer_id: customer.id, delivery_date: day, delivery_to_client: true });
  const shirt = (await api<{ id: number; name: string }[]>("GET", "/garmentSubCategories/")).find((g) => g.name === "Shirt")!.id;
  await api("POST", "/ticketSubCategory/", { ticket_id: ticket.id, garment_sub_category_id: shirt, description: "Shirt" });
  await api("PUT", `/tickets/${ticket.id}/confirm`);
  await api("PUT", "/tickets/changeState", { Ids: [ticket.id], State: "TECNOWASH" });

  const app = new AppPage(page);
  await app.loginAs("4444"); // Mark Farrugia, an HQ driver of Birkirkara
  const w = weekOf(day);
  await page.goto(`/scheduling?year=${w.year}&week=${w.week}&day=${day}&view=driver`);
  const stop = page.getByTestId("run-stop").filter({ hasText: "Run Owing Customer" });
  await expect(stop).toContainText(/Due €\d/);
  await expect(stop.getByTestId("run-primary")).toHaveText("Delivered, cash taken");
  await expect(stop.getByRole("button", { name: "Delivered, cash taken" })).toHaveClass(/btn-primary/);
  await expect(stop.getByRole("button", { name: "Delivered", exact: true })).not.toHaveClass(/btn-primary/);
  // Still at TECNOWASH on the day of its delivery: flagged.
  await expect(stop.getByTestId("run-not-ready")).toHaveText("Not ready: the ticket is TECNOWASH");

  // Ready for the van: no flag.
  await api("PUT", "/tickets/changeState", { Ids: [ticket.id], State: "AWAITING DELIVERY" });
  await page.reload();
  await expect(stop.getByTestId("run-primary")).toHaveText("Delivered, cash taken");
  await expect(stop.getByTestId("run-not-ready")).toHaveCount(0);
});
