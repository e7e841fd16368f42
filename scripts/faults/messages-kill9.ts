/**
 * Every message once, none lost, none twice (issue 14): kill -9 during a bulk send.
 *   bun scripts/faults/messages-kill9.ts [--runs 3] [--messages 1000] [--short: 1 run, 100 messages] [--latency-ms 3] [--reply-delay-ms 3]
 * Starts the Android gateway stand-in as a process of its own (it logs every message it takes,
 * synchronously, by the outbox row's key) and the real appliance as another, preset with
 * IRONBOX_SMS_GATEWAY_URL pointing at it. Each run: an admin queues a bulk send to
 * `--messages` customers (created once, each with a mobile), the box is killed with SIGKILL
 * while its sender is mid-way, restarted on the same data, and left until the batch has no
 * row queued or sending. Then it counts, from the outbox and the gateway's log:
 *   lost        rows the gateway never took and no one was told about (not failed or unknown)
 *   duplicated  phones the gateway took this run's text for more than once
 *   flagged     rows marked unknown or failed for a person to decide
 * Exits non-zero when anything was lost or duplicated.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../db/client";
import { arg, type Box, call, startBox } from "./lib";
import { freePort } from "../../appliance/test/ports";

const runs = arg("runs", 3, 1);
const messages = Math.min(arg("messages", 1000, 100), 1000); // the API's cap for chosen customers
const latencyMs = arg("latency-ms", 3);
// The stand-in answers this long after taking a message, so some kills land between "the
// gateway took it" and "the box recorded it": the case recovery must settle by asking.
const replyDelayMs = arg("reply-delay-ms", 3);
const dir = mkdtempSync(join(tmpdir(), "ironbox-msg-kill9-"));
// Asked of the kernel (appliance/test/ports.ts): a run beside this one never takes the same.
const port = await freePort(2);
const gatewayPort = port + 1;
const gatewayLog = join(dir, "gateway.jsonl");

// The gateway stand-in: its own process, so the box's crash cannot take it (or its log) along.
const gateway = Bun.spawn(
  [
    process.execPath,
    join(import.meta.dir, "../../drivers/messaging/testing/android-gateway-stand-in.ts"),
    ...[
      "--port",
      String(gatewayPort),
      "--user",
      "sms",
      "--pass",
      "fault-pass",
      "--log",
      gatewayLog,
      "--latency-ms",
      String(latencyMs),
      "--reply-delay-ms",
      String(replyDelayMs),
    ],
  ],
  { stdout: "pipe", stderr: "inherit" },
);
const gatewayUrl = await (async () => {
  const reader = (gateway.stdout as ReadableStream<Uint8Array>).getReader();
  let out = "";
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    out += new TextDecoder().decode(value);
    const m = /listening (\S+)/.exec(out);
    if (m) return m[1]!;
  }
  throw new Error(`the gateway stand-in did not start: ${out}`);
})();
const env = { IRONBOX_SMS_GATEWAY_URL: gatewayUrl };

/**
 * What the gateway took: accepted lines per key (refused copies are lines with "duplicate"),
 * and per phone number and text. The stand-in refuses a second copy of a key, so a copy per
 * key can never show; a customer's phone getting the same text twice (a second row, or a new
 * key for the same row) is the duplicate a person would see.
 */
function gatewayTook(): { accepted: Map<string, number>; perPhone: Map<string, number>; refused: number } {
  const accepted = new Map<string, number>();
  const perPhone = new Map<string, number>();
  let refused = 0;
  if (!existsSync(gatewayLog)) return { accepted, perPhone, refused };
  for (const line of readFileSync(gatewayLog, "utf8").split("\n")) {
    if (!line) continue;
    const e = JSON.parse(line) as { id: string; to?: string; text?: string; duplicate?: boolean };
    if (e.duplicate) {
      refused++;
      continue;
    }
    accepted.set(e.id, (accepted.get(e.id) ?? 0) + 1);
    const phone = `${e.to}\n${e.text}`;
    perPhone.set(phone, (perPhone.get(phone) ?? 0) + 1);
  }
  return { accepted, perPhone, refused };
}

async function adminToken(box: Box) {
  const agent = await call(box.base, "POST", "/login/agent", undefined, { user_name: "birkirkara", password: "shop-demo-2026" });
  return (await call(box.base, "POST", "/login/employee", agent, { pin: "5555" })) as string;
}

/** Customers to send to, each with a mobile: created once through the API, eight at a time. */
async function createCustomers(box: Box, token: string, n: number): Promise<number[]> {
  const ids: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const c = await call(box.base, "POST", "/customers/", token, { full_name: `Fault Customer ${i}`, mobile: `7990${String(i).padStart(4, "0")}` });
      ids.push(c.id as number);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return ids.sort((a, b) => a - b);
}

async function waitDrained(box: Box, token: string, batch: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const c = await call(box.base, "GET", `/messages/batches/${batch}`, token);
    if (c.queued + c.sending === 0) return c;
    if (Date.now() > deadline) throw new Error(`batch ${batch} not drained after ${timeoutMs} ms: ${JSON.stringify(c)}`);
    await Bun.sleep(200);
  }
}

let failures = 0;
const totals = { messages: 0, lost: 0, duplicated: 0, flagged: 0 };
let customerIds: number[] = [];
try {
  for (let run = 1; run <= runs; run++) {
    let box = await startBox(dir, port, run === 1, env);
    let token = await adminToken(box);
    if (run === 1) customerIds = await createCustomers(box, token, messages);
    const text = `Fault run ${run}: we are closed on Monday.`;
    const sent = await call(box.base, "POST", "/customers/sendMessages?all=false", token, { customer_ids: customerIds, text });
    // The sender starts once the request has answered; the kill lands while it is part-way.
    const before = gatewayTook().accepted.size;
    await Bun.sleep(300 + Math.random() * 1500);
    box.child.kill("SIGKILL");
    await box.child.exited;
    const tookAtKill = gatewayTook().accepted;
    const atKill = tookAtKill.size - before;
    // Rows the killed sender held, and how many of them the gateway already had: those a blind resend would duplicate.
    const killed = await openDatabase(`file:${join(dir, "ironbox.db")}`);
    const sendingKeys = ((await killed.client.execute("SELECT key FROM outgoing_messages WHERE status = 'sending'")).rows as unknown as { key: string }[]).map(
      (r) => r.key,
    );
    killed.close();
    const leftSending = `${sendingKeys.length} left sending (${sendingKeys.filter((k) => tookAtKill.has(k)).length} of them already at the gateway)`;

    box = await startBox(dir, port, false, env);
    token = await adminToken(box);
    const counts = await waitDrained(box, token, sent.batch_id, 120_000);
    box.child.kill("SIGTERM");
    await box.child.exited;

    // The outbox as the box left it, against what the gateway took.
    const database = await openDatabase(`file:${join(dir, "ironbox.db")}`);
    const rows = (await database.client.execute({ sql: "SELECT key, status FROM outgoing_messages WHERE batch_id = ?", args: [sent.batch_id] }))
      .rows as unknown as {
      key: string;
      status: string;
    }[];
    database.close();
    const { accepted, perPhone, refused } = gatewayTook();
    const flagged = rows.filter((r) => r.status === "unknown" || r.status === "failed").length;
    const lost = messages - rows.length + rows.filter((r) => !accepted.has(r.key) && r.status !== "unknown" && r.status !== "failed").length;
    // A key taken twice is also a phone given the text twice: counting phones covers both.
    const duplicated = [...perPhone].filter(([k, n]) => k.endsWith(`\n${text}`) && n > 1).length;
    const sentRows = rows.filter((r) => r.status === "sent").length;
    if (lost || duplicated || sent.queued !== messages) failures++;
    totals.messages += rows.length;
    totals.lost += lost;
    totals.duplicated += duplicated;
    totals.flagged += flagged;
    console.log(
      `run ${String(run).padStart(2)}: ${rows.length} in the outbox, ${atKill} at the gateway and ${leftSending} when killed; after restart ${sentRows} sent (batch: ${JSON.stringify(counts)}); ` +
        `lost ${lost}, duplicated ${duplicated}, flagged ${flagged}, copies refused by key ${refused}${lost || duplicated ? "  <-- FAIL" : ""}`,
    );
  }
} finally {
  gateway.kill("SIGTERM");
  await gateway.exited;
}
console.log(
  `${runs} kill -9 runs during bulk sends of ${messages}: ${totals.messages} messages, lost ${totals.lost}, duplicated ${totals.duplicated}, flagged ${totals.flagged}${failures ? ` — ${failures} runs FAILED` : ""}`,
);
rmSync(dir, { recursive: true, force: true });
process.exit(failures ? 1 : 0);
