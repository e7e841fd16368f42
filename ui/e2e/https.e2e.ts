import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, expect, test } from "@playwright/test";
import { CHROMIUM_ARGS, MAIN_PORT } from "./pages/env";
import { OwnBox } from "./pages/ownBox";

/**
 * Issue 16: a browser that trusts the box's CA (an NSS database made by certutil, as a tablet
 * that installed it) opens the UI over HTTPS by the box's mDNS name with no certificate error,
 * in a secure context. The box is this spec's own; Chromium maps its .local name to 127.0.0.1.
 */
const HTTP = MAIN_PORT + 7;
const HTTPS = MAIN_PORT + 8;
const NAME = "ironbox-e2e.local";
const box = new OwnBox(HTTP, { IRONBOX_SITE_NAME: "e2e", IRONBOX_HTTPS_PORT: String(HTTPS) });
const home = mkdtempSync(join(tmpdir(), "ironbox-nss-"));
let browser: Browser;
let caDer: Buffer;

test.beforeAll(async () => {
  await box.start();
  // What a tablet downloads from the set-up page's QR code.
  const r = await fetch(`http://127.0.0.1:${HTTP}/ca.crt`);
  expect(r.headers.get("content-type")).toBe("application/x-x509-ca-cert");
  caDer = Buffer.from(await r.arrayBuffer());
  writeFileSync(join(home, "ca.crt"), caDer);
  const db = `sql:${join(home, ".pki/nssdb")}`;
  execFileSync("mkdir", ["-p", join(home, ".pki/nssdb")]);
  execFileSync("certutil", ["-d", db, "-N", "--empty-password"]);
  execFileSync("certutil", ["-d", db, "-A", "-t", "C,,", "-n", "ironbox", "-i", join(home, "ca.crt")]);
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    env: { ...process.env, HOME: home },
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${NAME} 127.0.0.1`],
  });
});
test.afterAll(async () => {
  await browser?.close();
  await box.remove();
  rmSync(home, { recursive: true, force: true });
});

/** A fresh context, as a tablet's browser: service workers allowed (the config blocks them for the other specs). */
const newPage = () => browser.newPage({ serviceWorkers: "allow" });

const features = () =>
  ({
    secure: window.isSecureContext,
    mediaDevices: !!navigator.mediaDevices?.getUserMedia,
    bluetooth: "bluetooth" in navigator,
    barcodeDetector: "BarcodeDetector" in window,
    serviceWorker: "serviceWorker" in navigator,
  }) as Record<string, boolean>;

test("over HTTPS by the box's name: no certificate error, a secure context, the secure-only features on", async () => {
  const page = await newPage();
  const response = await page.goto(`https://${NAME}:${HTTPS}/`);
  expect(response?.status()).toBe(200);
  expect(new URL(page.url()).protocol).toBe("https:");
  await expect(page.getByLabel("User name", { exact: true })).toBeVisible();
  const secure = await page.evaluate(features);
  expect(secure.secure).toBe(true);
  expect(secure.mediaDevices).toBe(true);
  expect(secure.serviceWorker).toBe(true);
  // The same page over plain HTTP by name (Chromium's answer without the box's CA): none of them.
  const plain = await newPage();
  await plain.goto(`http://${NAME}:${HTTP}/setup-tablet`);
  const insecure = await plain.evaluate(features);
  expect(insecure).toMatchObject({ secure: false, mediaDevices: false, serviceWorker: false, bluetooth: false });
  // Web Bluetooth and BarcodeDetector exist in Chromium only on some platforms: where they do, HTTPS has them.
  test.info().annotations.push({ type: "features over HTTPS", description: JSON.stringify(secure) });
  await page.close();
  await plain.close();
});

test("plain HTTP moves page loads to HTTPS on the same name; the set-up page stays on HTTP and shows the CA's QR code and fingerprint", async () => {
  const page = await newPage();
  await page.goto(`http://${NAME}:${HTTP}/customers`);
  expect(page.url()).toBe(`https://${NAME}:${HTTPS}/customers`);

  await page.goto(`http://${NAME}:${HTTP}/setup-tablet`);
  expect(page.url()).toBe(`http://${NAME}:${HTTP}/setup-tablet`);
  await expect(page.getByTestId("secure-context")).toContainText("not a secure connection");
  const fingerprint = createHash("sha256").update(caDer).digest("hex").toUpperCase().match(/../g)!.join(":");
  await expect(page.getByTestId("ca-fingerprint")).toHaveText(fingerprint);
  await expect(page.getByTestId("ca-qr")).toBeVisible();
  await expect(page.getByText("Settings › Security › Encryption & credentials › Install a certificate › CA certificate")).toBeVisible();
  // The QR code holds the CA's download address (decoded by zbarimg, an independent reader).
  const png = Buffer.from((await page.getByTestId("ca-qr").getAttribute("src"))!.split(",")[1]!, "base64");
  writeFileSync(join(home, "qr.png"), png);
  expect(
    execFileSync("zbarimg", ["--raw", "-q", join(home, "qr.png")], { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim(),
  ).toBe(`http://${NAME}:${HTTP}/ca.crt`);
  await page
    .getByRole("link", { name: `https://${NAME}:${HTTPS}/` })
    .first()
    .click();
  await expect(page).toHaveURL(`https://${NAME}:${HTTPS}/`);

  // Over HTTPS the same page says the tab is secure.
  await page.goto(`https://${NAME}:${HTTPS}/setup-tablet`);
  await expect(page.getByTestId("secure-context")).toContainText("This tab is a secure connection");

  // Opened on the box itself (localhost), the code must not send a tablet to "localhost".
  await page.goto(`http://127.0.0.1:${HTTP}/setup-tablet`);
  await expect(page.getByTestId("ca-qr")).toBeVisible();
  expect(await page.getByTestId("ca-qr").getAttribute("alt")).not.toMatch(/localhost|127\.0\.0\.1/);
  await page.close();
});

test("the installable app: manifest with 192 and 512 icons, and a service worker in control over HTTPS", async () => {
  const page = await newPage();
  await page.goto(`https://${NAME}:${HTTPS}/`);
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute("href");
  const manifest = await page.evaluate(async (href) => (await fetch(href!)).json(), manifestHref);
  expect(manifest).toMatchObject({ display: "standalone", start_url: "/", theme_color: "#0f3d5e" });
  expect(manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`)).toEqual(
    expect.arrayContaining(["192x192 maskable", "512x512 maskable", "192x192 any", "512x512 any"]),
  );
  const icon = await page.evaluate(async () => {
    const r = await fetch("/icon-512.png");
    const b = await createImageBitmap(await r.blob());
    return { type: r.headers.get("content-type"), w: b.width, h: b.height };
  });
  expect(icon).toEqual({ type: "image/png", w: 512, h: 512 });
  const sw = await page.evaluate(async () => {
    const r = await fetch("/sw.js");
    return { cache: r.headers.get("cache-control"), ok: r.ok };
  });
  expect(sw).toEqual({ cache: "no-cache", ok: true });
  await page.waitForFunction(async () => !!(await navigator.serviceWorker.ready).active, null, { timeout: 20_000 });
  await page.close();
});
