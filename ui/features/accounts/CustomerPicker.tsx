import { useCallback, useEffect, useRef, useState } from "react";
import type { Customer } from "../../../appliance/modules/customers/model";
import { LoadFailed } from "../../components/LoadFailed";
import { fetchList, loadFailure } from "../../lib/api";

export type Member = { id: number; full_name: string; mobile: string };

/** As the counter's search: the first few, then type more of the name or phone. */
const SEARCH_LIMIT = 10;

/**
 * The customers that may charge to an account (issue 34): found by name or phone with the
 * counter's customer search and shown by name, never typed as numbers. Only the billing shop's
 * customers are offered (HQ's search sees every shop's); the box checks each id again.
 */
export function CustomerPicker({ shop, chosen, onChange }: { shop: number | null; chosen: Member[]; onChange: (list: Member[]) => void }) {
  const [term, setTerm] = useState("");
  const [found, setFound] = useState<Member[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const seq = useRef(0);

  const search = useCallback(
    async (t: string) => {
      const mine = ++seq.current;
      setFailed(null);
      if (!t) return setFound(null);
      try {
        const rows = await fetchList<Customer>("/customers/", { term: t, limit: SEARCH_LIMIT });
        // A later key's search answered first: this answer is not what the box shows.
        if (mine !== seq.current) return;
        setFound(rows.filter((c) => shop === null || c.agent_id === shop).map((c) => ({ id: c.id, full_name: c.full_name, mobile: c.mobile ?? "" })));
      } catch (e) {
        if (mine === seq.current) setFailed(loadFailure(e));
      }
    },
    [shop],
  );
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    pending.current = setTimeout(() => void search(term.trim()), 300);
    return () => clearTimeout(pending.current);
  }, [term, search]);

  const has = new Set(chosen.map((c) => c.id));
  const label = (c: Member) => (c.mobile ? `${c.full_name} · ${c.mobile}` : c.full_name);
  return (
    <fieldset className="field" aria-label="Customers on the account">
      <legend>Customers on the account</legend>
      <div className="people-chips" data-testid="account-members">
        {chosen.length === 0 && <span className="muted">None yet: search for them below.</span>}
        {chosen.map((c) => (
          <button
            key={c.id}
            type="button"
            className="people-chip on"
            aria-label={`Remove ${c.full_name}`}
            onClick={() => onChange(chosen.filter((x) => x.id !== c.id))}
          >
            {label(c)} <span aria-hidden="true">×</span>
          </button>
        ))}
      </div>
      <input
        type="search"
        aria-label="Find a customer"
        placeholder="Name or phone"
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== "Enter") return;
          // Enter searches at once, and never submits the account's form.
          e.preventDefault();
          clearTimeout(pending.current);
          void search(term.trim());
        }}
      />
      <LoadFailed what="customers" error={failed} onRetry={() => void search(term.trim())} />
      {found && found.length === 0 && <p className="muted">No customer of this shop matches.</p>}
      {found && found.length > 0 && (
        <div className="people-chips" data-testid="account-found">
          {found.map((c) => (
            <button key={c.id} type="button" className="people-chip" disabled={has.has(c.id)} onClick={() => onChange([...chosen, c])}>
              <span className="people-chip-mark" aria-hidden="true">
                {has.has(c.id) ? "✓" : "+"}
              </span>
              {label(c)}
            </button>
          ))}
        </div>
      )}
    </fieldset>
  );
}
