import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import { Link } from "wouter";
import { LOCATION_MAX } from "../../../appliance/domain/racks";
import type { TicketLocations } from "../../../appliance/modules/tracking/model";
import { toast } from "../../components/toast";
import { ApiError } from "../../lib/api";
import { employee } from "../../lib/session";
import { printRackLabels } from "../printing/printer";
import { ticketLocations } from "./api";

/** An item as staff say it: its garment and its ticket ("Shirt · ticket #12 · item 31"), not "#12/31". */
export const itemName = (r: { id: number; ticket_id: number; description: string; sub_category?: { name: string } | null }, name?: string) =>
  `${name || r.sub_category?.name || r.description || "Item"} · ticket #${r.ticket_id} · item ${r.id}`;

/**
 * The tracking screen's rack bar (issue 25). Scanning a rack label (or typing a rack and
 * "Scan onto it") starts "putting on rack X": every item or ticket scanned next goes on it,
 * until Done. "Put the list on it" places the items already listed.
 */
export function RackBar({
  rack,
  onRack,
  count,
  onPlaceAll,
}: {
  rack: string | null;
  onRack: (r: string | null) => void;
  count: number;
  onPlaceAll: (where: string) => Promise<boolean>;
}) {
  useSignals();
  const [typed, setTyped] = useState("");
  const name = typed.trim();
  if (rack !== null)
    return (
      <div className="rack-bar rack-on" role="status" aria-label="Putting on a rack">
        <strong>Putting on rack {rack}</strong>
        <span className="muted">Scan the bags' labels or tickets; each goes on {rack}.</span>
        <button type="button" className="btn btn-small btn-primary" onClick={() => onRack(null)}>
          Done with {rack}
        </button>
      </div>
    );
  return (
    <form
      className="rack-bar toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        if (name) onRack(name);
      }}
    >
      <input
        aria-label="Rack or slot"
        placeholder="Rack or slot (or scan a rack label)"
        maxLength={LOCATION_MAX}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
      />
      <button type="submit" className="btn btn-small" disabled={!name}>
        Scan onto it
      </button>
      <button
        type="button"
        className="btn btn-small"
        disabled={!name || count === 0}
        onClick={async () => {
          if (await onPlaceAll(name)) toast(`${count} item${count === 1 ? "" : "s"} on ${name}`, "success", "top");
        }}
      >
        Put the list ({count}) on it
      </button>
      <Link href="/racks" className="btn btn-small">
        Racks
      </Link>
      {employee.value?.role !== "driver" && (
        <Link href="/unclaimed" className="btn btn-small">
          Unclaimed
        </Link>
      )}
    </form>
  );
}

/**
 * /racks (issue 25): where a ticket's bags are, for the counter at pickup, and the rack labels
 * to print. Placing items is done on the tracking screen (scan a rack label, then the bags).
 */
export function RacksScreen() {
  const [ticket, setTicket] = useState("");
  const [found, setFound] = useState<{ id: number; where: TicketLocations | null } | null>(null);
  const [names, setNames] = useState("");
  const [printing, setPrinting] = useState(false);

  async function find(e: React.FormEvent) {
    e.preventDefault();
    const id = Number(ticket.trim().replace(/^#/, ""));
    if (!Number.isSafeInteger(id) || id <= 0) return toast("Type a ticket number", "warning");
    try {
      const [where] = await ticketLocations([id]);
      setFound({ id, where: where ?? null });
    } catch (err) {
      toast(err instanceof ApiError ? err.message : "Could not look the ticket up", "danger");
    }
  }

  /** "A1, A2" or one a line; "A1-A12" makes twelve (the same letters, numbers in between). */
  const rackNames = () =>
    names
      .split(/[\n,]/)
      .map((n) => n.trim())
      .filter(Boolean)
      .flatMap((n) => {
        const m = /^(.*?)(\d+)\s*-\s*\1?(\d+)$/.exec(n);
        if (!m) return [n];
        const [from, to] = [Number(m[2]), Number(m[3])];
        if (to < from || to - from >= 100) return [n];
        return Array.from({ length: to - from + 1 }, (_, i) => `${m[1]}${from + i}`);
      });

  async function print(e: React.FormEvent) {
    e.preventDefault();
    const list = rackNames();
    if (!list.length) return toast("Type the racks' names", "warning");
    if (list.length > 100) return toast("At most 100 rack labels at a time", "warning");
    setPrinting(true);
    try {
      if (await printRackLabels(list)) toast(`Printed ${list.length} rack label${list.length === 1 ? "" : "s"}`);
    } finally {
      setPrinting(false);
    }
  }

  return (
    <div className="stack">
      <section className="card section" aria-label="Where is it">
        <h2>Where is it?</h2>
        <form className="toolbar" onSubmit={find}>
          <input aria-label="Ticket number" placeholder="Ticket number" inputMode="numeric" value={ticket} onChange={(e) => setTicket(e.target.value)} />
          <button type="submit" className="btn btn-primary">
            Find
          </button>
        </form>
        {found && (
          <p className="rack-answer" data-testid="rack-answer">
            {found.where ? (
              <>
                Ticket <Link href={`/tickets/${found.id}`}>#{found.id}</Link>: on <strong>{found.where.locations.join(", ")}</strong>
              </>
            ) : (
              <>
                Ticket <Link href={`/tickets/${found.id}`}>#{found.id}</Link> is not on a rack (or is not this shop's).
              </>
            )}
          </p>
        )}
        <p className="muted">
          To put bags on a rack, open <Link href="/tracking">Tracking</Link>, scan the rack's label, then the bags.
        </p>
      </section>
      <section className="card section" aria-label="Rack labels">
        <h2>Rack labels</h2>
        <form className="stack" onSubmit={print}>
          <label className="field">
            <span>Racks (comma or one a line; A1-A12 makes twelve)</span>
            <textarea rows={3} value={names} onChange={(e) => setNames(e.target.value)} />
          </label>
          <div className="form-buttons">
            <button type="submit" className="btn btn-primary" disabled={printing}>
              Print rack labels
            </button>
          </div>
          <p className="muted small">They print on this tablet's label printer (the one chosen in a ticket's Print dialog).</p>
        </form>
      </section>
    </div>
  );
}
