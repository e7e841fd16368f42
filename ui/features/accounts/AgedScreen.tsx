import { useState } from "react";
import { Link } from "wouter";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import type { Aged } from "../../../appliance/modules/accounts/model";
import { LoadFailed } from "../../components/LoadFailed";
import { Section } from "../../components/form";
import { toast } from "../../components/toast";
import { downloadFile, useLoad } from "./load";

const COLS = [
  ["not_invoiced", "Not invoiced"],
  ["d0_30", "0–30"],
  ["d31_60", "31–60"],
  ["d61_90", "61–90"],
  ["d90_plus", "90+"],
  ["balance", "Balance"],
] as const;

/** Every account's balance by the age of its open invoices (issue 34), with its CSV. */
export function AgedScreen() {
  const aged = useLoad<Aged>("/accounts/aged");
  const [problem, setProblem] = useState("");
  async function csv() {
    setProblem("");
    try {
      toast(`Saved ${await downloadFile("/accounts/aged?format=csv", "Aged receivables.csv")}`);
    } catch (e) {
      setProblem((e as Error).message);
    }
  }
  const a = aged.data;
  return (
    <Section
      title={a ? `Aged receivables on ${displayDate(a.on)}` : "Aged receivables"}
      actions={
        <button type="button" className="btn" onClick={csv}>
          Download CSV
        </button>
      }
    >
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
                {COLS.map(([k, label]) => (
                  <th key={k} className="num">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {a.accounts.map((r) => (
                <tr key={r.account_id} data-testid={`aged-${r.account_id}`}>
                  <td>
                    <Link href={`/accounts/${r.account_id}`}>{r.name}</Link>
                  </td>
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
                <th>Total</th>
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
