/**
 * A stand-in for the phone running "SMS Gateway for Android" in local server mode: the part
 * of its HTTP API Ironbox uses, answered like the app answers it.
 *
 * - basic auth on everything but /health (401 otherwise);
 * - POST /message `{ id?, message | textMessage.text, phoneNumbers }` → 202 `{ id, state:
 *   "Pending", recipients }`; a second POST with an id it already has → 409 (the app's
 *   ConflictException), nothing sent twice;
 * - GET /message/{id} → `{ id, state, recipients }`, the state moving Pending → Sent after
 *   `sentAfterMs`; 404 for an id it never took;
 * - GET /device → `[{ id, name }]`; GET /health → `{ status: "pass" }`.
 *
 * Faults for the outbox's tests: `latencyMs` before each answer, `failRate` (answers 503
 * before taking the message: nothing sent), `lostReplyRate` (takes the message, then answers
 * 500 as if the answer were lost on the way: a retry must not send it again) and `dedupe:
 * false` (a gateway without ids: a retry would send twice).
 *
 * Every accepted message is one JSON line in the log file ({ id, to, text, at }; a refused
 * duplicate is a line with "duplicate": true), written synchronously so a count after a crash
 * of the box is exact.
 *
 * As a process: bun drivers/messaging/testing/android-gateway-stand-in.ts --port N --user u
 *   --pass p --log <file> [--latency-ms M] [--reply-delay-ms M] [--fail-rate r] [--lost-reply-rate r] [--no-dedupe]
 *   [--sent-after-ms M]; it prints `listening <url>` once ready and stops on SIGTERM.
 */
import { appendFileSync } from "node:fs";

export type GatewayState = "Pending" | "Processed" | "Sent" | "Delivered" | "Failed";

export interface ReceivedSms {
  id: string;
  to: string;
  text: string;
  at: string;
  state: GatewayState;
}

export interface GatewayStandInOptions {
  port?: number;
  user: string;
  pass: string;
  log?: string;
  latencyMs?: number;
  /** Waits this long after taking a message before answering. */
  replyDelayMs?: number;
  failRate?: number;
  lostReplyRate?: number;
  dedupe?: boolean;
  /** When an accepted message turns from Pending to Sent (default 20 ms). */
  sentAfterMs?: number;
  /** Random numbers for the fault rates (tests pass a fixed sequence). */
  random?: () => number;
}

export interface GatewayStandIn {
  /** http://user:pass@127.0.0.1:port, as IRONBOX_SMS_GATEWAY_URL takes it. */
  url: string;
  port: number;
  /** Every message taken, in order (duplicates refused by id are not in it). */
  received: ReceivedSms[];
  /** How many POSTs were refused as duplicates (409). */
  duplicates(): number;
  /** Sets a message's state by hand (e.g. Failed), for lookup tests. */
  setState(id: string, state: GatewayState): void;
  stop(): Promise<void>;
}

let counter = 0;

export function startGatewayStandIn(o: GatewayStandInOptions): GatewayStandIn {
  const expected = `Basic ${Buffer.from(`${o.user}:${o.pass}`).toString("base64")}`;
  const random = o.random ?? Math.random;
  const byId = new Map<string, ReceivedSms[]>();
  const received: ReceivedSms[] = [];
  let dups = 0;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const log = (line: object) => o.log && appendFileSync(o.log, `${JSON.stringify(line)}\n`);
  const json = (status: number, body: unknown) => Response.json(body, { status });
  const view = (id: string, list: ReceivedSms[]) => ({
    id,
    state: list[0]?.state,
    recipients: list.map((m) => ({ phoneNumber: m.to, state: m.state })),
  });

  async function handle(req: Request): Promise<Response> {
    if (o.latencyMs) await Bun.sleep(o.latencyMs);
    const url = new URL(req.url);
    if (req.method === "GET" && url.pathname === "/health") return json(200, { status: "pass", version: "stand-in" });
    if (req.headers.get("authorization") !== expected) return json(401, { message: "Unauthorized" });
    if (req.method === "GET" && url.pathname === "/device") return json(200, [{ id: "stand-in", name: "Ironbox/stand-in" }]);
    if (req.method === "POST" && url.pathname === "/message") {
      let body: { id?: string; message?: string; textMessage?: { text?: string }; phoneNumbers?: string[] };
      try {
        body = await req.json();
      } catch {
        return json(400, { message: "Invalid JSON" });
      }
      const text = body.message ?? body.textMessage?.text ?? "";
      if (!text) return json(400, { message: "Text message is empty" });
      if (!Array.isArray(body.phoneNumbers) || !body.phoneNumbers.length) return json(400, { message: "Empty phone numbers list" });
      if (o.failRate && random() < o.failRate) return json(503, { message: "stand-in: busy" });
      const id = body.id || `standin-${++counter}`;
      if (o.dedupe !== false && byId.has(id)) {
        dups++;
        log({ id, duplicate: true, at: new Date().toISOString() });
        return json(409, { message: `Message with id ${id} already exists` });
      }
      const at = new Date().toISOString();
      const list = body.phoneNumbers.map((to) => ({ id, to, text, at, state: "Pending" as GatewayState }));
      byId.set(id, [...(byId.get(id) ?? []), ...list]);
      for (const m of list) {
        received.push(m);
        log({ id, to: m.to, text, at });
      }
      const t = setTimeout(() => {
        timers.delete(t);
        for (const m of list) if (m.state === "Pending") m.state = "Sent";
      }, o.sentAfterMs ?? 20);
      timers.add(t);
      // Taken but not yet answered: a crash of the box now is the "sent but not recorded" case.
      if (o.replyDelayMs) await Bun.sleep(o.replyDelayMs);
      if (o.lostReplyRate && random() < o.lostReplyRate) return json(500, { message: "stand-in: the answer was lost" });
      return json(202, view(id, list));
    }
    const m = /^\/message\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && m) {
      const id = decodeURIComponent(m[1] as string);
      const list = byId.get(id);
      return list ? json(200, view(id, list)) : json(404, { message: "Not Found" });
    }
    return json(404, { message: "Not Found" });
  }

  const server = Bun.serve({ hostname: "127.0.0.1", port: o.port ?? 0, fetch: handle });
  const port = server.port as number;
  return {
    url: `http://${encodeURIComponent(o.user)}:${encodeURIComponent(o.pass)}@127.0.0.1:${port}`,
    port,
    received,
    duplicates: () => dups,
    setState(id, state) {
      for (const m of byId.get(id) ?? []) m.state = state;
    },
    async stop() {
      for (const t of timers) clearTimeout(t);
      await server.stop(true);
    },
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const arg = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const num = (name: string) => (arg(name) === undefined ? undefined : Number(arg(name)));
  const user = arg("--user");
  const pass = arg("--pass");
  if (!user || !pass) {
    console.error(
      "usage: android-gateway-stand-in.ts --port N --user u --pass p --log <file> [--latency-ms M] [--reply-delay-ms M] [--fail-rate r] [--lost-reply-rate r] [--no-dedupe] [--sent-after-ms M]",
    );
    process.exit(2);
  }
  const g = startGatewayStandIn({
    port: num("--port") ?? 0,
    user,
    pass,
    log: arg("--log"),
    latencyMs: num("--latency-ms"),
    replyDelayMs: num("--reply-delay-ms"),
    failRate: num("--fail-rate"),
    lostReplyRate: num("--lost-reply-rate"),
    sentAfterMs: num("--sent-after-ms"),
    dedupe: !args.includes("--no-dedupe"),
  });
  console.log(`listening ${g.url}`);
  const stop = () => void g.stop().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
