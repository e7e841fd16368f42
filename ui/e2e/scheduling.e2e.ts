import { expect, type APIRequestContext, type Page, test } from "@playwright/test";
import { addDays } from "../../appliance/domain/dates";
import { apiDate, displayDate } from "../../appliance/domain/format";
import { dayOfWeek, weekOf } from "../../appliance/domain/schedule";
import { AppPage } from "./pages/app";
import { apiLogin } from "./pages/people";
import { shot } from "./pages/shot";

/** The scheduling screens of issue 12: capacity and workload settings, the scheduler, the driver's run. */

const SIZES = [
  ["tablet", { width: 1280, height: 800 }],
  ["phone", { width: 390, height: 844 }],
] as const;

/** Calls the API with an employee token, unwrapping the envelope. */
function client(request: APIRequestContext, token: string) {
  return async <T = any>(method: string, path: string, data?: unknown): Promise<T> => {
    const r = await request.fetch(`/api/v1${path}`, { method, data, headers: { authorization: `token ${token}` } });
    const json = await r.json();
    if (!json.success) throw new Error(`${method} ${path}: ${r.status()} ${json.message}`);
    return json.data as T;
  };
}
const hqApi = async (request: APIRequestContext) => client(request, (await apiLogin(request, 9999)).token);

const toast = (page: Page, text: string) => expect(page.locator(".toast", { hasText: text }).last()).toBeVisible();
const setting = (page: Page, n: number) => page.getByRole("rowgroup", { name: `Setting ${n}`, exact: true });
/** A date field of the product's own: typed DD/MM/YYYY and left. */
const typeDate = async (field: ReturnType<Page["getByLabel"]>, text: string) => {
  await field.fill(text);
  await field.press("Tab");
};

for (const [name, size] of SIZES) {
  // Each viewport works on its own month and week, so the two runs never meet on one box.
  const month = name === "tablet" ? "MARCH" : "APRIL";
  const monthTitle = name === "tablet" ? "March" : "April";

  test.describe(name, () => {
    test.beforeEach(async ({ page }) => page.setViewportSize(size));

    test("an HQ admin sets PEAK and OFFSEASON capacity and a workload setting; they stay after a reload", async ({ page, request }) => {
      test.setTimeout(90_000);
      const app = new AppPage(page);
      const api = await hqApi(request);
      await api("POST", "/pickupDeliveries/", []);
      await app.loginAs("9999");

      // Capacity (issue 25: one table of seasons × weekdays): a summer PEAK for two localities,
      // Monday and Wednesday; an all-year OFFSEASON Tuesday. From and To are DD/MM dates.
      await page.goto("/configPickupDeliveries");
      await expect(page.getByText("No settings yet")).toBeVisible();
      const year = apiDate(new Date()).slice(0, 4);
      await page.getByRole("button", { name: "+ PEAK setting" }).click();
      const peak = setting(page, 1);
      await peak.getByLabel("Monday").fill("12");
      await peak.getByLabel("Wednesday").fill("8");
      await typeDate(peak.getByLabel("From"), `1/6/${year}`);
      await expect(peak.getByLabel("From")).toHaveValue(`01/06/${year}`);
      await typeDate(peak.getByLabel("To"), `30/09/${year}`);
      await peak.getByRole("group", { name: "Localities" }).getByRole("button", { name: "Birkirkara", exact: true }).click();
      await peak.getByRole("group", { name: "Localities" }).getByRole("button", { name: "Mosta", exact: true }).click();
      await expect(peak.getByText("Every year 01/06 – 30/09 · Birkirkara, Mosta")).toBeVisible();
      await page.getByRole("button", { name: "+ OFFSEASON setting" }).click();
      const off = setting(page, 2);
      await off.getByLabel("Tuesday").fill("-3");
      await expect(off.getByLabel("Tuesday")).toHaveValue("0");
      await off.getByLabel("Tuesday").fill("6");
      await off.getByRole("group", { name: "Localities" }).getByRole("button", { name: "Mosta", exact: true }).click();
      await expect(off.getByText("All year · Mosta")).toBeVisible();
      // The season's name is not cut in its cell.
      expect(await off.getByLabel("Season").evaluate((el: HTMLSelectElement) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await page.getByRole("button", { name: "Save settings" }).click();
      await toast(page, "Settings saved.");
      // Saved as the API's one setting per weekday, month-day dates.
      const saved = await api<{ season: string; from: string | null; to: string | null; day_of_week: number; quantity: number }[]>("GET", "/pickupDeliveries/");
      expect(saved.map((x) => [x.season, x.from, x.to, x.day_of_week, x.quantity]).sort()).toEqual(
        [
          ["OFFSEASON", null, null, 2, 6],
          ["PEAK", "06-01", "09-30", 1, 12],
          ["PEAK", "06-01", "09-30", 3, 8],
        ].sort(),
      );

      await page.reload();
      await expect(page.getByTestId("pd-setting")).toHaveCount(2);
      await expect(page.locator(".pd-table")).toHaveCount(1);
      await expect(setting(page, 1).getByLabel("Season")).toHaveValue("PEAK");
      await expect(setting(page, 1).getByLabel("Monday")).toHaveValue("12");
      await expect(setting(page, 1).getByLabel("Wednesday")).toHaveValue("8");
      await expect(setting(page, 1).getByLabel("Tuesday")).toHaveValue("");
      await expect(setting(page, 1).getByLabel("From")).toHaveValue(`01/06/${year}`);
      await expect(setting(page, 1).getByLabel("To")).toHaveValue(`30/09/${year}`);
      await expect(setting(page, 1).getByText("Birkirkara, Mosta")).toBeVisible();
      await expect(setting(page, 2).getByLabel("Season")).toHaveValue("OFFSEASON");
      await expect(setting(page, 2).getByLabel("Tuesday")).toHaveValue("6");
      await expect(setting(page, 2).getByLabel("From")).toHaveValue("");
      await setting(page, 2)
        .getByRole("button", { name: /^Localities/ })
        .click();
      await expect(setting(page, 2).getByRole("button", { name: "Mosta", exact: true })).toHaveAttribute("aria-pressed", "true");
      await expect(setting(page, 2).getByRole("button", { name: "Birkirkara", exact: true })).toHaveAttribute("aria-pressed", "false");
      await shot(page, `pickup-deliveries-${name}`, { fullPage: true });

      // Workload: the month's grid, edited in place.
      for (const c of await api<{ id: number; month: string }[]>("GET", "/configurations/"))
        if (c.month === month) await api("DELETE", `/configurations/${c.id}`);
      await page.goto("/configWorkLoad");
      await page.getByLabel("Month").selectOption(month);
      await page.getByLabel("Pressing Monday", { exact: true }).fill("40");
      await page.getByLabel("Pressing Saturday", { exact: true }).fill("15");
      await page.getByLabel("Laundry Sunday", { exact: true }).fill("-2");
      await expect(page.getByLabel("Laundry Sunday", { exact: true })).toHaveValue("0");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await toast(page, "Configuration saved.");
      await page.reload();
      await page.getByLabel("Month").selectOption(month);
      await expect(page.getByLabel("Pressing Monday", { exact: true })).toHaveValue("40");
      await expect(page.getByLabel("Pressing Saturday", { exact: true })).toHaveValue("15");

      // The list by month on /configuration, then one setting: a negative amount becomes 0.
      await page.goto("/configuration");
      const list = page.getByRole("table", { name: `Workload ${monthTitle}` });
      await list.getByRole("link", { name: "Pressing", exact: true }).click();
      await expect(page).toHaveURL(/\/configuration\/\d+$/);
      await expect(page.getByLabel("Monday")).toHaveValue("40");
      await page.getByLabel("Sunday").fill("-5");
      await expect(page.getByLabel("Sunday")).toHaveValue("0");
      await page.getByLabel("Wednesday").fill("25");
      await page.getByRole("button", { name: "Save" }).click();
      await toast(page, "Configuration Updated!");
      await page.reload();
      await expect(page.getByLabel("Wednesday")).toHaveValue("25");
      await expect(page.getByLabel("Month")).toHaveValue(month);

      // A new one is created, shown in the list, and removed.
      await page.goto("/configuration/0");
      await page.getByLabel("Month").selectOption(month);
      await page.getByLabel("Action").selectOption({ label: "Carpets" });
      await page.getByLabel("Friday").fill("3");
      await page.getByRole("button", { name: "Save" }).click();
      await toast(page, "Configuration Created!");
      await expect(page).toHaveURL(/\/configuration\/[1-9]\d*$/);
      await page.goto("/configuration");
      await expect(list.getByRole("link", { name: "Carpets" })).toBeVisible();
      await list.getByRole("link", { name: "Carpets" }).click();
      await page.getByRole("button", { name: "Delete" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
      await toast(page, "Configuration Removed");
      await expect(page).toHaveURL(/\/configuration$/);
      await expect(list.getByRole("link", { name: "Carpets" })).toHaveCount(0);
    });

    test("a shop's admin sees capacity and workload settings read-only", async ({ page, request }) => {
      const api = await hqApi(request);
      const localities = await api<{ id: number; name: string }[]>("GET", "/localities/");
      const mosta = localities.find((l) => l.name === "Mosta")!.id;
      await api("POST", "/pickupDeliveries/", [{ season: "PEAK", from: "07-01", to: "08-31", day_of_week: 5, quantity: 9, localities: [mosta] }]);
      const actions = await api<{ id: number; name: string }[]>("GET", "/actions/");
      const laundry = actions.find((a) => a.name === "Laundry")!.id;
      const existing = (await api<{ id: number; month: string; action_id: number }[]>("GET", "/configurations/")).find(
        (c) => c.month === month && c.action_id === laundry,
      );
      if (existing) await api("PUT", `/configurations/${existing.id}`, { amounts: [1, 2, 3, 4, 5, 6, 7] });
      else await api("POST", "/configurations/", { month, action_id: laundry, amounts: [1, 2, 3, 4, 5, 6, 7] });

      await new AppPage(page).loginAs("5555", "birkirkara", "shop-demo-2026");
      await page.goto("/configPickupDeliveries");
      await expect(page.getByRole("note")).toContainText("only head-quarters staff change it");
      await expect(setting(page, 1).getByLabel("Friday")).toHaveValue("9");
      await expect(setting(page, 1).getByLabel("Friday")).toBeDisabled();
      await expect(setting(page, 1).getByText("Every year 01/07 – 31/08 · Mosta")).toBeVisible();
      await expect(setting(page, 1).getByLabel("From")).toBeDisabled();
      await expect(page.getByRole("button", { name: "Save settings" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "+ PEAK setting" })).toHaveCount(0);

      await page.goto("/configWorkLoad");
      await page.getByLabel("Month").selectOption(month);
      await expect(page.getByLabel("Laundry Friday", { exact: true })).toHaveValue("6");
      await expect(page.getByLabel("Laundry Friday", { exact: true })).toBeDisabled();
      await expect(page.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);

      await page.goto("/configuration");
      await expect(page.getByRole("link", { name: "Add workload setting" })).toHaveCount(0);
      await page
        .getByRole("table", { name: `Workload ${monthTitle}` })
        .getByRole("link", { name: "Laundry" })
        .click();
      await expect(page.getByLabel("Tuesday")).toHaveValue("3");
      await expect(page.getByLabel("Tuesday")).toBeDisabled();
      await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
    });

    test("the scheduler colours a day by its load, lists its tickets, sets a state, and the driver's run lists the stops", async ({ page, request }) => {
      test.setTimeout(90_000);
      const api = await hqApi(request);
      // A Wednesday (orange: 3 of 4) and the Thursday after it (red, over-booked: 5 of 4), weeks
      // ahead where nothing else is booked; the phone's run a week after the tablet's.
      const base = addDays(apiDate(new Date()), name === "tablet" ? 63 : 70);
      const wed = addDays(base, (3 - dayOfWeek(base) + 7) % 7);
      const thu = addDays(wed, 1);
      const localities = await api<{ id: number; name: string }[]>("GET", "/localities/");
      const bkr = localities.find((l) => l.name === "Birkirkara")!.id;
      const streets = await api<{ id: number; name: string }[]>("GET", `/streets/locality/${bkr}`);
      await api("POST", "/pickupDeliveries/", [
        { season: "OFFSEASON", day_of_week: 3, quantity: 4, localities: [bkr] },
        { season: "OFFSEASON", day_of_week: 4, quantity: 4, localities: String(bkr) },
      ]);
      const shirt = (await api<{ id: number; name: string }[]>("GET", "/garmentSubCategories/")).find((g) => g.name === "Shirt")!.id;
      const book = async (i: number, day: string, kind: "pickup" | "delivery") => {
        const address = await api<{ id: number }>("POST", "/address/", {
          number: String(10 + i),
          name: "",
          locality_id: bkr,
          street_id: streets[i % streets.length]!.id,
        });
        const customer = await api<{ id: number }>("POST", "/customers/", {
          full_name: `Sched ${name} ${day} ${i}`,
          mobile: `7990${String(i).padStart(4, "0")}`,
          address_id: address.id,
        });
        const ticket = await api<{ id: number }>(
          "POST",
          "/tickets/",
          kind === "pickup"
            ? { customer_id: customer.id, pickup_date: day, pickup_from_client: true, pickup_comment: `Ring ${i}` }
            : { customer_id: customer.id, delivery_date: day, delivery_to_client: true },
        );
        await api("POST", "/ticketSubCategory/", { ticket_id: ticket.id, garment_sub_category_id: shirt, description: `Shirt ${i}` });
        await api("PUT", `/tickets/${ticket.id}/confirm`);
        return ticket.id;
      };
      const wedTickets: number[] = [];
      for (let i = 0; i < 3; i++) wedTickets.push(await book(i, wed, "pickup"));
      for (let i = 3; i < 7; i++) await book(i, thu, "pickup");
      await book(7, thu, "delivery");

      const app = new AppPage(page);
      await app.openAs("/scheduling", "9999");
      await expect(page.getByTestId("week-title")).toContainText(`Week ${weekOf(apiDate(new Date())).week}`);
      // Step forward to the week of that Wednesday, with the buttons.
      const target = weekOf(wed);
      for (let i = 0; i < 20 && !(await page.getByTestId("week-title").textContent())!.startsWith(`Week ${target.week}, ${target.year}`); i++) {
        await page.getByRole("button", { name: "Next week" }).click();
      }
      await expect(page.getByTestId("week-title")).toContainText(`Week ${target.week}, ${target.year}`);
      const wedCard = page.getByRole("article", { name: `Wednesday ${displayDate(wed)}` });
      const thuCard = page.getByRole("article", { name: `Thursday ${displayDate(thu)}` });
      await expect(wedCard).toHaveAttribute("data-colour", "orange");
      await expect(wedCard.getByLabel("Booked: 3 of 4")).toBeVisible();
      await expect(wedCard).toContainText("3 pickups / 0 deliveries");
      await expect(thuCard).toHaveAttribute("data-colour", "red");
      await expect(thuCard.getByLabel("Booked: 5 of 4, over-booked")).toBeVisible();
      await expect(thuCard.getByText("over-booked")).toBeVisible();
      await expect(wedCard.getByText("over-booked")).toHaveCount(0);
      await expect(page.getByRole("article", { name: `Friday ${displayDate(addDays(wed, 2))}` })).toHaveAttribute("data-colour", "red");

      // The day view: every ticket of the day, then Pickups and Deliveries.
      await wedCard.getByRole("button", { name: /^Open Wednesday/ }).click();
      await expect(page.getByTestId("day-title")).toContainText(`Wednesday ${displayDate(wed)}`);
      await expect(page.getByTestId("sched-ticket")).toHaveCount(3);
      await expect(page.getByRole("region", { name: "Load" })).toContainText("Birkirkara");
      await page.getByRole("button", { name: "Pickups" }).click();
      await expect(page.getByTestId("sched-ticket")).toHaveCount(3);
      await expect(page.getByRole("article", { name: `Ticket ${wedTickets[0]}` })).toContainText("Ring 0");
      await page.getByRole("button", { name: "Deliveries" }).click();
      await expect(page.getByText("No deliveries this day.")).toBeVisible();

      // A state set from the scheduler asks first (it changes the ticket and all its items);
      // Cancel leaves it, OK sets it and the list reloads with it.
      await page.getByRole("button", { name: "Pickups" }).click();
      const before = await page.getByLabel(`State of ticket ${wedTickets[1]}`, { exact: true }).inputValue();
      await page.getByLabel(`State of ticket ${wedTickets[1]}`, { exact: true }).selectOption("PICKED UP");
      const ask = page.getByRole("alertdialog", { name: "Set the state" });
      await expect(ask).toContainText(`Set ticket #${wedTickets[1]}`);
      await expect(ask).toContainText("and all its items to PICKED UP?");
      await ask.getByRole("button", { name: "Cancel" }).click();
      await expect(page.getByLabel(`State of ticket ${wedTickets[1]}`, { exact: true })).toHaveValue(before);
      expect((await api<{ state: string }>("GET", `/tickets/${wedTickets[1]}`)).state).toBe(before);
      await page.getByLabel(`State of ticket ${wedTickets[1]}`, { exact: true }).selectOption("PICKED UP");
      await ask.getByRole("button", { name: "OK" }).click();
      await expect(page.getByLabel(`State of ticket ${wedTickets[1]}`, { exact: true })).toHaveValue("PICKED UP");
      expect((await api<{ state: string }>("GET", `/tickets/${wedTickets[1]}`)).state).toBe("PICKED UP");

      // The driver's run: Mark Farrugia drives Birkirkara.
      await page.getByRole("button", { name: "Driver" }).click();
      await page.getByLabel("Driver").selectOption({ label: "Mark Farrugia" });
      const stops = page.getByTestId("run-stop");
      await expect(stops).toHaveCount(3);
      await expect(stops.first()).toContainText(`Sched ${name} ${wed} 0`);
      await expect(stops.first()).toContainText("Birkirkara");
      await expect(stops.first()).toContainText("Ring 0");
      await expect(stops.first()).toContainText("Shirt 0");
      await expect(stops.first().getByRole("link", { name: "79900000" })).toHaveAttribute("href", "tel:79900000");
      await expect(stops.first()).toContainText(/Due €/);
      const pdf = page.waitForResponse((r) => r.url().includes("/schedule/run/pdf"));
      const popup = page.waitForEvent("popup");
      await page.getByRole("button", { name: "Run sheet (PDF)" }).click();
      expect((await pdf).headers()["content-type"]).toContain("application/pdf");
      await (await popup).close();

      // The Week button goes back to the week, asking for 20 tickets a day (spec §9).
      await page.getByRole("button", { name: "Week", exact: true }).click();
      await expect(page).toHaveURL(/limit=20/);
      await expect(wedCard).toHaveAttribute("data-colour", "orange");
    });
  });
}

test("a driver works through the day's run on a phone, with the customer's signature", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const api = await hqApi(request);
  const day = addDays(apiDate(new Date()), 91);
  const localities = await api<{ id: number; name: string }[]>("GET", "/localities/");
  const bkr = localities.find((l) => l.name === "Birkirkara")!.id;
  const street = (await api<{ id: number }[]>("GET", `/streets/locality/${bkr}`))[0]!.id;
  const address = await api<{ id: number }>("POST", "/address/", { number: "7", name: "", locality_id: bkr, street_id: street });
  const customer = await api<{ id: number }>("POST", "/customers/", { full_name: "Run Phone Customer", mobile: "79912345", address_id: address.id });
  const ticket = await api<{ id: number }>("POST", "/tickets/", { customer_id: customer.id, pickup_date: day, pickup_from_client: true });
  const shirt = (await api<{ id: number; name: string }[]>("GET", "/garmentSubCategories/")).find((g) => g.name === "Shirt")!.id;
  await api("POST", "/ticketSubCategory/", { ticket_id: ticket.id, garment_sub_category_id: shirt, description: "Shirt" });
  await api("PUT", `/tickets/${ticket.id}/confirm`);

  const app = new AppPage(page);
  await app.loginAs("4444"); // Mark Farrugia, an HQ driver
  const w = weekOf(day);
  await page.goto(`/scheduling?year=${w.year}&week=${w.week}&day=${day}&view=driver`);
  await expect(page.getByLabel("Driver")).toHaveCount(0);
  const stop = page.getByTestId("run-stop").filter({ hasText: "Run Phone Customer" });
  await expect(stop).toBeVisible();
  // The van on a phone (issue 25): the name is not cut, the number is a big call button.
  const title = stop.locator(".run-stop-title");
  expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const call = stop.getByRole("link", { name: "Call 79912345" });
  await expect(call).toHaveAttribute("href", "tel:79912345");
  expect((await call.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await stop.getByRole("button", { name: "Picked up" }).click();
  const dialog = page.getByRole("dialog", { name: `PICKED UP: ticket ${ticket.id}` });
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("The customer's signature is needed");
  // The pad is large (the phone's width) and says where to sign; Clear is on the pad, not beside Cancel.
  await expect(dialog.getByText("Sign here")).toBeVisible();
  const pad = dialog.getByLabel("Signature");
  const box = (await pad.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(360);
  const clear = (await dialog.getByRole("button", { name: "Clear" }).boundingBox())!;
  const cancel = (await dialog.getByRole("button", { name: "Cancel" }).boundingBox())!;
  expect(clear.y + clear.height).toBeLessThanOrEqual(box.y + box.height);
  expect(cancel.y).toBeGreaterThan(box.y + box.height);
  await page.mouse.move(box.x + 20, box.y + 20);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, box.y + 60, { steps: 5 });
  await page.mouse.up();
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog).toHaveCount(0);
  // A done stop looks done: no "Picked up" button left, and no toast over the next stop.
  await expect(stop).toHaveAttribute("data-done", "true");
  await expect(stop.getByRole("status")).toContainText("Collected · PICKED UP");
  await expect(stop.getByRole("button", { name: "Picked up" })).toHaveCount(0);
  await expect(page.locator(".toast")).toHaveCount(0);
  await shot(page, "run-phone-done", { fullPage: true });
  const logs = await api<{ state: string; signature: string | null }[]>("GET", `/ticketLogStates/${ticket.id}`);
  expect(logs.some((l) => l.state === "PICKED UP" && !!l.signature)).toBeTruthy();
});
