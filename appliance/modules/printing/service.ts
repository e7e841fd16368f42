import type { PrinterDevice } from "../../../drivers/printers/discovery";
import { encodeEscPosReceipt } from "../../../drivers/printers/escpos";
import type { LabelData, LabelVariant } from "../../../drivers/printers/label";
import { encodePpla } from "../../../drivers/printers/ppla";
import { encodePplz } from "../../../drivers/printers/pplz";
import type { Paper, ReceiptData } from "../../../drivers/printers/receipt";
import { encodeEscPosZReport } from "../../../drivers/printers/zReport";
import type { TillDay } from "../money/model";
import { zReportData, zShopName } from "../money/zReport";
import { addDays, businessDay } from "../../domain/dates";
import { displayDate } from "../../domain/format";
import { unprocessable } from "../../platform/errors";
import type { EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import type { ItemService } from "../tickets/items";
import type { TicketService } from "../tickets/service";
import { type PrintJournal, printerFromDevice, type WithJobs } from "./journal";
import type { DeviceRow, Encoding, Port, Printer, PrintResult, TabletPort } from "./model";
import { labelsFor } from "./labels";

export type { DeviceRow, Port, PrintResult } from "./model";

export interface PrintRequest {
  ticket_id: number;
  port?: Port;
  /** A printer of the box (saved, or attached and found by a search); ports u and b. */
  printer?: string;
  /** The tablet's printer name, journaled with its jobs; ports ble and rbt. */
  device?: string;
  encoding?: Encoding;
  item_ids?: number[];
  variant?: LabelVariant;
  mini?: boolean;
  paper?: Paper;
}

const LABEL_ENCODERS: Partial<Record<Encoding, (d: LabelData, v?: LabelVariant) => Uint8Array>> = { PPLZ: encodePplz, PPLA: encodePpla };

export function createPrintService(deps: {
  journal: PrintJournal;
  tickets: TicketService;
  items: ItemService;
  clock: Clock;
  receipt: (caller: EmployeeCaller, id: number, items?: number[], opts?: { confirming?: boolean }) => Promise<ReceiptData>;
  discover: () => PrinterDevice[];
  /** A day's drawer as the payments module counts it (GET /till/{date}), for the Z report. */
  till: (caller: EmployeeCaller, day: string, agent?: number) => Promise<TillDay>;
}) {
  const { journal, tickets, items, clock } = deps;

  /** Where the jobs go: a box printer through the queue, or back to the tablet that sends them itself. */
  async function destination(req: PrintRequest): Promise<{ printer?: Printer; port: Port }> {
    const port = req.port ?? "u";
    if (port === "ble" || port === "rbt") return { port };
    if (!req.printer) throw unprocessable("Select Port");
    return { port, printer: await journal.printer(req.printer) };
  }

  /** Journals the jobs, and `also` with them in one transaction; they are sent once it commits. */
  async function dispatch(
    caller: EmployeeCaller,
    req: PrintRequest,
    where: { printer?: Printer; port: Port },
    jobs: Parameters<PrintJournal["enqueue"]>[2],
    also?: WithJobs,
  ): Promise<PrintResult> {
    if (where.printer) return { jobs: await journal.enqueue(caller, where.printer.id, jobs, { also }) };
    const ids = await journal.handOver(caller, where.port as TabletPort, req.device?.trim() || (where.port === "rbt" ? "RawBT" : "BLE printer"), jobs, also);
    return { jobs: ids, payloads: ids.map((job, i) => ({ job, data: Buffer.from(jobs[i]!.bytes).toString("base64") })) };
  }

  async function devices(): Promise<DeviceRow[]> {
    const found = deps.discover();
    const saved = await journal.printers();
    const matches = (p: Printer, d: PrinterDevice) =>
      p.id === d.id ||
      ("path" in p.target && p.target.path === d.path) ||
      (p.target.kind === "serial" &&
        !!p.target.vendorId &&
        p.target.vendorId === d.vendorId &&
        p.target.productId === d.productId &&
        (!p.target.serialNumber || p.target.serialNumber === d.serialNumber));
    const rows: DeviceRow[] = saved.map((p) => {
      const d = found.find((x) => matches(p, x));
      const t = p.target;
      return {
        id: p.id,
        name: p.name,
        serialNumber: d?.serialNumber ?? "",
        productName: d?.productName ?? "",
        manufacturerName: d?.manufacturerName ?? "",
        port: t.kind === "rfcomm" ? "b" : "u",
        encoding: p.language,
        class: p.language === "ESCPOS" ? "receipt" : "label",
        saved: true,
        state: t.kind === "tcp" ? "unknown" : d ? "online" : "offline",
        where: t.kind === "tcp" ? `${t.host}:${t.port}` : t.kind === "serial" && !t.path ? `USB ${t.vendorId}:${t.productId}` : (t.path ?? ""),
      };
    });
    for (const d of found) {
      if (saved.some((p) => matches(p, d))) continue;
      rows.push({
        id: d.id,
        name: d.name,
        serialNumber: d.serialNumber,
        productName: d.productName,
        manufacturerName: d.manufacturerName,
        port: d.port,
        encoding: d.encoding ?? (d.class === "label" ? "PPLZ" : "ESCPOS"),
        class: d.class,
        saved: false,
        state: "online",
        where: d.path,
        setup: printerFromDevice(d),
      });
    }
    return rows;
  }

  return {
    devices,

    /**
     * Item labels, one per piece (or mini labels, one per action amount). Printing confirms
     * the ticket (spec §2/§4) and sets each item to MARKED with no signature and tomorrow as
     * its process date: all of it, with the journal's jobs, in one transaction, and the
     * printer gets the labels only after it commits. Everything is checked before.
     */
    async labels(caller: EmployeeCaller, req: PrintRequest): Promise<PrintResult> {
      const t = await tickets.view(caller, req.ticket_id);
      const labels = labelsFor(t, req.item_ids, { mini: req.mini });
      if (!labels.length) throw unprocessable("Ticket is empty");
      const where = await destination(req);
      const encoding = req.encoding ?? where.printer?.language ?? "PPLZ";
      const encode = LABEL_ENCODERS[encoding];
      if (!encode) throw unprocessable("encoding: labels print in PPLZ or PPLA");
      const ids = [...new Set(labels.map((l) => l.itemId))];
      const tomorrow = `${addDays(businessDay(clock.now()), 1)}T00:00:00.000Z`;
      const jobs = labels.map((l) => ({ kind: l.mini ? "mini-label" : "label", encoding, bytes: encode(l, req.variant), ticket_id: t.id, item_id: l.itemId }));
      return dispatch(caller, req, where, jobs, (tx) => items.markPrinted(tx, caller, t.id, ids, tomorrow));
    },

    /**
     * The receipt in ESC/POS; printing it confirms the ticket (spec §2): the confirm and the
     * print job commit in one transaction, as labels do, so a receipt is never printed for a
     * ticket left unconfirmed, nor a ticket confirmed by a print that never queued.
     */
    async receipt(caller: EmployeeCaller, req: PrintRequest): Promise<PrintResult> {
      const t = await tickets.view(caller, req.ticket_id);
      if (!t.ticket_sub_categories.length) throw unprocessable("Ticket is empty");
      const where = await destination(req);
      const encoding = req.encoding ?? (where.printer ? where.printer.language : "ESCPOS");
      if (encoding !== "ESCPOS") throw unprocessable("encoding: receipts print in ESC/POS");
      const bytes = encodeEscPosReceipt(await deps.receipt(caller, t.id, req.item_ids, { confirming: true }), req.paper ?? where.printer?.paper ?? "80mm");
      return dispatch(caller, req, where, [{ kind: "receipt", encoding, bytes, ticket_id: t.id }], (tx) => tickets.confirmIn(tx, caller, t.id));
    },

    /**
     * Rack labels (issue 25): one label a rack, its name and its rack code, for staff to scan
     * before the bags they put there. Nothing else changes; the jobs are journaled like any.
     */
    async rackLabels(caller: EmployeeCaller, req: Omit<PrintRequest, "ticket_id" | "item_ids" | "mini" | "paper"> & { names: string[] }): Promise<PrintResult> {
      const where = await destination({ ...req, ticket_id: 0 });
      const encoding = req.encoding ?? where.printer?.language ?? "PPLZ";
      const encode = LABEL_ENCODERS[encoding];
      if (!encode) throw unprocessable("encoding: labels print in PPLZ or PPLA");
      const date = displayDate(clock.now().toISOString());
      const jobs = req.names.map((rack) => ({
        kind: "rack-label",
        encoding,
        bytes: encode({ rack, ticketId: 0, itemId: 0, description: "", piece: "", agent: caller.agent.name, date, tallies: [] }, req.variant),
      }));
      return dispatch(caller, { ...req, ticket_id: 0 }, where, jobs);
    },

    /**
     * The day's Z report (issue 24) on a receipt printer of the box: the one named, or the
     * first ESC/POS printer set up. Journaled and queued as receipts are; audited.
     */
    async zReport(caller: EmployeeCaller, req: { date: string; agent?: number; printer?: string; paper?: Paper }): Promise<PrintResult> {
      const day = await deps.till(caller, req.date, req.agent);
      const p = req.printer ? await journal.printer(req.printer) : (await journal.printers()).find((x) => x.language === "ESCPOS");
      if (!p) throw unprocessable("No receipt printer is set up");
      if (p.language !== "ESCPOS") throw unprocessable("printer: the Z report prints on an ESC/POS receipt printer");
      const stamp = { agent: caller.agent.name, employee: caller.employee.full_name, employeeId: caller.employee.id };
      const bytes = encodeEscPosZReport(zReportData(day, zShopName(day, caller), stamp, clock.now()), req.paper ?? p.paper);
      return {
        jobs: await journal.enqueue(caller, p.id, [{ kind: "z-report", encoding: "ESCPOS", bytes }], {
          audited: { action: "print_z_report", detail: { day: day.day, agent: day.agent_id, printer: p.id } },
        }),
      };
    },

    /** A sample label or receipt, so whoever sets a printer up sees it work. */
    async test(caller: EmployeeCaller, printerId: string): Promise<PrintResult> {
      const p = await journal.printer(printerId);
      const today = displayDate(clock.now().toISOString());
      const bytes =
        p.language === "ESCPOS"
          ? encodeEscPosReceipt(
              {
                shop: caller.agent.name,
                ticketId: 0,
                date: today.replaceAll("/", "-"),
                customer: { name: "Test print" },
                items: [{ name: p.name, total: "€0.00" }],
                showPrices: true,
                totals: { subtotal: "€0.00", vat: "€0.00", total: "€0.00", paid: "€0.00", due: "€0.00" },
                stamp: { agent: caller.agent.name, employee: caller.employee.full_name, employeeId: caller.employee.id },
              },
              p.paper,
            )
          : LABEL_ENCODERS[p.language]!({
              ticketId: 0,
              itemId: 0,
              description: "Test label",
              piece: p.name,
              agent: caller.agent.name,
              date: today,
              tallies: [],
            });
      return {
        jobs: await journal.enqueue(caller, p.id, [{ kind: "test", encoding: p.language, bytes }], {
          audited: { action: "test_print", detail: { printer: p.id, name: p.name } },
        }),
      };
    },
  };
}
export type PrintService = ReturnType<typeof createPrintService>;
