/**
 * Where the two test boxes of playwright.config.ts listen (E2E_PORT moves both, so two
 * runs can share a machine).
 */
const base = Number(process.env.E2E_PORT) || 8099;
export const MAIN_PORT = base;
export const EMPTY_PORT = base - 1;
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
