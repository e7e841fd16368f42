import { expect, type Page } from "@playwright/test";

/** Page models of the messaging screens, the ticket view's and the customer's message lists. */
export class MessagingPage {
  constructor(readonly page: Page) {}

  toast(text: string | RegExp) {
    return this.page.locator(".toast", { hasText: text }).last();
  }
  get allCustomers() {
    return this.page.getByLabel("All Customers", { exact: true });
  }
  get search() {
    return this.page.getByLabel("Search customers", { exact: true });
  }
  get deliveryDate() {
    return this.page.getByLabel("Delivery date", { exact: true });
  }
  get message() {
    // By role: a label's text would include the text area's own once typed in.
    return this.page.getByRole("textbox", { name: "Message", exact: true });
  }
  get send() {
    return this.page.getByRole("button", { name: "Send", exact: true });
  }
  /** A customer in the picker's list (found by search or delivery date). */
  found(name: string) {
    return this.page
      .getByRole("group", { name: "Customers", exact: true })
      .getByRole("button", { name: new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) });
  }
  chosen() {
    return this.page.getByRole("group", { name: "Chosen customers" }).getByRole("button");
  }
  count(which: "queued" | "waiting" | "sent" | "failed" | "skipped") {
    return this.page.getByTestId("batch-progress").getByTestId(`count-${which}`);
  }
  /** Rows of a message list (the ticket view's, the customer's, a send's). */
  rows(list = "Messages") {
    return this.page.getByRole("region", { name: list, exact: true }).getByTestId("message-row");
  }

  async searchFor(term: string) {
    await this.search.fill(term);
    await this.search.press("Enter");
  }
  async choose(...names: string[]) {
    for (const n of names) {
      await this.found(n).click();
      await expect(this.found(n)).toHaveAttribute("aria-pressed", "true");
    }
  }
}
