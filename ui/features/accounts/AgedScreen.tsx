import { useEffect, useState } from "react";
import { Link } from "wouter";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import type { Aged } from "../../../appliance/modules/accounts/model";
import { LoadFailed } from "../../components/LoadFailed";
import { Field, Section } from "../../components/form";
import { toast } from "../../components/toast";
import { listSites } from "../chain/api";
import { downloadFile, useLoad } from "./load";

const COLS = [
  ["not_invoiced", "Not invoiced"],
  ["d0_30", "0–30"],
  ["d31_60", "31–60"],
  ["d61_90", "61–90"],
  ["d90_plus", "90+"],
  ["balance", "Balance"],
] as const;

/**
 * Every account's balance by the age of its open invoices (issue 34), with its CSV. On HQ's box
 * in HQ mode the report reads every site's copy too; a site picker narrows it (and its CSV) to
 * one site's copy (`?site=`). Elsewhere /chain/sites answers 409 (or 403) and no picker shows.
 */
export function AgedScreen() {
  const [sites, setSites] = useState<string[]>([]);
  const [site, setSite] = useState("");
  useEffect(() => {
    // Only copies HQ holds can be read; without sites the screen is the single box's as before.
    listSites().then(
      (list) => setSites(list.filter((x) => x.has_copy).map((x) => x.site)),
      () => setSites([]),
    );
  }, []);
  const picker = sites.length > 0 && (
    <Field label="Site" hint="Head quarters' own accounts and every site's copy, or one site's copy">
      <select aria-label="Aged receivables site" value={site} onChange={(e) => setSite(e.target.value)}>
        <option value="">All sites</option>
        {sites.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </Field>
  );
  // Keyed by the site: another site's report starts from "Loading", never shows the last one's rows.
  return <AgedReport key={site} site={site} picker={picker} />;
}

function AgedReport({ site, picker }: { site: string; picker: React.ReactNode }) {
  const aged = useLoad<Aged>("/accounts/aged", site ? { site } : undefined);
  const [problem, setProblem] = useState("");
  async function csv() {
    setProblem("");
    const query = new URLSearchParams(site ? { format: "csv", site } : { format: "csv" });
    try {
      toast(`Saved ${await downloadFile(`/accounts/aged?${query}`, site ? `Aged receivables ${site}.csv` : "Aged receivables.csv")}`);
    } catch (e) {
      setProblem((e as Error).message);
    }
  }
  // A failed reload shows the failure, not the rows of the call before.
  const a = aged.error ? null : aged.data;
  return (
    <Section
      title={a ? `Aged receivables on ${displayDate(a.on)}` : "Aged receivables"}
      actions={
        <button type="button" className="btn" onClick={csv}>
          Download CSV
        </button>
      }
    >
      {picker}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <LoadFailed what="the aged report" error={aged.error} onRetry={aged.reload} />
      {!a && !aged.error && <p className="muted">Loading the aged report…</p>}
      {a && a.accounts.length === 0 && <p className="muted">No accounts yet.</p>}
      {a && a.accounts.length > 0 && (
        <div className="people-table-wrap">
          <table className="table" data-testid="aged">
            <thead>
              <tr>
                <th>Account</th>
                <th>Shop</th>
                {COLS.map(([k, label]) => (
                  <th key={k} className="num">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {a.accounts.map((r) => (
                // At HQ a site's copy numbers its accounts as HQ's own database does: the site tells them apart.
                <tr key={`${r.site ?? ""}-${r.account_id}`} data-testid={r.site ? `aged-${r.site}-${r.account_id}` : `aged-${r.account_id}`}>
                  <td>
                    {/* A site's account lives in its copy, not in HQ's database: no screen of its own here. */}
                    {r.site ? r.name : <Link href={`/accounts/${r.account_id}`}>{r.name}</Link>}
                  </td>
                  <td>{r.site ? `${r.agent_name} (${r.site})` : r.agent_name}</td>
                  {COLS.map(([k]) => (
                    <td key={k} className="num" data-col={k}>
                      {euroFromEuros(r[k])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th colSpan={2}>Total</th>
                {COLS.map(([k]) => (
                  <th key={k} className="num">
                    {euroFromEuros(a.totals[k])}
                  </th>
                ))}
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </Section>
  );
}
