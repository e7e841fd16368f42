import type { Page } from "@playwright/test";

/**
 * A picture of the screen for people to look at (test-results/screens/<name>.png), taken only
 * by `npm run screens` (E2E_SCREENS=1). A screenshot asserts nothing, and the 35 of them cost
 * the everyday `npm test` time on a busy 2-core box (issue 33).
 */
export async function shot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.E2E_SCREENS !== "1") return;
  await page.screenshot({ path: `test-results/screens/${name}.png`, ...opts });
}
