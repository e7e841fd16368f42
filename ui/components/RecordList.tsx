import { type ReactNode, useState } from "react";
import { Link } from "wouter";
import { fetchList } from "../lib/api";
import { useList } from "../lib/useList";
import { ListView } from "./ListView";

/**
 * A list screen of records (agents, employees): loads them, counts them, searches them
 * (a blank query shows all, spec §5), pages them, and links "+ New" to the record 0.
 * With `renderArchived`, a toggle shows the archived records instead (`?archived=true`,
 * issue 22), each rendered with its restore control; `reload` reads the list again.
 */
export function RecordList<T extends { id: number }>(p: {
  path: string;
  noun: string;
  newHref: string;
  /** Spec §5's search over the list (lib/fuzzy.ts). */
  search: (items: T[], q: string) => T[];
  render: (r: T) => ReactNode;
  renderArchived?: (r: T, reload: () => void) => ReactNode;
}) {
  const [archived, setArchived] = useState(false);
  const { items: list, error, retry } = useList(() => fetchList<T>(p.path, archived ? { archived: true } : undefined), `${p.path}:${archived}`);
  const reload = () => void retry();
  const plural = (n: number) => `${n} ${archived ? "archived " : ""}${p.noun}${n === 1 ? "" : "s"}`;
  const renderArchived = p.renderArchived;
  return (
    <div className="stack">
      <div className="toolbar">
        <span className="muted people-hint">{list ? plural(list.length) : error ? "Not loaded" : "Loading…"}</span>
        {renderArchived && (
          <button type="button" className="btn" aria-pressed={archived} onClick={() => setArchived(!archived)}>
            {archived ? `Show current ${p.noun}s` : "Show archived"}
          </button>
        )}
        <Link href={p.newHref} className="btn btn-primary">
          + New {p.noun}
        </Link>
      </div>
      <ListView
        items={list ?? []}
        keyOf={(r) => r.id}
        placeholder={`Search ${archived ? "archived " : ""}${p.noun}s`}
        search={p.search}
        empty={list ? (archived ? `No archived ${p.noun}s` : `No ${p.noun} matches`) : "Loading…"}
        error={error}
        onRetry={retry}
        what={`${p.noun}s`}
        render={archived && renderArchived ? (r) => renderArchived(r, reload) : p.render}
      />
    </div>
  );
}
