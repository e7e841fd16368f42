import { useEffect, useRef, useState } from "react";
import { toast } from "../../components/toast";
import { api, apiList } from "../../lib/api";
import { agentToken, currentToken, employeeToken } from "../../lib/session";

interface Printer {
  id: string;
  name: string;
  language: "PPLZ" | "ESCPOS";
}
interface JobEvent {
  job: number;
  status: "queued" | "sending" | "done" | "failed";
  error?: string | null;
}

/**
 * Print buttons for a ticket: labels to a label printer, a receipt to a receipt printer
 * (both through the box's print journal), or the ticket PDF. Spec §5: an empty ticket is not
 * printed ('Ticket is empty'); without a printer chosen: 'Select Port'. Job progress comes
 * back over /api/v1/events; a failure offers "reprint from here".
 */
export function PrintMenu({ ticketId, empty, onPrinted }: { ticketId: number; empty: boolean; onPrinted?: () => void }) {
  const [printers, setPrinters] = useState<Printer[]>([]);
  const [choice, setChoice] = useState<string>(() => localStorage.getItem("ironbox.printer") ?? "");
  const [jobs, setJobs] = useState<Record<number, JobEvent>>({});
  // A fast printer can finish before the request that queued the jobs has answered: keep
  // every job state seen, and apply it when the job ids arrive.
  const seen = useRef(new Map<number, JobEvent>());
  useEffect(() => void apiList<Printer>("/printers/").then(setPrinters), []);
  useEffect(() => {
    const es = new EventSource(`/api/v1/events?token=${encodeURIComponent(currentToken() ?? "")}`);
    es.addEventListener("print", (e) => {
      const ev = JSON.parse((e as MessageEvent).data) as JobEvent;
      seen.current.set(ev.job, ev);
      setJobs((j) => (j[ev.job] ? { ...j, [ev.job]: ev } : j));
    });
    return () => es.close();
  }, []);

  const mine = Object.values(jobs);
  const done = mine.filter((j) => j.status === "done").length;
  const failed = mine.find((j) => j.status === "failed");

  async function print(kind: "labels" | "receipt") {
    if (empty) return toast("Ticket is empty", "warning");
    const printer = printers.find((p) => p.id === choice);
    if (!printer) return toast("Select Port", "warning");
    localStorage.setItem("ironbox.printer", printer.id);
    const r = await api<{ jobs: number[] }>("POST", `/print/${kind}`, { body: { ticket_id: ticketId, printer: printer.id } }).catch(() => null);
    if (!r) return;
    setJobs(Object.fromEntries(r.jobs.map((id) => [id, seen.current.get(id) ?? { job: id, status: "queued" as const }])));
    onPrinted?.();
  }
  async function reprint() {
    if (!failed) return;
    await api("POST", `/printJobs/${failed.job}/retry`).catch(() => null);
    setJobs((j) => Object.fromEntries(Object.entries(j).map(([k, v]) => [k, v.status === "failed" ? { ...v, status: "queued" as const, error: null } : v])));
  }
  const pdf = (preview: boolean) =>
    `/api/v1/tickets/pdf/${ticketId}?Employee=${encodeURIComponent(employeeToken.value ?? "")}&Agent=${encodeURIComponent(agentToken.value ?? "")}${preview ? "&preview=true" : ""}`;

  return (
    <div className="print-menu" aria-label="Printing">
      <select aria-label="Printer" value={choice} onChange={(e) => setChoice(e.target.value)}>
        <option value="">Printer…</option>
        {printers.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} ({p.language === "PPLZ" ? "labels" : "receipts"})
          </option>
        ))}
      </select>
      <button type="button" className="btn" onClick={() => print("labels")}>
        Labels
      </button>
      <button type="button" className="btn" onClick={() => print("receipt")}>
        Receipt
      </button>
      <a className="btn" href={empty ? undefined : pdf(true)} target="_blank" rel="noopener" onClick={(e) => empty && (e.preventDefault(), toast("Ticket is empty", "warning"))}>
        PDF
      </a>
      {mine.length > 0 && (
        <span className="print-progress" role="status">
          {failed ? (
            <>
              Printer returned error during print: {failed.error}{" "}
              <button type="button" className="btn btn-small" onClick={reprint}>
                Reprint from here
              </button>
            </>
          ) : (
            `Printed ${done} of ${mine.length}`
          )}
        </span>
      )}
    </div>
  );
}
