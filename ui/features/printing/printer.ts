import { signal } from "@preact/signals-react";
import type { DeviceRow, Encoding, Port, PrintResult } from "../../../appliance/modules/printing/model";
import { toast } from "../../components/toast";
import { api, ApiError } from "../../lib/api";
import { pairBlePrinter } from "../../lib/ble";
import { rawbtUrl } from "../../lib/rawbt";
import { currentToken } from "../../lib/session";

export type { Encoding, Port };
export type Variant = "normal" | "smaller" | "nologo";

/** What this tablet prints to, remembered between tickets. */
export interface PrinterChoice {
  port: Port;
  /** A box printer (ports u and b). */
  printer?: string;
  /** The BLE printer's name (port ble). */
  device?: string;
  encoding: Encoding | "";
  paper: "80mm" | "58mm";
  variant: Variant;
  mini: boolean;
}

/** A device row from GET /printers/devices: the server's type (spec §3 printer device fields, plus where and state). */
export type Device = Omit<DeviceRow, "setup">;

export interface BlePrinter {
  id: string;
  name: string;
  print(bytes: Uint8Array, onProgress?: (sent: number, total: number) => void): Promise<void>;
}

const KEY = "ironbox.printerChoice";
const DEFAULT: PrinterChoice = { port: "u", encoding: "", paper: "80mm", variant: "normal", mini: false };

function load(): PrinterChoice {
  try {
    return { ...DEFAULT, ...(JSON.parse(localStorage.getItem(KEY) ?? "{}") as Partial<PrinterChoice>) };
  } catch {
    return DEFAULT;
  }
}
export const choice = signal<PrinterChoice>(load());
export function saveChoice(c: PrinterChoice) {
  choice.value = c;
  localStorage.setItem(KEY, JSON.stringify(c));
}

/** BLE printers paired in this page's life: Web Bluetooth hands out devices per session. */
export const blePrinters = signal<BlePrinter[]>([]);
export async function pairBle(): Promise<BlePrinter | null> {
  try {
    const p = await pairBlePrinter();
    blePrinters.value = [...blePrinters.value.filter((x) => x.id !== p.id), p];
    return p;
  } catch (e) {
    toast(e instanceof Error ? e.message : String(e), "danger");
    return null;
  }
}

/** A batch's progress: shown as "Printed n of m", or the failure with "reprint from here". */
export interface Progress {
  ticketId: number;
  total: number;
  done: number;
  failed?: { job: number; error: string };
}
export const progress = signal<Progress | null>(null);
/**
 * Bumped each time the box accepts a batch of labels from this tablet (any screen, any port):
 * the box has then set the items MARKED with tomorrow's process date, so views of the weekly
 * workload reload (spec §4 "Label printing refreshes weekly workload statistics").
 */
export const labelsPrinted = signal(0);
/** The last batch handed to RawBT, as the intent link the dialog offers to tap. */
export const rawbtLink = signal<string | null>(null);

export const labelEncoding = (e: Encoding | "") => e === "PPLZ" || e === "PPLA";

const fromBase64 = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

/**
 * Prints a ticket's labels (PPLZ, PPLA) or receipt (ESC/POS) the way `c` says, and resolves
 * true once every job printed, false if one failed or nothing was sent. Box printers print
 * through the box's journal (progress over /api/v1/events); BLE and RawBT jobs are journaled
 * on the box and sent from this tablet, which reports each one back.
 */
export async function printTicket(
  ticketId: number,
  opts: { itemIds?: number[]; kind?: "labels" | "receipt" } = {},
  c: PrinterChoice = choice.value,
): Promise<boolean> {
  const kind = opts.kind ?? (c.encoding === "ESCPOS" ? "receipt" : "labels");
  const needsDevice = (c.port === "u" || c.port === "b") && !c.printer;
  const ble = c.port === "ble" ? blePrinters.value.find((p) => p.name === c.device) : undefined;
  if (needsDevice || (c.port === "ble" && !ble)) {
    toast("Select Port", "warning");
    return false;
  }
  const body = {
    ticket_id: ticketId,
    port: c.port,
    ...(c.port === "u" || c.port === "b" ? { printer: c.printer } : { device: c.device }),
    ...(c.encoding ? { encoding: c.encoding } : {}),
    ...(opts.itemIds?.length ? { item_ids: opts.itemIds } : {}),
    ...(kind === "labels" ? { variant: c.variant, mini: c.mini } : { paper: c.paper }),
  };
  const watch = c.port === "u" || c.port === "b" ? watchJobs(ticketId) : null;
  try {
    await watch?.ready;
    const r = await api<PrintResult>("POST", `/print/${kind}`, { body });
    if (kind === "labels") labelsPrinted.value++;
    progress.value = { ticketId, total: r.jobs.length, done: 0 };
    if (watch) return await watch.until(r.jobs);
    return await sendFromTablet(c, ble, r.payloads ?? []);
  } catch (e) {
    if (!(e instanceof ApiError)) toast(e instanceof Error ? e.message : String(e), "danger");
    progress.value = null;
    return false;
  } finally {
    watch?.close();
  }
}

/**
 * Rack labels (issue 25) on this tablet's label printer, the way `c` says; true once every
 * label printed. Like printTicket, minus the ticket: nothing on the box changes but the journal.
 */
export async function printRackLabels(names: string[], c: PrinterChoice = choice.value): Promise<boolean> {
  const ble = c.port === "ble" ? blePrinters.value.find((p) => p.name === c.device) : undefined;
  if (((c.port === "u" || c.port === "b") && !c.printer) || (c.port === "ble" && !ble) || !labelEncoding(c.encoding || "PPLZ")) {
    toast("Choose a label printer first (Print on a ticket, or the printer dialog)", "warning");
    return false;
  }
  const body = {
    names,
    port: c.port,
    ...(c.port === "u" || c.port === "b" ? { printer: c.printer } : { device: c.device }),
    ...(c.encoding ? { encoding: c.encoding } : {}),
    variant: c.variant,
  };
  const watch = c.port === "u" || c.port === "b" ? watchJobs() : null;
  try {
    await watch?.ready;
    const r = await api<PrintResult>("POST", "/print/rackLabels", { body });
    if (watch) return await watch.until(r.jobs);
    return await sendFromTablet(c, ble, r.payloads ?? []);
  } catch (e) {
    if (!(e instanceof ApiError)) toast(e instanceof Error ? e.message : String(e), "danger");
    return false;
  } finally {
    watch?.close();
  }
}

/** Sends jobs from this tablet: one after another to the BLE printer, or all at once to RawBT. Stops at the first failure. */
async function sendFromTablet(c: PrinterChoice, ble: BlePrinter | undefined, payloads: { job: number; data: string }[]): Promise<boolean> {
  if (c.port === "rbt") {
    // RawBT takes one raw stream: every label of the batch goes in one intent.
    const parts = payloads.map((p) => fromBase64(p.data));
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let off = 0;
    for (const p of parts) all.set(p, (off += p.length) - p.length);
    // Android opens RawBT from the intent; where the browser wants a fresh tap for an app
    // link, the dialog shows the same link to tap.
    rawbtLink.value = rawbtUrl(all);
    window.location.href = rawbtLink.value;
    for (const p of payloads) await api("POST", `/printJobs/${p.job}/result`, { body: { ok: true }, quiet: true }).catch(() => {});
    progress.value = progress.value && { ...progress.value, done: payloads.length };
    return true;
  }
  for (const p of payloads) {
    try {
      await ble!.print(fromBase64(p.data));
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      await api("POST", `/printJobs/${p.job}/result`, { body: { ok: false, error }, quiet: true }).catch(() => {});
      progress.value = progress.value && { ...progress.value, failed: { job: p.job, error } };
      return false;
    }
    await api("POST", `/printJobs/${p.job}/result`, { body: { ok: true }, quiet: true }).catch(() => {});
    progress.value = progress.value && { ...progress.value, done: progress.value.done + 1 };
  }
  return true;
}

/** Reprint from here: the failed job and the ones after it, on the same printer. */
export async function reprintFromHere(c: PrinterChoice = choice.value): Promise<boolean> {
  const p = progress.value;
  if (!p?.failed) return false;
  const tablet = c.port === "ble" || c.port === "rbt";
  const watch = tablet ? null : watchJobs(p.ticketId);
  try {
    await watch?.ready;
    const r = await api<{ jobs: number[] }>("POST", `/printJobs/${p.failed.job}/retry`);
    progress.value = { ...p, failed: undefined };
    if (watch) return await watch.until(r.jobs, p.done);
    const payloads = await Promise.all(
      r.jobs.map((id) => api<{ id: number; data: string }>("GET", `/printJobs/${id}/payload`).then((x) => ({ job: x.id, data: x.data }))),
    );
    return await sendFromTablet(
      c,
      blePrinters.value.find((b) => b.name === c.device),
      payloads,
    );
  } catch {
    return false;
  } finally {
    watch?.close();
  }
}

interface JobEvent {
  job: number;
  status: "queued" | "sending" | "done" | "failed";
  error?: string | null;
}

/**
 * Follows box print jobs over /api/v1/events. The stream opens before the print request, and
 * every state seen is kept, so a fast printer that finishes before the request answers is not
 * missed; the ticket's journal is also read every 2 s in case the stream drops.
 */
function watchJobs(ticketId?: number) {
  const seen = new Map<number, JobEvent>();
  let wake = () => {};
  const es = new EventSource(`/api/v1/events?token=${encodeURIComponent(currentToken() ?? "")}`);
  es.addEventListener("print", (e) => {
    const ev = JSON.parse((e as MessageEvent).data) as JobEvent;
    seen.set(ev.job, ev);
    wake();
  });
  const ready = new Promise<void>((resolve) => {
    es.addEventListener("open", () => resolve());
    setTimeout(resolve, 1000); // never hold a print back for the stream
  });
  return {
    ready,
    close: () => es.close(),
    async until(ids: number[], doneBefore = 0): Promise<boolean> {
      let poll = Date.now();
      for (;;) {
        const states = ids.map((id) => seen.get(id));
        const failed = states.find((s) => s?.status === "failed");
        const done = states.filter((s) => s?.status === "done").length;
        const p = progress.value;
        if (p) progress.value = { ...p, done: doneBefore + done, ...(failed ? { failed: { job: failed.job, error: failed.error ?? "" } } : {}) };
        if (failed) return false;
        if (done === ids.length) return true;
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 2000);
        });
        if (Date.now() - poll >= 2000) {
          poll = Date.now();
          const rows = await api<{ id: number; status: JobEvent["status"]; error: string | null }[]>("GET", "/printJobs/", {
            query: ticketId ? { ticket_id: ticketId, limit: 500 } : { limit: 500 },
            quiet: true,
          }).catch(() => []);
          for (const r of rows) if (ids.includes(r.id)) seen.set(r.id, { job: r.id, status: r.status, error: r.error });
        }
      }
    },
  };
}
