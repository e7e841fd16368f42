/**
 * Where the test boxes listen. A run's ports are the block E2E_PORT .. E2E_PORT + E2E_SPAN - 1,
 * so two runs on one machine never share one: npm test claims a free block
 * (scripts/e2e/ports.ts) when E2E_PORT is not set. The block: +0 the demo box, +1 the SMS
 * phone stand-in, +2 the empty box (playwright.config.ts); the specs' own boxes: +4 offline,
 * +5 and +6 reference, +7 https and import, +8 https's HTTPS, +9 chain's HQ, +10 hotel (under libfaketime) and bookpage (+3 its public face), +11 release and public, +12 public's public face, +13..+15 booking (HQ, its public face, the shop), +16 the second demo box (the "beside" lane
 * of playwright.config.ts, issue 33).
 */
const base = Number(process.env.E2E_PORT) || 8099;
export const E2E_SPAN = 17;
export const MAIN_PORT = base;
/**
 * A second demo box like the first, for the specs that run beside the others
 * (playwright.config.ts): they reach it through their baseURL only, never by this port.
 */
export const BESIDE_PORT = base + 16;
export const EMPTY_PORT = base + 2;
export const EMPTY_BOX = `http://localhost:${EMPTY_PORT}`;
/**
 * The stand-in of the shop's Android SMS gateway phone that the config starts beside the demo
 * box (whose environment presets it as IRONBOX_SMS_GATEWAY_URL); messaging.e2e.ts reads what it
 * received and tells it to refuse a number.
 */
export const GATEWAY_PORT = base + 1;
export const GATEWAY_STAND_IN = `http://127.0.0.1:${GATEWAY_PORT}`;
export const GATEWAY_AUTH = { user: "ironbox", pass: "e2e-gateway-pass" };
/** The key the stand-in phone signs its incoming-message webhook with (IRONBOX_SMS_WEBHOOK_SECRET of the demo box). */
export const SMS_WEBHOOK_SECRET = "e2e-webhook-secret";

/** How Debian's Chromium runs in these tests (STACK-NOTES): headless, no sandbox, nothing phoning home. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
