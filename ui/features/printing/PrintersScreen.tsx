import { useCallback, useEffect, useState } from "react";
import { displayDateTime } from "../../../appliance/domain/format";
import type { DeviceRow, Encoding, Printer as PrinterConfig, PrinterSettings, PrintJob, SettingsInvalid } from "../../../appliance/modules/printing/model";
import { Field, Section } from "../../components/form";
import { toast } from "../../components/toast";
import { api, ApiError } from "../../lib/api";

const LANGUAGES: { id: Encoding; label: string }[] = [
  { id: "PPLZ", label: "PPLZ (labels)" },
  { id: "PPLA", label: "PPLA (labels)" },
  { id: "ESCPOS", label: "ESC/POS (receipts)" },
];
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40) || "printer";

/**
 * The box's printers (Configuration → Printers): what is set up with its honest state, what
 * is attached and not yet set up, and network printers added by address. Tablets then choose
 * among them in the printer dialog.
 */
export function PrintersScreen() {
  const [saved, setSaved] = useState<PrinterConfig[]>([]);
  const [invalid, setInvalid] = useState<SettingsInvalid | null>(null);
  const [rows, setRows] = useState<DeviceRow[] | null>(null);
  const [jobs, setJobs] = useState<PrintJob[]>([]);
  const [net, setNet] = useState({ name: "", host: "", port: "9100", language: "ESCPOS" as Encoding });
  const load = useCallback(async () => {
    const settings = await api<PrinterSettings>("GET", "/printers/settings");
    setSaved(settings.printers);
    setInvalid(settings.invalid ?? null);
    setRows(await api<DeviceRow[]>("GET", "/printers/devices"));
    setJobs(await api<PrintJob[]>("GET", "/printJobs/", { query: { limit: 20 } }));
  }, []);
  useEffect(() => void load().catch(() => {}), [load]);

  async function save(next: PrinterConfig[]) {
    try {
      setSaved(await api<PrinterConfig[]>("PUT", "/printers/", { body: next, quiet: true }));
      setInvalid(null); // a good list replaces settings that no longer validated
      setRows(await api<DeviceRow[]>("GET", "/printers/devices"));
      toast("Settings saved.");
    } catch (e) {
      toast(e instanceof ApiError ? e.message : "Something went wrong", "danger");
    }
  }
  const update = (id: string, patch: Partial<PrinterConfig>) => save(saved.map((p) => (p.id === id ? { ...p, ...patch } : p)));
  function add(p: PrinterConfig) {
    let id = p.id;
    for (let n = 2; saved.some((x) => x.id === id); n++) id = `${p.id.slice(0, 36)}-${n}`;
    void save([...saved, { ...p, id }]);
  }
  async function test(id: string) {
    const r = await api<{ jobs: number[] }>("POST", `/printers/${id}/test`).catch(() => null);
    if (!r) return;
    toast("Test page sent; see the printer");
    setTimeout(() => void load().catch(() => {}), 500); // the journal shows how it went
  }
  function addNetwork() {
    const port = Number(net.port);
    if (!net.host.trim()) return toast("Enter the printer's address", "warning");
    if (!Number.isInteger(port) || port < 1 || port > 65535) return toast("The port is a number from 1 to 65535", "warning");
    const name = net.name.trim() || `Printer at ${net.host.trim()}`;
    add({ id: slug(name), name, language: net.language, paper: "80mm", target: { kind: "tcp", host: net.host.trim(), port } });
    setNet({ ...net, name: "", host: "" });
  }

  const attached = (rows ?? []).filter((r) => !r.saved && r.setup);
  return (
    <div className="stack">
      {invalid && <SettingsInvalidBanner what="printer" invalid={invalid} />}
      <Section title="Printers at the box">
        {saved.length === 0 ? (
          <p className="muted">No printer is set up. Plug one into the box and add it below, or add a network printer.</p>
        ) : (
          <ul className="list" aria-label="Printers">
            {saved.map((p) => {
              const row = rows?.find((r) => r.id === p.id);
              return (
                <li key={p.id} className="row-link">
                  <span className="row-main">
                    <strong>{p.name}</strong>
                    <span className="muted">{row?.where ?? ""}</span>
                  </span>
                  <span className="toolbar">
                    <select aria-label={`Language of ${p.name}`} value={p.language} onChange={(e) => update(p.id, { language: e.target.value as Encoding })}>
                      {LANGUAGES.map((l) => (
                        <option key={l.id} value={l.id}>
                          {l.label}
                        </option>
                      ))}
                    </select>
                    {p.language === "ESCPOS" && (
                      <select
                        aria-label={`Paper of ${p.name}`}
                        value={p.paper}
                        onChange={(e) => update(p.id, { paper: e.target.value as PrinterConfig["paper"] })}
                      >
                        <option value="80mm">80 mm</option>
                        <option value="58mm">58 mm</option>
                      </select>
                    )}
                    <span className={`badge gun-${row?.state ?? "unknown"}`}>{row?.state ?? "unknown"}</span>
                    <button type="button" className="btn btn-small" onClick={() => test(p.id)}>
                      Test print
                    </button>
                    <button type="button" className="btn btn-small btn-danger" onClick={() => save(saved.filter((x) => x.id !== p.id))}>
                      Remove
                    </button>
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </Section>
      <Section
        title="Attached to the box"
        actions={
          <button type="button" className="btn btn-small" onClick={() => load()}>
            Refresh
          </button>
        }
      >
        {rows === null ? (
          <p className="muted">Looking…</p>
        ) : attached.length === 0 ? (
          <p className="muted">
            Nothing attached that is not set up already. USB printers, USB-serial printers and Bluetooth printers bound with rfcomm show here.
          </p>
        ) : (
          <ul className="list" aria-label="Attached printers">
            {attached.map((d) => (
              <li key={d.id} className="row-link">
                <span className="row-main">
                  <strong>{d.name}</strong>
                  <span className="muted">
                    {[d.manufacturerName, d.productName, d.serialNumber && `S/N ${d.serialNumber}`].filter(Boolean).join(" · ")} · {d.where} ·{" "}
                    {d.class === "unknown" ? "label or receipt: choose the language after adding" : `${d.class} printer`}
                  </span>
                </span>
                <button type="button" className="btn btn-small btn-primary" onClick={() => add(d.setup!)}>
                  Add
                </button>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section
        title="Recent print jobs"
        actions={
          <button type="button" className="btn btn-small" onClick={() => load()}>
            Refresh
          </button>
        }
      >
        {jobs.length === 0 ? (
          <p className="muted">Nothing printed yet.</p>
        ) : (
          <ul className="list" aria-label="Print jobs">
            {jobs.map((j) => (
              <li key={j.id} className="row-link">
                <span className="row-main">
                  <strong>
                    {j.kind} {j.ticket_id ? `· ticket #${j.ticket_id}` : ""}
                  </strong>
                  <span className="muted">
                    {displayDateTime(j.created_at)} · {saved.find((p) => p.id === j.printer)?.name ?? j.printer}
                    {j.error ? ` · ${j.error}` : ""}
                  </span>
                </span>
                <span className="toolbar">
                  <span className={`badge job-${j.status}`}>{j.status}</span>
                  {j.status === "failed" && !/^(ble|rbt):/.test(j.printer) && (
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={async () => (await api("POST", `/printJobs/${j.id}/retry`).catch(() => null)) && setTimeout(load, 500)}
                    >
                      Reprint from here
                    </button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Network printer (port 9100)">
        <div className="printer-form">
          <Field label="Name">
            <input aria-label="Network printer name" placeholder="Till printer" value={net.name} onChange={(e) => setNet({ ...net, name: e.target.value })} />
          </Field>
          <Field label="Address">
            <input
              aria-label="Network printer address"
              placeholder="192.168.1.50"
              value={net.host}
              onChange={(e) => setNet({ ...net, host: e.target.value })}
            />
          </Field>
          <Field label="Port">
            <input aria-label="Network printer port" inputMode="numeric" value={net.port} onChange={(e) => setNet({ ...net, port: e.target.value })} />
          </Field>
          <Field label="Language">
            <select aria-label="Network printer language" value={net.language} onChange={(e) => setNet({ ...net, language: e.target.value as Encoding })}>
              {LANGUAGES.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.label}
                </option>
              ))}
            </select>
          </Field>
          <button type="button" className="btn btn-primary" onClick={addNetwork}>
            Add network printer
          </button>
        </div>
      </Section>
    </div>
  );
}

/**
 * Stored settings that no longer validate (printers or guns): the box uses none of them until
 * an admin saves a good list, which replaces them.
 */
export function SettingsInvalidBanner({ what, invalid }: { what: "printer" | "gun"; invalid: SettingsInvalid }) {
  return (
    <p className="form-error" role="alert">
      <strong>Stored {what} settings invalid:</strong> {invalid.message}. The box uses none of them until a list is saved: adding or removing a {what} replaces
      them.
    </p>
  );
}
