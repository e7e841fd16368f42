import type { ReactNode } from "react";
import { apiDate, displayDate } from "../../../appliance/domain/format";
import { confirmDialog } from "../../components/dialog";
import { toast } from "../../components/toast";
import { api, ApiError } from "../../lib/api";

/**
 * A row of the archived list (issue 22): who, when they were archived, and Restore. Deleting
 * someone with history archives them; an admin brings them back from here.
 */
export function ArchivedRow(p: {
  name: string;
  sub: ReactNode;
  archivedAt: string | null;
  /** The restore route, e.g. `/employees/restore/7`. */
  restorePath: string;
  /** What the confirmation says beyond "Restore <name>?". */
  note: string;
  noun: string;
  onRestored: () => void;
}) {
  async function restore() {
    if (!(await confirmDialog({ title: `Restore ${p.noun}`, message: `Restore ${p.name}? ${p.note}` }))) return;
    try {
      await api("PUT", p.restorePath, { body: {}, quiet: true });
      toast(`${p.noun[0]!.toUpperCase()}${p.noun.slice(1)} Restored`);
      p.onRestored();
    } catch (err) {
      toast(err instanceof ApiError && err.message ? err.message : "Something went wrong", "danger");
    }
  }
  return (
    <div className="row-link">
      <span className="row-main">
        <strong>{p.name}</strong>
        <span className="muted people-sub">{p.sub}</span>
      </span>
      <span className="people-row-meta">
        <span className="badge badge-hidden">archived{p.archivedAt ? ` ${displayDate(apiDate(new Date(p.archivedAt)))}` : ""}</span>
        <button type="button" className="btn" onClick={restore}>
          Restore
        </button>
      </span>
    </div>
  );
}
