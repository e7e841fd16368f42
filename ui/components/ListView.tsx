import { type ReactNode, useEffect, useMemo, useState } from "react";
import { LoadFailed } from "./LoadFailed";

/** Page buttons around the current page: a window of 5 (spec §2, customers list). */
export function pageWindow(page: number, pages: number, size = 5): number[] {
  if (pages <= 0) return [];
  const start = Math.max(0, Math.min(page - Math.floor(size / 2), pages - size));
  return Array.from({ length: Math.min(size, pages) }, (_, i) => start + i);
}

export interface ListViewProps<T> {
  items: T[];
  /** The items for a query, best first; a blank query shows them all (spec §5; lib/fuzzy.ts). */
  search?: (items: T[], query: string) => T[];
  render: (item: T) => ReactNode;
  keyOf: (item: T) => string | number;
  pageSize?: number;
  placeholder?: string;
  empty?: ReactNode;
  /** Controlled search (server-side search screens pass their own). */
  query?: string;
  onQuery?: (q: string) => void;
  /** The last load failed: "Could not load" with Retry shows instead of `empty`, above what was shown before. */
  error?: string | null;
  onRetry?: () => void;
  /** What the list holds, for "Could not load customers". */
  what?: string;
}

/** A searchable, paged list used by every list screen. */
export function ListView<T>({
  items,
  search,
  render,
  keyOf,
  pageSize = 50,
  placeholder = "Search",
  empty = "Nothing to show",
  query: controlled,
  onQuery,
  error,
  onRetry,
  what = "the list",
}: ListViewProps<T>) {
  const [own, setOwn] = useState("");
  const query = controlled ?? own;
  const [page, setPage] = useState(0);
  const shown = useMemo(() => (search && query.trim() ? search(items, query) : items), [items, search, query]);
  const pages = Math.ceil(shown.length / pageSize);
  useEffect(() => setPage(0), [query]);
  const slice = shown.slice(page * pageSize, (page + 1) * pageSize);
  return (
    <div className="list-view">
      <input
        className="search"
        type="search"
        placeholder={placeholder}
        aria-label={placeholder}
        value={query}
        onChange={(e) => (onQuery ? onQuery(e.target.value) : setOwn(e.target.value))}
      />
      {error && <LoadFailed what={what} error={error} onRetry={() => onRetry?.()} />}
      {slice.length ? (
        <ul className="list">
          {slice.map((i) => (
            <li key={keyOf(i)}>{render(i)}</li>
          ))}
        </ul>
      ) : error ? null : (
        <p className="empty">{empty}</p>
      )}
      {pages > 1 && (
        <nav className="pager" aria-label="Pages">
          <button type="button" className="btn" disabled={page === 0} onClick={() => setPage(page - 1)} aria-label="Previous page">
            ‹
          </button>
          {pageWindow(page, pages).map((p) => (
            <button
              type="button"
              key={p}
              className={`btn ${p === page ? "btn-primary" : ""}`}
              aria-current={p === page ? "page" : undefined}
              onClick={() => setPage(p)}
            >
              {p + 1}
            </button>
          ))}
          <button type="button" className="btn" disabled={page >= pages - 1} onClick={() => setPage(page + 1)} aria-label="Next page">
            ›
          </button>
        </nav>
      )}
    </div>
  );
}
