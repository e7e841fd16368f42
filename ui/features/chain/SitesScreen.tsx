import { useCallback, useEffect, useState } from "react";
import { Link } from "wouter";
import { displayDateTime, euroFromEuros } from "../../../appliance/domain/format";
import type { SiteState } from "../../../appliance/modules/chain/model";
import { Section } from "../../components/form";
import { versionText } from "./version";
import { toast } from "../../components/toast";
import { ApiError } from "../../lib/api";
import { listSites, restoreSite } from "./api";

/** "3 min", "2 h 5 min", "4 days": how far behind head quarters' copy of a site may be. */
/** A site's deposits (issue 34): the liability held, and today's money in and out of the balances. */
function depositText(d: SiteState["deposits"]): string {
  if (!d) return "–";
  const today = [
    d.taken ? `+${euroFromEuros(d.taken)} taken` : "",
    d.given_back ? `−${euroFromEuros(d.given_back)} given back` : "",
    d.spent ? `−${euroFromEuros(d.spent)} spent` : "",
  ].filter(Boolean);
  return `Held ${euroFromEuros(d.held)}${today.length ? ` · today ${today.join(", ")}` : ""}`;
}

export function lagText(seconds: number | null): string {
  if (seconds === null) return "–";
  if (seconds < 60) return `${seconds} s`;
  const min = Math.floor(seconds / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ${min % 60} min`;
  return `${Math.floor(h / 24)} days`;
}

/**
 * Head quarters' Sites screen (issue 15, HQ mode): each site's copy as HQ has it, with a
 * Restore now. Refreshes every 15 s while open, as restores run on the box's schedule.
 */
export function SitesScreen() {
  const [sites, setSites] = useState<SiteState[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Set<string>>(new Set());
  const load = useCallback(
    () =>
      listSites().then(
        (s) => {
          setSites(s);
          setError(null);
        },
        (e: Error) => setError(e.message),
      ),
    [],
  );
  useEffect(() => {
    void load();
    const t = setInterval(load, 15_000);
    return () => clearInterval(t);
  }, [load]);

  async function restore(site: string) {
    setBusy((b) => new Set(b).add(site));
    try {
      const s = await restoreSite(site);
      setSites((list) => list?.map((x) => (x.site === site ? s : x)) ?? [s]);
      if (s.last_error) toast(s.last_error, "danger");
      else toast(`${site} restored.`);
    } catch (e) {
      toast(e instanceof ApiError ? e.message : "Something went wrong", "danger");
    } finally {
      setBusy((b) => {
        const next = new Set(b);
        next.delete(site);
        return next;
      });
    }
  }

  return (
    <div className="stack">
      <Section
        title="Sites"
        actions={
          <Link href="/sites/reports" className="btn">
            Chain reports
          </Link>
        }
      >
        {error && (
          <p className="form-error" role="alert">
            Could not read the sites: {error}{" "}
            <button type="button" className="btn btn-small" onClick={() => void load()}>
              Try again
            </button>
          </p>
        )}
        {sites === null ? (
          !error && <p className="muted">Reading the sites…</p>
        ) : sites.length === 0 ? (
          <p className="muted">No site yet: list them in IRONBOX_SITES, or a shop's folder appears in HQ's storage when its box is linked.</p>
        ) : (
          <div className="table-scroll">
            <table className="tickets-table sites-table" aria-label="Sites">
              <thead>
                <tr>
                  <th>Site</th>
                  <th>Last data</th>
                  <th>Lag</th>
                  <th>Today's takings</th>
                  <th>Deposits</th>
                  <th>Paid totals</th>
                  <th>Version</th>
                  <th>Restored</th>
                  <th>Last error</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {sites.map((s) => {
                  const running = s.restoring || busy.has(s.site);
                  return (
                    <tr key={s.site} data-site={s.site}>
                      <td>
                        <strong>{s.site}</strong>
                      </td>
                      <td data-col="last-data">{s.last_data_at ? displayDateTime(s.last_data_at) : "–"}</td>
                      <td data-col="lag">{lagText(s.lag_seconds)}</td>
                      <td data-col="takings">{euroFromEuros(s.today_takings)}</td>
                      <td data-col="deposits">{depositText(s.deposits)}</td>
                      <td data-col="totals">
                        {!s.paid_totals ? (
                          <span className="muted">–</span>
                        ) : s.paid_totals.ok ? (
                          "equal to their payments"
                        ) : (
                          <span className="form-error" role="note">
                            {s.paid_totals.message}
                          </span>
                        )}
                      </td>
                      <td data-col="version">
                        {versionText(s.schema)}
                        {s.schema_note && (
                          <div className="form-error" role="note">
                            {s.schema_note}
                          </div>
                        )}
                      </td>
                      <td>{s.last_restored_at ? displayDateTime(s.last_restored_at) : "never"}</td>
                      <td data-col="error">{s.last_error ? <span className="form-error">{s.last_error}</span> : <span className="muted">none</span>}</td>
                      <td>
                        <button type="button" className="btn btn-small" disabled={running} aria-label={`Restore ${s.site} now`} onClick={() => restore(s.site)}>
                          {running ? "Restoring…" : "Restore now"}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </div>
  );
}
