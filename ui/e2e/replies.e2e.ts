import { createHmac } from "node:crypto";
import { expect, type APIRequestContext, test } from "@playwright/test";
import { addDays } from "../../appliance/domain/dates";
import { apiDate } from "../../appliance/domain/format";
import { weekOf } from "../../appliance/domain/schedule";
import { AppPage } from "./pages/app";
import { SMS_WEBHOOK_SECRET } from "./pages/env";
import { apiLogin } from "./pages/people";

/**
 * Replies that land (issue 35): a pickup tomorrow gets its reminder through the gateway
 * stand-in, the customer's SKIP arrives as the gateway's signed webhook, and the driver's run
 * no longer shows the stop. Tomorrow is whatever day follows today: nothing assumes a weekday.
 */

function client(request: APIRequestContext, token: string) {
  return async <T = any>(method: string, path: string, data?: unknown): Promise<T> => {
    const r = await request.fetch(`/api/v1${path}`, { method, data, headers: { authorization: `token ${token}` } });
    const json = await r.json();
    if (!json.success) throw new Error(`${method} ${path}: ${r.status()} ${json.message}`);
    return json.data as T;
  };
}

test("a customer replies SKIP through the gateway stand-in, which takes the stop off the driver's run", async ({ page, request }) => {
  const api = client(request, (await apiLogin(request, 9999)).token);
  // Reminders wait for the end of quiet hours; this box may be tested at any hour.
  const quiet = await api("GET", "/messaging/settings/quietHours");
  await api("PUT", "/messaging/settings/quietHours", { ...quiet, enabled: false });
  try {
    const day = addDays(apiDate(new Date()), 1);
    const mobile = `799${String(Date.now()).slice(-5)}`;
    const localities = await api<{ id: number; name: string }[]>("GET", "/localities/");
    const bkr = localities.find((l) => l.name === "Birkirkara")!.id;
    const street = (await api<{ id: number }[]>("GET", `/streets/locality/${bkr}`))[0]!.id;
    const address = await api<{ id: number }>("POST", "/address/", { number: "12", name: "", locality_id: bkr, street_id: street });
    const customer = await api<{ id: number }>("POST", "/customers/", { full_name: "Skip Reply Customer", mobile, address_id: address.id });
    const ticket = await api<{ id: number }>("POST", "/tickets/", { customer_id: customer.id, pickup_date: day, pickup_from_client: true });
    const shirt = (await api<{ id: number; name: string }[]>("GET", "/garmentSubCategories/")).find((g) => g.name === "Shirt")!.id;
    await api("POST", "/ticketSubCategory/", { ticket_id: ticket.id, garment_sub_category_id: shirt, description: "Shirt" });
    await api("PUT", `/tickets/${ticket.id}/confirm`);

    // The sender's poll sends the reminder through the stand-in phone.
    await expect
      .poll(
        async () =>
          (await api<{ text: string; status: string }[]>("GET", `/messages?ticket_id=${ticket.id}`)).find((m) =>
            m.text.endsWith("Reply YES to confirm or SKIP"),
          )?.status,
        {
          timeout: 20_000,
        },
      )
      .toBe("sent");

    const app = new AppPage(page);
    await app.loginAs("4444"); // Mark Farrugia drives Birkirkara
    const w = weekOf(day);
    await page.goto(`/scheduling?year=${w.year}&week=${w.week}&day=${day}&view=driver`);
    const stop = page.getByTestId("run-stop").filter({ hasText: "Skip Reply Customer" });
    await expect(stop).toBeVisible();

    // The phone forwards the customer's "Skip." to the box, signed as the app signs it.
    const body = JSON.stringify({
      deviceId: "e2e-phone",
      event: "sms:received",
      id: `e2e-${Date.now()}`,
      payload: { message: "Skip.", phoneNumber: `+356${mobile}`, receivedAt: new Date().toISOString(), messageId: "e2e", simNumber: 1 },
      webhookId: "e2e-hook",
    });
    const ts = String(Math.floor(Date.now() / 1000));
    const signature = createHmac("sha256", SMS_WEBHOOK_SECRET)
      .update(body + ts)
      .digest("hex");
    const unsigned = await request.post("/api/v1/messaging/inbound", { data: body, headers: { "content-type": "application/json", "x-timestamp": ts } });
    expect(unsigned.status()).toBe(401);
    const r = await request.post("/api/v1/messaging/inbound", {
      data: body,
      headers: { "content-type": "application/json", "x-timestamp": ts, "x-signature": signature },
    });
    expect((await r.json()).data).toMatchObject({ action: "skipped", duplicate: false });

    await page.reload();
    await expect(
      page
        .getByTestId("run-stop")
        .first()
        .or(page.getByText(/no stops/i)),
    ).toBeVisible();
    await expect(stop).toHaveCount(0);
    // The shop is told: the skip waits in its inbox, counted on the Messaging screen.
    await app.openAs("/messaging", "9999");
    await expect(page.getByTestId("inbox-count")).toHaveText(/^[1-9]\d*$/);
    await page.getByRole("link", { name: /^Inbox/ }).click();
    const entry = page.getByTestId("inbox-entry").filter({ hasText: "Skip Reply Customer" });
    await expect(entry).toContainText("Pickup skipped");
    await expect(entry).toContainText(`ticket ${ticket.id}`);
    await entry.getByRole("button", { name: "Handled" }).click();
    await expect(entry).toHaveCount(0);
  } finally {
    await api("PUT", "/messaging/settings/quietHours", quiet);
  }
});
