import { type ReactNode, useEffect, useState } from "react";
import { Link } from "wouter";
import { apiList } from "../lib/api";
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
  matches: (r: T, q: string) => boolean;
  render: (r: T) => ReactNode;
  renderArchived?: (r: T, reload: () => void) => ReactNode;
}) {
  const [list, setList] = useState<T[] | null>(null);
  // Which list to show, and a counter that a restore bumps to read it again.
  const [shown, setShown] = useState({ archived: false, reads: 0 });
  const archived = shown.archived;
  useEffect(() => {
    setList(null);
    void apiList<T>(p.path, shown.archived ? { archived: true } : undefined).then(setList);
  }, [p.path, shown]);
  const setArchived = (on: boolean) => setShown({ archived: on, reads: 0 });
  const reload = () => setShown((s) => ({ ...s, reads: s.reads + 1 }));
  const plural = (n: number) => `${n} ${archived ? "archived " : ""}${p.noun}${n === 1 ? "" : "s"}`;
  const renderArchived = p.renderArchived;
  return (
    <div className="stack">
      <div className="toolbar">
        <span className="muted people-hint">{list ? plural(list.length) : "Loading…"}</span>
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
        filter={p.matches}
        empty={list ? (archived ? `No archived ${p.noun}s` : `No ${p.noun} matches`) : "Loading…"}
        render={archived && renderArchived ? (r) => renderArchived(r, reload) : p.render}
      />
    </div>
  );
}
