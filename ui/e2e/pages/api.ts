import type { Page } from "@playwright/test";

/** The logged-in employee's token, as the UI keeps it. */
export const token = (page: Page) => page.evaluate(() => localStorage.getItem("ironbox.employeeToken"));

/** One API call as the logged-in employee (the specs' reads of what the screens did). */
export async function call(page: Page, method: "GET" | "POST", path: string, body?: unknown) {
  const res = await page.request.fetch(`/api/v1${path}`, {
    method,
    headers: { authorization: `token ${await token(page)}`, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { data: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let json: { data?: unknown; message?: string } = {};
  try {
    json = JSON.parse(text);
  } catch {
    // A file route (CSV, PDF): the text is the answer.
  }
  return { status: res.status(), json: json as { data: unknown; message?: string }, text };
}

/** Euros to cents, for comparing amounts to the cent. */
export const cents = (n: number) => Math.round(n * 100);
