import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { boxSettings, printJobs } from "../../../db/schema";
import { type PrinterTarget, sendToPrinter } from "../../../drivers/printers/transports";
import { notFound, unprocessable } from "../../http/errors";
import type { EmployeeCaller } from "../../http/route";
import type { Clock } from "../../platform/clock";
import type { EventBus } from "../../platform/events";

const path = z.string().max(200).regex(/^\/[\w./:+-]+$/, "must be an absolute device path");
export const PrinterConfig = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,30}$/),
  name: z.string().trim().min(1).max(60),
  /** The language the printer speaks (spec §9 encodings). */
  language: z.enum(["PPLZ", "ESCPOS"]),
  paper: z.enum(["80mm", "58mm"]).default("80mm"),
  target: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("usblp"), path }),
    z.object({ kind: z.literal("serial"), path, baud: z.number().int().min(1200).max(921600).default(9600) }),
    z.object({ kind: z.literal("tcp"), host: z.string().max(100).regex(/^[\w.-]+$/), port: z.number().int().min(1).max(65535).default(9100) }),
    z.object({ kind: z.literal("rfcomm"), path }),
  ]),
});
export type Printer = z.infer<typeof PrinterConfig>;
const KEY = "printers";
export type Sender = (target: PrinterTarget, bytes: Uint8Array, timeoutMs: number) => Promise<void>;

/**
 * The print journal: every job is a row (what, which printer, who), sent by a queue per
 * printer, and marked done or failed with the reason. Requests only enqueue, so a printer
 * never blocks the counter; a failed job can be sent again.
 */
export function createPrintJournal({ db, clock, bus, send = sendToPrinter, timeoutMs = 10_000 }: { db: Db; clock: Clock; bus: EventBus; send?: Sender; timeoutMs?: number }) {
  const busy = new Set<string>();
  const now = () => clock.now().toISOString();
  const announce = (job: number, printer: string, status: "queued" | "sending" | "done" | "failed", error?: string | null) => bus.publish({ type: "print", job, printer, status, error, at: now() });

  async function printers(): Promise<Printer[]> {
    const row = await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, KEY) });
    const parsed = z.array(PrinterConfig).safeParse(row ? JSON.parse(row.value) : []);
    return parsed.success ? parsed.data : [];
  }

  /** Sends the printer's queued jobs one after another; a second call while it runs is a no-op. */
  async function drain(printerId: string) {
    if (busy.has(printerId)) return;
    busy.add(printerId);
    try {
      for (;;) {
        const [job] = await db.select().from(printJobs).where(and(eq(printJobs.printer, printerId), eq(printJobs.status, "queued"))).orderBy(asc(printJobs.id)).limit(1);
        if (!job) return;
        const printer = (await printers()).find((p) => p.id === printerId);
        await db.update(printJobs).set({ status: "sending", attempts: job.attempts + 1 }).where(eq(printJobs.id, job.id));
        announce(job.id, printerId, "sending");
        try {
          if (!printer) throw new Error("This printer is no longer set up");
          await send(printer.target, Buffer.from(job.payload, "base64"), timeoutMs);
          await db.update(printJobs).set({ status: "done", error: null, finished_at: now() }).where(eq(printJobs.id, job.id));
          announce(job.id, printerId, "done");
        } catch (e) {
          const error = e instanceof Error ? e.message : String(e);
          // The rest of a batch waits for "reprint from here" instead of failing one by one.
          await db.update(printJobs).set({ status: "failed", error, finished_at: now() }).where(eq(printJobs.id, job.id));
          await db.update(printJobs).set({ status: "failed", error: "Not sent: an earlier job on this printer failed" }).where(and(eq(printJobs.printer, printerId), eq(printJobs.status, "queued")));
          announce(job.id, printerId, "failed", error);
          return;
        }
      }
    } finally {
      busy.delete(printerId);
    }
  }

  return {
    printers,
    async savePrinters(list: Printer[]) {
      if (new Set(list.map((p) => p.id)).size !== list.length) throw unprocessable("id: each printer needs its own id");
      await db.insert(boxSettings).values({ key: KEY, value: JSON.stringify(list) }).onConflictDoUpdate({ target: boxSettings.key, set: { value: JSON.stringify(list) } });
      return list;
    },
    async printer(id: string) {
      const p = (await printers()).find((x) => x.id === id);
      if (!p) throw unprocessable("printer: no such printer; set it up first");
      return p;
    },
    /** Records jobs and returns at once; sending happens behind the request. */
    async enqueue(caller: EmployeeCaller, printer: string, jobs: { kind: string; encoding: string; bytes: Uint8Array; ticket_id?: number; item_id?: number }[]) {
      const rows = await db
        .insert(printJobs)
        .values(jobs.map((j) => ({ agent_id: caller.agent.id, employee_id: caller.employee.id, kind: j.kind, printer, encoding: j.encoding, ticket_id: j.ticket_id ?? null, ticket_sub_category_id: j.item_id ?? null, payload: Buffer.from(j.bytes).toString("base64"), created_at: now() })))
        .returning({ id: printJobs.id });
      for (const r of rows) announce(r.id, printer, "queued");
      void drain(printer);
      return rows.map((r) => r.id);
    },
    async list(q: { ticket_id?: number; limit: number }) {
      const rows = await db
        .select({ id: printJobs.id, kind: printJobs.kind, printer: printJobs.printer, encoding: printJobs.encoding, ticket_id: printJobs.ticket_id, ticket_sub_category_id: printJobs.ticket_sub_category_id, status: printJobs.status, error: printJobs.error, attempts: printJobs.attempts, created_at: printJobs.created_at, finished_at: printJobs.finished_at })
        .from(printJobs)
        .where(q.ticket_id ? eq(printJobs.ticket_id, q.ticket_id) : undefined)
        .orderBy(desc(printJobs.id))
        .limit(q.limit);
      return rows;
    },
    /** Reprint from here: this failed job and the failed ones after it on the same printer. */
    async retry(id: number) {
      const job = await db.query.printJobs.findFirst({ where: eq(printJobs.id, id) });
      if (!job) throw notFound("Print job");
      if (job.status !== "failed") throw unprocessable("Only a failed job can be sent again");
      const later = await db.select({ id: printJobs.id }).from(printJobs).where(and(eq(printJobs.printer, job.printer), eq(printJobs.status, "failed")));
      const ids = later.map((l) => l.id).filter((x) => x >= id);
      await db.update(printJobs).set({ status: "queued", error: null }).where(inArray(printJobs.id, ids));
      void drain(job.printer);
      return { requeued: ids.length };
    },
    /** Waits until no job is queued or sending (tests and shutdown). */
    async idle() {
      for (let i = 0; i < 500; i++) {
        const [row] = await db.select({ id: printJobs.id }).from(printJobs).where(inArray(printJobs.status, ["queued", "sending"])).limit(1);
        if (!row && busy.size === 0) return;
        await Bun.sleep(10);
      }
    },
  };
}
export type PrintJournal = ReturnType<typeof createPrintJournal>;
