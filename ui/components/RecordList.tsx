import type { ReactNode } from "react";
import { Link } from "wouter";
import { fetchList } from "../lib/api";
import { useList } from "../lib/useList";
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
  const { items: list, error, retry } = useList(() => fetchList<T>(p.path), p.path);
  const plural = (n: number) => `${n} ${p.noun}${n === 1 ? "" : "s"}`;
  return (
    <div className="stack">
      <div className="toolbar">
        <span className="muted people-hint">{list ? plural(list.length) : error ? "Not loaded" : "Loading…"}</span>
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
        error={error}
        onRetry={retry}
        what={`${p.noun}s`}
        render={p.render}
      />
    </div>
  );
}
