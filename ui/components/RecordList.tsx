import { type ReactNode, useEffect, useState } from "react";
import { Link } from "wouter";
import { apiList } from "../lib/api";
import { ListView } from "./ListView";

/**
 * A list screen of records (agents, employees): loads them, counts them, searches them
 * (a blank query shows all, spec §5), pages them, and links "+ New" to the record 0.
 */
export function RecordList<T extends { id: number }>(p: {
  path: string;
  noun: string;
  newHref: string;
  matches: (r: T, q: string) => boolean;
  render: (r: T) => ReactNode;
}) {
  const [list, setList] = useState<T[] | null>(null);
  useEffect(() => void apiList<T>(p.path).then(setList), [p.path]);
  const plural = (n: number) => `${n} ${p.noun}${n === 1 ? "" : "s"}`;
  return (
    <div className="stack">
      <div className="toolbar">
        <span className="muted people-hint">{list ? plural(list.length) : "Loading…"}</span>
        <Link href={p.newHref} className="btn btn-primary">
          + New {p.noun}
        </Link>
      </div>
      <ListView
        items={list ?? []}
        keyOf={(r) => r.id}
        placeholder={`Search ${p.noun}s`}
        filter={p.matches}
        empty={list ? `No ${p.noun} matches` : "Loading…"}
        render={p.render}
      />
    </div>
  );
}
