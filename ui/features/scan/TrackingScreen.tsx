import { useEffect, useRef, useState } from "react";
import { DateField } from "../../components/DateField";
import { useLocation, useSearch } from "wouter";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import { CREATED_STATE } from "../../../appliance/domain/states";
import { parseRackCode } from "../../../appliance/domain/racks";
import { confirmDialog } from "../../components/dialog";
import { printTicket } from "../printing/printer";
import { toast } from "../../components/toast";
import { ApiError } from "../../lib/api";
import { useList } from "../../lib/useList";
import { LoadFailed } from "../../components/LoadFailed";
import { GunPicker, useBoxGun } from "../../lib/boxGun";
import { decodeQr } from "../../lib/qr";
import type { Item } from "../../../appliance/modules/tickets/model";
import type { TrackedItem as Row } from "../../../appliance/modules/tracking/model";
import { listTicketStates } from "../tickets/api";
import { payItemDialog } from "../tickets/PayDialog";
import { PhotoViewer } from "../tickets/ItemRow";
import { getItem, scanCode, searchByDescription, setItemsState, setLocation, setProcessDate, toggleSorted } from "./api";
import { itemName, RackBar } from "./Racks";
import { SignaturePad, type SignatureHandle } from "./Signature";
import { isWedgeBurst, WEDGE_GAP_MS } from "./wedge";

const itemCount = (n: number) => `${n} item${n === 1 ? "" : "s"}`;
const pieces = (r: Row) => (r.pieces ? r.pieces.split(",") : [r.description || "Item"]);
const MODES = [
  { label: "Code", desc: false, href: "/tracking" },
  { label: "Description", desc: true, href: "/tracking?type=desc" },
] as const;
/** In description mode a scanned label (a gun types into the box too) or a typed ticket number still counts as a code. */
const isCode = (text: string) => /^#?\d+$/.test(text) || text.startsWith("!") || text.charAt(1) === "!";

/**
 * Spec §2 Tracking: scan codes or type a ticket number, keep a list of items, set a state on all of them
 * with a signature. Codes come from the scan box (Enter), a keyboard-wedge gun typing
 * anywhere, the camera (QR), or a gun wired to the box (paired below). With ?type=desc the box
 * finds items by description (a label that will not scan), to add one or all of them.
 */
export function TrackingScreen({ params }: { params: Record<string, string | undefined> }) {
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const byDesc = search.get("type") === "desc";
  const [found, setFound] = useState<Row[] | null>(null);
  const [rows, setRows] = useState<Row[]>([]);
  const [code, setCode] = useState("");
  const stateList = useList(listTicketStates);
  const states = (stateList.items ?? []).filter((x) => x.name !== CREATED_STATE);
  const [state, setState] = useState("");
  const [camera, setCamera] = useState(false);
  const [toPrint, setToPrint] = useState<Set<number>>(new Set());
  /** Issue 25: after a rack label is scanned, each scanned item goes on that rack until Done. */
  const [rack, setRack] = useState<string | null>(null);
  const rackRef = useRef(rack);
  rackRef.current = rack;
  const input = useRef<HTMLInputElement>(null);
  const sig = useRef<SignatureHandle>(null);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  /** Adds the items not yet on the list and answers how many that was ("Already in List" when none). */
  function addRows(items: Row[]) {
    const known = new Set(rowsRef.current.map((x) => x.id));
    const fresh = items.filter((i) => !known.has(i.id));
    if (!fresh.length) toast("Already in List", "warning", "top");
    else setRows((old) => [...old, ...fresh]);
    return fresh.length;
  }

  /** Puts rows on a rack (or "" off it) and shows their new place; false when the box refused. */
  async function place(items: Row[], location: string) {
    try {
      await setLocation({ Ids: items.map((i) => i.id) }, location);
    } catch (e) {
      toast(e instanceof ApiError ? e.message : "Could not set the location", "danger", "top");
      return false;
    }
    const ids = new Set(items.map((i) => i.id));
    const known = new Set(rowsRef.current.map((x) => x.id));
    setRows((old) => [...old.map((r) => (ids.has(r.id) ? { ...r, location } : r)), ...items.filter((i) => !known.has(i.id)).map((i) => ({ ...i, location }))]);
    return true;
  }

  async function scan(raw: string) {
    const text = raw.trim();
    if (!text) return toast("Ticket Number UNDEFINED!", "danger", "top");
    const rackName = parseRackCode(text);
    if (rackName) {
      setRack(rackName);
      return toast(`Putting on rack ${rackName}: scan the bags`, "success", "top");
    }
    try {
      const r = await scanCode(text);
      const onRack = rackRef.current;
      if (onRack !== null) {
        if (await place(r.items, onRack)) toast(`${itemCount(r.items.length)} on ${onRack}`, "success", "top");
        return;
      }
      if (!addRows(r.items)) return;
      // At the top: a toast at the bottom would cover "Set a state" (issue 25).
      toast("Scan Successful", "success", "top");
      // Ready for the next scan, whatever it came from (camera, gun, keystrokes).
      const active = document.activeElement as HTMLElement | null;
      if (!active || !["INPUT", "SELECT", "TEXTAREA"].includes(active.tagName)) input.current?.focus();
    } catch (e) {
      toast(e instanceof ApiError ? e.message : "Scan failed", "danger", "top");
    }
  }

  // The listener below is added once; it calls the scan of the latest render.
  const scanRef = useRef(scan);
  scanRef.current = scan;

  /** type=desc: the items whose description holds the text, to pick from. */
  async function lookUp(raw: string) {
    const text = raw.trim();
    if (text.length < 2) return toast("Type at least 2 letters of the description", "warning", "top");
    try {
      const r = await searchByDescription(text);
      setFound(r);
      if (!r.length) toast(`No item found for "${text}"`, "warning", "top");
    } catch (e) {
      toast(e instanceof ApiError ? e.message : "Search failed", "danger", "top");
    }
  }
  function addFound(items: Row[]) {
    const added = addRows(items);
    if (added) toast(added === 1 ? "Item added" : `Added ${added} items`, "success", "top");
    const ids = new Set(items.map((i) => i.id));
    setFound((f) => f && f.filter((i) => !ids.has(i.id)));
  }

  // /tracking/{id}: type=ticket opens a ticket, type=desc looks the text up; otherwise the id is an item.
  useEffect(() => {
    if (!params.id) return;
    if (byDesc) void lookUp(params.id);
    else void scan(search.get("type") === "ticket" ? `!T!T:${params.id}` : `!I!I:${params.id}`);
  }, [params.id]);

  // A keyboard-wedge gun types fast (or types one of our label codes) and ends with Enter;
  // when no field has focus, catch it (wedge.ts says what counts as a gun's burst).
  useEffect(() => {
    let buf = "";
    let startedAt = 0;
    let lastAt = 0;
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
      const now = performance.now();
      if (now - lastAt > WEDGE_GAP_MS) (buf = ""), (startedAt = now);
      lastAt = now;
      if (e.key === "Enter") {
        if (isWedgeBurst(buf, now - startedAt)) void scanRef.current(buf);
        buf = "";
      } else if (e.key.length === 1) buf += e.key;
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const gun = useBoxGun((c) => void scan(c));

  async function refresh(id: number, patch: Promise<Item>) {
    const it = await patch.catch(() => null);
    if (it) setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...it } : r)));
  }

  /** Labels for the chosen items, on the label printer this tablet last printed to (the printer dialog's choice). */
  async function printLabels(list: Row[]) {
    if (!list.length) return toast("No items to submit", "warning");
    const byTicket = new Map<number, number[]>();
    for (const r of list) byTicket.set(r.ticket_id, [...(byTicket.get(r.ticket_id) ?? []), r.id]);
    for (const [ticketId, itemIds] of byTicket) if (!(await printTicket(ticketId, { itemIds, kind: "labels" }))) return;
    toast(`Printed ${itemCount(list.length)}`, "success", "top");
    setToPrint(new Set());
  }

  async function confirmAll() {
    if (!rows.length) return toast("No items to submit", "warning");
    if (!state) return toast("Select a state first", "warning");
    try {
      const r = await setItemsState(
        rows.map((x) => x.id),
        state,
        sig.current?.value() ?? undefined,
        true,
      );
      if (!r.success) throw new Error();
      toast(`Saved ${rows.length} items successfully`, "success", "top");
      setRows([]);
      sig.current?.clear();
    } catch {
      toast("Something went wrong.", "danger");
    }
  }

  return (
    <div className="stack tracking">
      <section className="card section">
        <div className="tabs" role="tablist" aria-label="Find items by">
          {MODES.map((m) => (
            <button
              key={m.label}
              type="button"
              role="tab"
              aria-selected={byDesc === m.desc}
              className={`tab ${byDesc === m.desc ? "tab-on" : ""}`}
              onClick={() => (setFound(null), navigate(m.href))}
            >
              {m.label}
            </button>
          ))}
        </div>
        <form
          className="toolbar"
          onSubmit={(e) => {
            e.preventDefault();
            if (byDesc && !isCode(code.trim())) void lookUp(code);
            else void scan(code);
            setCode("");
            input.current?.focus();
          }}
        >
          <input
            ref={input}
            className="search"
            aria-label={byDesc ? "Type a description or scan a code" : "Scan or type a code"}
            placeholder={byDesc ? "Type part of a description (or scan a code)" : "Scan a code or type a ticket number"}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoFocus
          />
          <button type="submit" className="btn btn-primary">
            Add
          </button>
          <button type="button" className="btn" onClick={() => setCamera(true)}>
            Camera
          </button>
          <GunPicker gun={gun} />
          {gun.failed}
        </form>
        <RackBar rack={rack} onRack={setRack} count={rows.length} onPlaceAll={(where) => place(rows, where)} />
        {camera && <CameraScanner onCode={(c) => void scan(c)} onClose={() => setCamera(false)} />}
        {byDesc && found && found.length > 0 && (
          <section aria-label="Found items">
            <div className="section-head">
              <h3>Found ({found.length})</h3>
              <button type="button" className="btn btn-small" onClick={() => addFound(found)}>
                Add all
              </button>
            </div>
            <ul className="list">
              {found.map((r) => (
                <li key={r.id} className="row-link" data-testid="found-row">
                  <span className="row-main">
                    <strong>{itemName(r, r.description)}</strong>
                    <span className="muted">
                      {r.customer_name} · {r.state || "(none)"} · process {displayDate(r.process_date)}
                    </span>
                  </span>
                  <button type="button" className="btn btn-small btn-primary" aria-label={`Add item ${r.id}`} onClick={() => addFound([r])}>
                    Add
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
      </section>

      <section className="card section" aria-label="Scanned items">
        <div className="section-head">
          <h2>Items ({rows.length})</h2>
          <span className="toolbar">
            <button type="button" className="btn btn-small" disabled={!toPrint.size} onClick={() => printLabels(rows.filter((r) => toPrint.has(r.id)))}>
              Print checked ({toPrint.size})
            </button>
            <button
              type="button"
              className="btn btn-small"
              onClick={async () => {
                if (rows.length && (await confirmDialog({ message: "Are you sure you want to clear the list?" }))) setRows([]);
              }}
            >
              Clear list
            </button>
          </span>
        </div>
        {rows.length === 0 && <p className="muted">Scan a label or a ticket to start.</p>}
        {rows.map((r) => (
          <div key={r.id} className="track-row" data-testid="track-row">
            <div className="track-main">
              <strong>{itemName(r)}</strong>
              <span className="muted">
                {r.customer_name} · {r.agent_name} · process {displayDate(r.process_date)}
              </span>
              <span className={r.location ? "track-location" : "muted"} data-testid="track-location">
                {r.location ? `On ${r.location}` : "Not on a rack"}
              </span>
              <span className="chips" aria-label={`Pieces of ${r.id}`}>
                {pieces(r).map((p) => {
                  const on = r.sorted_items.split(",").includes(p);
                  return (
                    <button
                      key={p}
                      type="button"
                      className={`chip ${on ? "chip-on" : ""}`}
                      aria-pressed={on}
                      onClick={() => refresh(r.id, toggleSorted(r.id, p))}
                    >
                      {p}
                    </button>
                  );
                })}
              </span>
            </div>
            <div className="track-side">
              <select
                aria-label={`State of item ${r.id}`}
                value={r.state}
                onChange={(e) =>
                  refresh(
                    r.id,
                    setItemsState([r.id], e.target.value).then(() => getItem(r.id)),
                  )
                }
              >
                {/* An item still in CREATED shows its real state (CREATED is not offered otherwise). */}
                {!states.some((s) => s.name === r.state) && <option value={r.state}>{r.state || "(none)"}</option>}
                {states.map((s) => (
                  <option key={s.id} value={s.name}>
                    {s.name || "(none)"}
                  </option>
                ))}
              </select>
              <DateField
                label={`Process date of item ${r.id}`}
                value={(r.process_date ?? "").slice(0, 10)}
                clearable={false}
                onChange={(d) => d && refresh(r.id, setProcessDate(r.id, d))}
              />
              {r.image_urls.length > 0 && <PhotoViewer urls={r.image_urls} />}
              <label className="toggle">
                <input
                  type="checkbox"
                  aria-label={`Print label of item ${r.id}`}
                  checked={toPrint.has(r.id)}
                  onChange={(e) => setToPrint((s) => (e.target.checked ? new Set(s).add(r.id) : new Set([...s].filter((x) => x !== r.id))))}
                />
                Print
              </label>
              <button type="button" className="btn btn-small" onClick={() => printLabels([r])}>
                Print label
              </button>
              <span className="price">Paid {euroFromEuros(r.total_paid)}</span>
              {r.balance > 0 ? (
                <button
                  type="button"
                  className="btn btn-small btn-primary"
                  onClick={() =>
                    void payItemDialog({ id: r.id, balance: r.balance, ticket_id: r.ticket_id, name: `${r.description || "Item"} · item ${r.id}` }).then(
                      (it) => it && refresh(r.id, Promise.resolve(it)),
                    )
                  }
                >
                  Pay {euroFromEuros(r.balance)} for this item
                </button>
              ) : (
                <span className="badge">PAID</span>
              )}
            </div>
          </div>
        ))}
      </section>

      <section className="card section">
        <h2>Set a state on every item</h2>
        <LoadFailed what="the ticket states" error={stateList.error} onRetry={() => void stateList.retry()} />
        <select aria-label="New state" value={state} onChange={(e) => setState(e.target.value)}>
          <option value="" disabled hidden>
            Choose a state
          </option>
          {states.map((s) => (
            <option key={s.id} value={s.name} disabled={s.name === ""}>
              {s.name || "(none)"}
            </option>
          ))}
        </select>
        <div className="field signature-field">
          <span>Customer's signature (optional): sign in the box</span>
          <SignaturePad ref={sig} />
        </div>
        <div className="form-buttons">
          <button type="button" className="btn" onClick={() => sig.current?.clear()}>
            Clear signature
          </button>
          <button type="button" className="btn btn-primary" onClick={confirmAll}>
            Confirm
          </button>
        </div>
      </section>
    </div>
  );
}

/** Camera QR scanning (spec §9: QR codes only). Needs a secure context and BarcodeDetector. */
function CameraScanner({ onCode, onClose }: { onCode: (c: string) => void; onClose: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!window.isSecureContext)
      return setProblem("The camera needs a secure connection (HTTPS). Open Ironbox over HTTPS, or use a barcode gun or the code box.");
    const Detector = (
      window as unknown as { BarcodeDetector?: new (o: { formats: string[] }) => { detect(v: HTMLVideoElement): Promise<{ rawValue: string }[]> } }
    ).BarcodeDetector;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setInterval> | undefined;
    let lastCode = "";
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: "environment" } })
      .then(async (s) => {
        stream = s;
        video.current!.srcObject = s;
        await video.current!.play();
        const detector = Detector ? new Detector({ formats: ["qr_code"] }) : null;
        // Without BarcodeDetector, frames go through a canvas to the jsQR fallback.
        const canvas = document.createElement("canvas");
        timer = setInterval(async () => {
          const v = video.current!;
          let c: string | null | undefined;
          if (detector) c = (await detector.detect(v).catch(() => []))[0]?.rawValue;
          else if (v.videoWidth) {
            canvas.width = v.videoWidth;
            canvas.height = v.videoHeight;
            const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
            ctx.drawImage(v, 0, 0);
            c = await decodeQr(ctx.getImageData(0, 0, canvas.width, canvas.height).data, canvas.width, canvas.height);
          }
          if (c && c !== lastCode) {
            lastCode = c;
            onCode(c);
          }
        }, 300);
      })
      .catch((e) => {
        console.error("camera", e); // spec §8: camera errors are only logged
        setProblem("The camera could not be opened.");
      });
    return () => {
      clearInterval(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);
  return (
    <div className="camera">
      {problem ? <p className="form-error">{problem}</p> : <video ref={video} muted playsInline className="camera-video" />}
      <button type="button" className="btn btn-small" onClick={onClose}>
        Close camera
      </button>
    </div>
  );
}
