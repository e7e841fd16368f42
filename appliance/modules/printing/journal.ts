import { and, asc, desc, eq, inArray, lt, max } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { boxSettings, printJobs } from "../../../db/schema";
import { type DeviceAccess, DevicePathError } from "../../../drivers/devices";
import type { PrinterDevice } from "../../../drivers/printers/discovery";
import { modelFor } from "../../../drivers/printers/models";
import { type PrinterTarget, sendToPrinter } from "../../../drivers/printers/transports";
import { notFound, unprocessable } from "../../platform/errors";
import { agentScope, assertSameAgent } from "../auth/caller";
import type { EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import type { BoxEventBus as EventBus } from "../events/model";
import { storedList } from "../../platform/storedList";
import { audit } from "../audit/audit";
import { PrinterConfig, type Printer, type PrinterSettings, type TabletPort } from "./model";

export { Encoding, PrinterConfig } from "./model";
export type { Printer, TabletPort } from "./model";

/**
 * Where a printer is must be hardware the box may use (drivers/devices.ts): a device path of
 * its kind under the device root, or a network printer on the LAN at a printer port. Checked
 * when saved (422 with the reason) and again when each job is sent.
 */
export async function assertPrinterTarget(devices: DeviceAccess, t: Printer["target"]): Promise<void> {
  try {
    if (t.kind === "tcp") await devices.lanPrinterAddress(t.host, t.port);
    else if (t.path) devices.checkDevicePath(t.path, t.kind);
  } catch (e) {
    throw e instanceof DevicePathError ? unprocessable(e.message) : e;
  }
}

/** What a save changed in a list of box hardware (printers, guns), for the audit row. */
export function listChanges<T extends { id: string }>(before: T[], after: T[]) {
  const old = new Map(before.map((x) => [x.id, JSON.stringify(x)]));
  return {
    added: after.filter((x) => !old.has(x.id)),
    changed: after.filter((x) => old.has(x.id) && old.get(x.id) !== JSON.stringify(x)),
    removed: before.filter((x) => !after.some((y) => y.id === x.id)).map((x) => x.id),
  };
}
const KEY = "printers";
/** Print jobs journaled per statement (11 values a row). */
const INSERT_CHUNK = 100;
/** How long a tablet has to report a job it sends itself before the journal gives up on it. */
const TABLET_REPORT_MS = 10 * 60_000;
export type Sender = (target: PrinterTarget, bytes: Uint8Array, timeoutMs: number) => Promise<void>;
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Work of the print's use case that commits or rolls back with its journal rows (labels mark their items). */
export type WithJobs = (tx: Tx) => Promise<unknown>;

/** A device found on the box, as a printer it can print to before anyone has saved it. */
export function printerFromDevice(d: PrinterDevice): Printer {
  const target: Printer["target"] =
    d.kind === "serial" && d.vendorId && d.productId
      ? { kind: "serial", vendorId: d.vendorId, productId: d.productId, ...(d.serialNumber ? { serialNumber: d.serialNumber } : {}), baud: 9600 }
      : d.kind === "serial"
        ? { kind: "serial", path: d.path, baud: 9600 }
        : { kind: d.kind, path: d.path };
  const model = modelFor(d.vendorId, d.productId, d.productName);
  return {
    id: d.id,
    name: d.name,
    language: d.encoding ?? model?.languages[0] ?? (d.class === "label" ? "PPLZ" : "ESCPOS"),
    paper: model?.paper ?? "80mm",
    ...(model ? { model: model.id } : {}),
    target,
  };
}

/**
 * The print journal: every job is a row (what, which printer, who), sent by a queue per
 * printer, and marked done or failed with the reason. Requests only enqueue, so a printer
 * never blocks the counter; a failed job can be sent again. Jobs the tablet sends itself
 * (BLE, RawBT) are journaled too and closed by the tablet's report.
 */
export function createPrintJournal({
  db,
  clock,
  bus,
  devices,
  log = console.error,
  send = (target, bytes, ms) => sendToPrinter(devices, target, bytes, ms),
  discover = () => [],
  timeoutMs = 10_000,
}: {
  db: Db;
  clock: Clock;
  bus: EventBus;
  devices: DeviceAccess;
  log?: (m: string) => void;
  send?: Sender;
  discover?: () => PrinterDevice[];
  timeoutMs?: number;
}) {
  const busy = new Set<string>();
  const now = () => clock.now().toISOString();
  /** A job's state on the event bus, with its shop: the stream sends it to that shop's tablets (and HQ's) only. */
  const announce = (agentId: number, job: number, printer: string, status: "queued" | "sending" | "done" | "failed", error?: string | null) =>
    bus.publish({ type: "print", agent_id: agentId, job, printer, status, error, at: now() });

  const stored = storedList({ db, key: KEY, schema: PrinterConfig, log });
  /** The saved printers; none while the stored settings are invalid (settings() says why). */
  const printers = async (): Promise<Printer[]> => (await stored()).list;
  /** A saved printer, or a device attached to the box that nobody has saved yet. */
  async function find(id: string): Promise<Printer | undefined> {
    const saved = (await printers()).find((p) => p.id === id);
    if (saved) return saved;
    const device = discover().find((d) => d.id === id);
    return device && printerFromDevice(device);
  }

  /** Sends the printer's queued jobs one after another; a second call while it runs is a no-op. */
  async function drain(printerId: string) {
    if (busy.has(printerId)) return;
    busy.add(printerId);
    try {
      for (;;) {
        const [job] = await db
          .select()
          .from(printJobs)
          .where(and(eq(printJobs.printer, printerId), eq(printJobs.status, "queued")))
          .orderBy(asc(printJobs.id))
          .limit(1);
        if (!job) return;
        const printer = await find(printerId);
        await db
          .update(printJobs)
          .set({ status: "sending", attempts: job.attempts + 1 })
          .where(eq(printJobs.id, job.id));
        announce(job.agent_id, job.id, printerId, "sending");
        try {
          if (!printer) throw new Error("The printer is not connected (it is neither set up nor attached)");
          await send(printer.target, Buffer.from(job.payload, "base64"), timeoutMs);
          await db.update(printJobs).set({ status: "done", error: null, finished_at: now() }).where(eq(printJobs.id, job.id));
          announce(job.agent_id, job.id, printerId, "done");
        } catch (e) {
          const error = e instanceof Error ? e.message : String(e);
          await fail(job, error);
          return;
        }
      }
    } finally {
      busy.delete(printerId);
    }
  }
  /** Marks a job failed; the rest of its printer's queue waits for "reprint from here" instead of failing one by one. */
  async function fail({ id, printer, agent_id }: { id: number; printer: string; agent_id: number }, error: string) {
    await db.update(printJobs).set({ status: "failed", error, finished_at: now() }).where(eq(printJobs.id, id));
    await db
      .update(printJobs)
      .set({ status: "failed", error: "Not sent: an earlier job on this printer failed" })
      .where(and(eq(printJobs.printer, printer), inArray(printJobs.status, ["queued", "sending"])));
    announce(agent_id, id, printer, "failed", error);
  }
  /** A job of the caller's shop (HQ: any); another shop's answers 404. */
  async function jobOf(caller: EmployeeCaller, id: number) {
    const job = await db.query.printJobs.findFirst({ where: eq(printJobs.id, id) });
    if (!job) throw notFound("Print job");
    assertSameAgent(caller, job.agent_id, "Print job");
    return job;
  }
  const isTablet = (printer: string) => printer.startsWith("ble:") || printer.startsWith("rbt:");
  type NewJob = { kind: string; encoding: string; bytes: Uint8Array; ticket_id?: number; item_id?: number };
  /**
   * Journals a batch in chunks, letting other requests read in between: libSQL runs each statement
   * on the event loop, and one statement for a whole batch would also exceed SQLite's limit
   * on bound values. The batch was checked before (labelsFor's cap), so every chunk goes in.
   */
  async function insertAll(caller: EmployeeCaller, printer: string, jobs: NewJob[], status: "queued" | "sending", exec: Pick<Db, "insert">) {
    const ids: { id: number }[] = [];
    for (let i = 0; i < jobs.length; i += INSERT_CHUNK) {
      if (i) await new Promise((r) => setImmediate(r));
      const chunk = jobs.slice(i, i + INSERT_CHUNK);
      ids.push(
        ...(await exec
          .insert(printJobs)
          .values(
            chunk.map((j) => ({
              agent_id: caller.agent.id,
              employee_id: caller.employee.id,
              kind: j.kind,
              printer,
              encoding: j.encoding,
              ticket_id: j.ticket_id ?? null,
              ticket_sub_category_id: j.item_id ?? null,
              payload: Buffer.from(j.bytes).toString("base64"),
              status,
              attempts: status === "sending" ? 1 : 0,
              created_at: now(),
            })),
          )
          .returning({ id: printJobs.id })),
      );
    }
    return ids;
  }

  return {
    printers,
    /** The saved printers as the settings screen shows them: with `invalid` when the stored list no longer validates. */
    async settings(): Promise<PrinterSettings> {
      const { list, invalid } = await stored();
      return { printers: list, ...(invalid ? { invalid } : {}) };
    },
    find,
    /** Box hardware: any admin of a shop using the box sets it up; the audit row says who changed what. */
    async savePrinters(caller: EmployeeCaller, list: Printer[]) {
      if (new Set(list.map((p) => p.id)).size !== list.length) throw unprocessable("id: each printer needs its own id");
      for (const p of list) await assertPrinterTarget(devices, p.target);
      const before = await printers();
      await db.transaction(async (tx) => {
        await tx
          .insert(boxSettings)
          .values({ key: KEY, value: JSON.stringify(list) })
          .onConflictDoUpdate({ target: boxSettings.key, set: { value: JSON.stringify(list) } });
        await audit(tx, clock.now(), caller, "configure", "printers", null, listChanges(before, list));
      });
      return list;
    },
    async printer(id: string) {
      const p = await find(id);
      if (!p) throw unprocessable("printer: this printer is neither set up nor attached; search again");
      return p;
    },
    /**
     * Records jobs and returns at once; sending happens behind the request, and starts only
     * once the jobs are committed. In the same transaction: with `audited`, an audit row (test
     * prints); with `also`, the rest of the use case (printing labels marks the items).
     */
    async enqueue(
      caller: EmployeeCaller,
      printer: string,
      jobs: NewJob[],
      opts: { audited?: { action: string; detail: Record<string, unknown> }; also?: WithJobs } = {},
    ) {
      const rows = await db.transaction(async (tx) => {
        const r = await insertAll(caller, printer, jobs, "queued", tx);
        if (opts.audited) await audit(tx, clock.now(), caller, opts.audited.action, "printer", null, { ...opts.audited.detail, jobs: r.map((x) => x.id) });
        await opts.also?.(tx);
        return r;
      });
      for (const r of rows) announce(caller.agent.id, r.id, printer, "queued");
      void drain(printer);
      return rows.map((r) => r.id);
    },
    /**
     * Records jobs the tablet sends itself ("ble:<device>" or "rbt:<tablet>"): they stay
     * "sending" until it reports. `also` commits with them, before the tablet gets the bytes.
     */
    async handOver(caller: EmployeeCaller, port: TabletPort, device: string, jobs: NewJob[], also?: WithJobs) {
      const printer = `${port}:${device}`.slice(0, 80);
      // A tablet that closed mid-batch never reports: its old jobs on this printer end as failed.
      const stale = new Date(clock.now().getTime() - TABLET_REPORT_MS).toISOString();
      await db
        .update(printJobs)
        .set({ status: "failed", error: "The tablet did not report back on this job", finished_at: now() })
        .where(and(eq(printJobs.printer, printer), eq(printJobs.status, "sending"), lt(printJobs.created_at, stale)));
      const rows = await db.transaction(async (tx) => {
        const r = await insertAll(caller, printer, jobs, "sending", tx);
        await also?.(tx);
        return r;
      });
      for (const r of rows) announce(caller.agent.id, r.id, printer, "sending");
      return rows.map((r) => r.id);
    },
    /** The tablet's report on a job it sent: done, or failed with the printer's reason. */
    async report(caller: EmployeeCaller, id: number, ok: boolean, error?: string) {
      const job = await jobOf(caller, id);
      if (!isTablet(job.printer)) throw notFound("Print job");
      if (job.status !== "sending") throw unprocessable("This job is not waiting for a report");
      if (ok) {
        await db.update(printJobs).set({ status: "done", error: null, finished_at: now() }).where(eq(printJobs.id, id));
        announce(job.agent_id, id, job.printer, "done");
      } else await fail(job, error || "Printer returned error during print");
      return { id, status: ok ? "done" : "failed" };
    },
    /** The journal, newest first: a shop sees its own jobs, HQ every shop's. */
    async list(caller: EmployeeCaller, q: { ticket_id?: number; limit: number }) {
      const scope = agentScope(caller);
      const rows = await db
        .select({
          id: printJobs.id,
          kind: printJobs.kind,
          printer: printJobs.printer,
          encoding: printJobs.encoding,
          ticket_id: printJobs.ticket_id,
          ticket_sub_category_id: printJobs.ticket_sub_category_id,
          status: printJobs.status,
          error: printJobs.error,
          attempts: printJobs.attempts,
          created_at: printJobs.created_at,
          finished_at: printJobs.finished_at,
        })
        .from(printJobs)
        .where(and(q.ticket_id ? eq(printJobs.ticket_id, q.ticket_id) : undefined, scope ? inArray(printJobs.agent_id, scope) : undefined))
        .orderBy(desc(printJobs.id))
        .limit(q.limit);
      return rows;
    },
    /** The bytes of a job, for the tablet to send again (BLE, RawBT). */
    async payload(caller: EmployeeCaller, id: number) {
      const job = await jobOf(caller, id);
      return { id, encoding: job.encoding, data: job.payload };
    },
    /** Reprint from here: this failed job and the failed ones after it on the same printer. */
    async retry(caller: EmployeeCaller, id: number) {
      const job = await jobOf(caller, id);
      if (job.status !== "failed") throw unprocessable("Only a failed job can be sent again");
      const later = await db
        .select({ id: printJobs.id })
        .from(printJobs)
        .where(and(eq(printJobs.printer, job.printer), eq(printJobs.status, "failed")));
      const ids = later.map((l) => l.id).filter((x) => x >= id);
      // The tablet sends its own jobs again: they wait for its report; the box's queue sends the rest.
      await db
        .update(printJobs)
        .set({ status: isTablet(job.printer) ? "sending" : "queued", error: null })
        .where(inArray(printJobs.id, ids));
      if (!isTablet(job.printer)) void drain(job.printer);
      return { requeued: ids.length, jobs: ids };
    },
    /**
     * After a restart: a job that was being sent when the box stopped is failed (it may
     * have half printed; a person decides whether to reprint), queued ones are sent.
     */
    async recover() {
      const interrupted = await db.select({ id: printJobs.id, printer: printJobs.printer }).from(printJobs).where(eq(printJobs.status, "sending"));
      for (const j of interrupted)
        await db
          .update(printJobs)
          .set({ status: "failed", error: "Interrupted: the box restarted during the job", finished_at: now() })
          .where(eq(printJobs.id, j.id));
      const queued = await db.selectDistinct({ printer: printJobs.printer }).from(printJobs).where(eq(printJobs.status, "queued"));
      for (const q of queued) void drain(q.printer);
    },
    /** Per printer: when it last printed a job, and the last job's error if that one failed (the box's health panel). */
    async lastOutcomes(): Promise<Map<string, { last_ok_at: string | null; last_error: string | null }>> {
      const done = await db
        .select({ printer: printJobs.printer, at: max(printJobs.finished_at) })
        .from(printJobs)
        .where(eq(printJobs.status, "done"))
        .groupBy(printJobs.printer);
      const lastIds = db
        .select({ id: max(printJobs.id) })
        .from(printJobs)
        .where(inArray(printJobs.status, ["done", "failed"]))
        .groupBy(printJobs.printer);
      const last = await db
        .select({ printer: printJobs.printer, status: printJobs.status, error: printJobs.error })
        .from(printJobs)
        .where(inArray(printJobs.id, lastIds));
      const out = new Map<string, { last_ok_at: string | null; last_error: string | null }>();
      for (const d of done) out.set(d.printer, { last_ok_at: d.at, last_error: null });
      for (const l of last) if (l.status === "failed") out.set(l.printer, { last_ok_at: out.get(l.printer)?.last_ok_at ?? null, last_error: l.error });
      return out;
    },
    /** Waits until the box has nothing queued or being sent (tests and shutdown); the tablet's jobs are its own. */
    async idle() {
      for (let i = 0; i < 500; i++) {
        const pending = await db
          .select({ printer: printJobs.printer, status: printJobs.status })
          .from(printJobs)
          .where(inArray(printJobs.status, ["queued", "sending"]));
        if (busy.size === 0 && !pending.some((j) => j.status === "queued" || !isTablet(j.printer))) return;
        await Bun.sleep(10);
      }
    },
  };
}
export type PrintJournal = ReturnType<typeof createPrintJournal>;
