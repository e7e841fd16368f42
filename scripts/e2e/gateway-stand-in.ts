/**
 * The browser tests' SMS phone: B's stand-in of SMS Gateway for Android
 * (drivers/messaging/testing/android-gateway-stand-in.ts) behind a thin front that adds two
 * test-only routes: GET /__received?phone= (what the phone took for a number, any prefix
 * such as +356 allowed) and POST /__fail {phone, fail} (the phone refuses that number with
 * 400, as the app does for a number it cannot send to). Everything else reaches the stand-in
 * unchanged. playwright.config.ts starts it:
 *   bun scripts/e2e/gateway-stand-in.ts --port N --user u --pass p
 */
import { startGatewayStandIn } from "../../drivers/messaging/testing/android-gateway-stand-in";

if (import.meta.main) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i < 0 ? undefined : process.argv[i + 1];
  };
  const port = Number(arg("--port"));
  const user = arg("--user");
  const pass = arg("--pass");
  if (!Number.isInteger(port) || !user || !pass) {
    console.error("usage: gateway-stand-in.ts --port N --user u --pass p");
    process.exit(2);
  }
  const phone = startGatewayStandIn({ user, pass });
  const refused = new Set<string>();
  const ends = (to: string, number: string) => to.replace(/\D/g, "").endsWith(number.replace(/\D/g, ""));
  const front = Bun.serve({
    hostname: "127.0.0.1",
    port,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === "/__received") {
        const number = url.searchParams.get("phone") ?? "";
        return Response.json(phone.received.filter((m) => ends(m.to, number)).map((m) => ({ to: m.to, message: m.text, state: m.state })));
      }
      if (url.pathname === "/__fail" && req.method === "POST") {
        const { phone: number, fail } = (await req.json()) as { phone: string; fail: boolean };
        fail ? refused.add(number) : refused.delete(number);
        return Response.json({ ok: true });
      }
      const body = req.method === "POST" ? await req.text() : undefined;
      if (body && url.pathname === "/message") {
        const numbers = ((JSON.parse(body) as { phoneNumbers?: string[] }).phoneNumbers ?? []).map(String);
        if (numbers.some((n) => [...refused].some((r) => ends(n, r)))) return Response.json({ message: "Invalid phone number" }, { status: 400 });
      }
      return fetch(`http://127.0.0.1:${phone.port}${url.pathname}${url.search}`, { method: req.method, headers: req.headers, body });
    },
  });
  console.log(`listening http://127.0.0.1:${front.port}`);
  const stop = () => void Promise.all([phone.stop(), front.stop(true)]).then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
