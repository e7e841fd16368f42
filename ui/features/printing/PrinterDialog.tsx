import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "../../components/toast";
import { api } from "../../lib/api";
import { bleAvailable, bleUnavailableReason } from "../../lib/ble";
import { agentToken, employeeToken } from "../../lib/session";
import {
  blePrinters,
  choice,
  rawbtLink,
  type Device,
  type Encoding,
  labelEncoding,
  pairBle,
  type Port,
  type PrinterChoice,
  printTicket,
  progress,
  reprintFromHere,
  saveChoice,
} from "./printer";

type Channel = Port | "pdf";
const CHANNELS: { id: Channel; label: string }[] = [
  { id: "u", label: "USB" },
  { id: "b", label: "Bluetooth" },
  { id: "ble", label: "BLE" },
  { id: "rbt", label: "RAWBT" },
  { id: "pdf", label: "PDF" },
];
const ENCODINGS: { id: Encoding; label: string }[] = [
  { id: "PPLZ", label: "PPLZ" },
  { id: "PPLA", label: "PPLA" },
  { id: "ESCPOS", label: "ESC/POS" },
];

/** The ticket PDF (spec §7): a download named by the box, or a preview in a new tab. */
export const ticketPdfUrl = (ticketId: number, preview: boolean, itemIds?: number[]) =>
  `/api/v1/tickets/pdf/${ticketId}?Employee=${encodeURIComponent(employeeToken.value ?? "")}&Agent=${encodeURIComponent(agentToken.value ?? "")}${itemIds?.length ? `&ticketSubCategories=${itemIds.join(",")}` : ""}${preview ? "&preview=true" : ""}`;

/**
 * The printer dialog (spec §2): channels USB, Bluetooth, BLE, RAWBT and PDF; device lists
 * with refresh; the encoding (PPLZ, PPLA, ESC/POS); and a search that resets the lists, the
 * chosen printer and the encoding, then picks the single USB or BLE device it finds. PPLZ
 * and PPLA print the item labels, ESC/POS the receipt.
 */
export function PrinterDialog({
  ticketId,
  empty,
  itemIds,
  onClose,
  onPrinted,
}: {
  ticketId: number;
  empty: boolean;
  itemIds?: number[];
  onClose: () => void;
  onPrinted?: () => void;
}) {
  useSignals();
  const c = choice.value;
  const [channel, setChannel] = useState<Channel>(c.port);
  const [devices, setDevices] = useState<Device[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [handed, setHanded] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const close = () => {
    onClose();
    // A RawBT hand-over finishes when the dialog closes. The intent has gone once its link is
    // set, before the jobs' results are posted: a Close tapped in between finishes it too.
    if (handed || rawbtLink.value) onPrinted?.();
  };
  const p = progress.value?.ticketId === ticketId ? progress.value : null;
  const set = (patch: Partial<PrinterChoice>) => saveChoice({ ...choice.value, ...patch });

  const refresh = useCallback(async () => setDevices(await api<Device[]>("GET", "/printers/devices").catch(() => [])), []);
  useEffect(() => {
    progress.value = null;
    rawbtLink.value = null;
    box.current?.focus(); // keyboard and screen-reader users land in the dialog
    void refresh();
  }, [refresh]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);

  async function search() {
    // Spec §2: reset the lists, the chosen printer and the encoding first.
    setDevices(null);
    saveChoice({ ...choice.value, printer: undefined, device: undefined, encoding: "" });
    const found = (await api<Device[]>("GET", "/printers/devices").catch(() => [])) ?? [];
    setDevices(found);
    const usb = found.filter((d) => d.port === "u" && d.state !== "offline");
    const ble = blePrinters.value;
    if (usb.length + ble.length === 1) {
      if (usb[0]) {
        set({ port: "u", printer: usb[0].id, encoding: usb[0].encoding });
        setChannel("u");
      } else {
        set({ port: "ble", device: ble[0]!.name, encoding: "ESCPOS" });
        setChannel("ble");
      }
      toast(`Found ${usb[0]?.name ?? ble[0]!.name}`);
    } else
      toast(
        usb.length + ble.length ? `Found ${usb.length + ble.length} printers: choose one` : "No printer found",
        usb.length + ble.length ? "success" : "warning",
      );
  }

  function pick(ch: Channel) {
    setChannel(ch);
    if (ch !== "pdf") set({ port: ch });
  }

  async function print() {
    const now = choice.value;
    if (empty) return toast("Ticket is empty", "warning");
    if (((now.port === "u" || now.port === "b") && !now.printer) || (now.port === "ble" && !now.device)) return toast("Select Port", "warning");
    if (!now.encoding) return toast("Choose an encoding: PPLZ or PPLA for labels, ESC/POS for the receipt", "warning");
    setBusy(true);
    const ok = await printTicket(ticketId, { itemIds });
    setBusy(false);
    if (ok && now.port === "rbt") {
      // The intent has gone to RawBT; the dialog stays so its link can be tapped, and Close finishes.
      setHanded(true);
      toast("Sent to RawBT");
    } else if (ok) {
      const total = progress.value?.total ?? 1;
      toast(total > 1 ? `Printed ${total}` : "Printed");
      onPrinted?.();
    }
  }
  async function reprint() {
    setBusy(true);
    const ok = await reprintFromHere();
    setBusy(false);
    if (ok) onPrinted?.();
  }

  const list = channel === "u" || channel === "b" ? (devices ?? []).filter((d) => d.port === channel) : [];
  const pdf = (preview: boolean) => {
    if (empty) return toast("Ticket is empty", "warning");
    if (preview) window.open(ticketPdfUrl(ticketId, true, itemIds), "_blank", "noopener");
    else {
      const a = document.createElement("a");
      a.href = ticketPdfUrl(ticketId, false, itemIds);
      a.download = "";
      a.click();
    }
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop closes the dialog; Escape does from the keyboard
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes the dialog from the keyboard (window listener above)
    <div className="overlay" onClick={onClose}>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: only stops a click inside the dialog from reaching the backdrop */}
      <div
        ref={box}
        tabIndex={-1}
        className="dialog printer-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="printer-title"
        onClick={(e) => e.stopPropagation()}
      >
        <h2 id="printer-title">Print ticket #{ticketId}</h2>
        <div className="tabs" role="tablist" aria-label="Channel">
          {CHANNELS.map((ch) => (
            <button
              key={ch.id}
              type="button"
              role="tab"
              aria-selected={channel === ch.id}
              className={`tab ${channel === ch.id ? "tab-on" : ""}`}
              onClick={() => pick(ch.id)}
            >
              {ch.label}
            </button>
          ))}
        </div>

        {(channel === "u" || channel === "b") && (
          <>
            <div className="toolbar">
              <button type="button" className="btn btn-small" onClick={refresh}>
                Refresh
              </button>
              <button type="button" className="btn btn-small" onClick={search}>
                Search
              </button>
            </div>
            {devices === null ? (
              <p className="muted">Looking for printers…</p>
            ) : list.length === 0 ? (
              <p className="muted">
                {channel === "u"
                  ? "No printer on the box's USB or network. Plug one in and search, or set one up under Configuration → Printers."
                  : "No Bluetooth printer is bound on the box (rfcomm). See Configuration → Printers."}
              </p>
            ) : (
              <div role="radiogroup" aria-label="Devices" className="device-list">
                {list.map((d) => (
                  <label key={d.id} className={`device ${c.printer === d.id ? "device-on" : ""}`}>
                    <input
                      type="radio"
                      name="printer"
                      checked={c.printer === d.id}
                      onChange={() => set({ port: channel, printer: d.id, encoding: d.encoding })}
                    />
                    <span className="row-main">
                      <strong>{d.name}</strong>
                      <span className="muted small">
                        {[[d.manufacturerName, d.productName].filter(Boolean).join(" "), d.where].filter(Boolean).join(" · ")}
                      </span>
                    </span>
                    <span className={`badge gun-${d.state}`}>{d.state}</span>
                  </label>
                ))}
              </div>
            )}
          </>
        )}

        {channel === "ble" &&
          (bleAvailable() ? (
            <>
              <div className="toolbar">
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={async () =>
                    (await pairBle()) && set({ port: "ble", device: blePrinters.value.at(-1)!.name, encoding: choice.value.encoding || "ESCPOS" })
                  }
                >
                  Pair a printer
                </button>
                <button type="button" className="btn btn-small" onClick={search}>
                  Search
                </button>
              </div>
              <div role="radiogroup" aria-label="Devices" className="device-list">
                {blePrinters.value.map((d) => (
                  <label key={d.id} className={`device ${c.device === d.name ? "device-on" : ""}`}>
                    <input type="radio" name="printer" checked={c.device === d.name} onChange={() => set({ port: "ble", device: d.name })} />
                    <span className="row-main">
                      <strong>{d.name}</strong>
                    </span>
                  </label>
                ))}
              </div>
            </>
          ) : (
            <p className="muted">{bleUnavailableReason()}</p>
          ))}

        {channel === "rbt" && (
          <p className="muted">
            Sends the job to the RawBT app on this Android tablet, which prints to its paired printer.
            {rawbtLink.value && (
              <>
                {" "}
                If RawBT did not open: <a href={rawbtLink.value}>Send to RawBT</a>
              </>
            )}
          </p>
        )}

        {channel === "pdf" ? (
          <div className="dialog-buttons">
            <button type="button" className="btn" onClick={() => pdf(false)}>
              Download
            </button>
            <button type="button" className="btn btn-primary" onClick={() => pdf(true)}>
              Preview
            </button>
          </div>
        ) : (
          <>
            <div className="printer-form">
              <label className="field">
                <span>Encoding</span>
                <select aria-label="Encoding" value={c.encoding} onChange={(e) => set({ encoding: e.target.value as Encoding })}>
                  <option value="">Choose…</option>
                  {ENCODINGS.map((e) => (
                    <option key={e.id} value={e.id}>
                      {e.label}
                    </option>
                  ))}
                </select>
              </label>
              {labelEncoding(c.encoding) ? (
                <>
                  <label className="field">
                    <span>Label</span>
                    <select aria-label="Label" value={c.variant} onChange={(e) => set({ variant: e.target.value as PrinterChoice["variant"] })}>
                      <option value="normal">Normal</option>
                      <option value="smaller">Smaller</option>
                      <option value="nologo">No logo</option>
                    </select>
                  </label>
                  <label className="check">
                    <input type="checkbox" checked={c.mini} onChange={(e) => set({ mini: e.target.checked })} /> Mini labels (one per action)
                  </label>
                </>
              ) : c.encoding === "ESCPOS" ? (
                <label className="field">
                  <span>Paper</span>
                  <select aria-label="Paper" value={c.paper} onChange={(e) => set({ paper: e.target.value as PrinterChoice["paper"] })}>
                    <option value="80mm">80 mm</option>
                    <option value="58mm">58 mm</option>
                  </select>
                </label>
              ) : null}
            </div>
            {p && (
              <p className="print-progress" role="status">
                {p.failed ? (
                  <>
                    {p.failed.error.startsWith("Printer returned error") ? p.failed.error : `Printer returned error during print: ${p.failed.error}`}{" "}
                    <button type="button" className="btn btn-small" disabled={busy} onClick={reprint}>
                      Reprint from here
                    </button>
                  </>
                ) : (
                  `Printed ${p.done} of ${p.total}`
                )}
              </p>
            )}
            <div className="dialog-buttons">
              <button type="button" className="btn" onClick={close}>
                Close
              </button>
              <button type="button" className="btn btn-primary" disabled={busy} onClick={print}>
                {labelEncoding(c.encoding)
                  ? itemIds?.length
                    ? "Print labels of this item"
                    : "Print labels"
                  : c.encoding === "ESCPOS"
                    ? "Print receipt"
                    : "Print"}
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}

/** A print button that opens the printer dialog for a ticket (or some of its items). */
export function PrintButton({
  ticketId,
  empty,
  itemIds,
  onPrinted,
  label = "Print",
}: {
  ticketId: number;
  empty: boolean;
  itemIds?: number[];
  onPrinted?: () => void;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn" onClick={() => (empty ? toast("Ticket is empty", "warning") : setOpen(true))}>
        {label}
      </button>
      {open && <PrinterDialog ticketId={ticketId} empty={empty} itemIds={itemIds} onClose={() => setOpen(false)} onPrinted={onPrinted} />}
    </>
  );
}
