import { useState } from "react";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import type { Statement } from "../../../appliance/modules/accounts/model";
import { DateField } from "../../components/DateField";
import { Field, Section } from "../../components/form";
import { LoadFailed } from "../../components/LoadFailed";
import { toast } from "../../components/toast";
import { queryString } from "../../lib/api";
import { lastMonth } from "./AccountActions";
import { downloadFile, useLoad } from "./load";

const KIND = { invoice: "Invoice", credit_note: "Credit note", payment: "Payment" } as const;

/** An account's statement for a period: opening balance, its movements, closing balance; CSV. */
export function StatementView({ account }: { account: number }) {
  const [period, setPeriod] = useState(lastMonth);
  const s = useLoad<Statement>(period.from <= period.to ? `/accounts/${account}/statement` : null, period);
  const [problem, setProblem] = useState("");
  async function csv() {
    setProblem("");
    try {
      toast(`Saved ${await downloadFile(`/accounts/${account}/statement${queryString({ ...period, format: "csv" })}`, "Statement.csv")}`);
    } catch (e) {
      setProblem((e as Error).message);
    }
  }
  return (
    <Section
      title="Statement"
      actions={
        <button type="button" className="btn" onClick={csv}>
          Download CSV
        </button>
      }
    >
      <div className="people-grid">
        <Field label="From">
          <DateField label="Statement from" value={period.from} onChange={(from) => setPeriod({ ...period, from })} clearable={false} />
        </Field>
        <Field label="To">
          <DateField label="Statement to" value={period.to} onChange={(to) => setPeriod({ ...period, to })} clearable={false} />
        </Field>
        <button type="button" className="btn" onClick={s.reload}>
          Refresh
        </button>
      </div>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <LoadFailed what="the statement" error={s.error} onRetry={s.reload} />
      {!s.data && !s.error && <p className="muted">Loading the statement…</p>}
      {s.data && (
        <div className="people-table-wrap">
          <table className="table" data-testid="statement">
            <tbody>
              <tr>
                <td>{displayDate(s.data.from)}</td>
                <td colSpan={2}>Opening balance</td>
                <td className="num" data-testid="statement-opening">
                  {euroFromEuros(s.data.opening_balance)}
                </td>
              </tr>
              {s.data.lines.map((l, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a statement's lines are fixed and ordered
                <tr key={i}>
                  <td>{displayDate(l.date)}</td>
                  <td>
                    {KIND[l.kind]} {l.reference}
                  </td>
                  <td className="num">{euroFromEuros(l.amount)}</td>
                  <td className="num">{euroFromEuros(l.balance)}</td>
                </tr>
              ))}
              <tr>
                <td>{displayDate(s.data.to)}</td>
                <td colSpan={2}>Closing balance</td>
                <td className="num" data-testid="statement-closing">
                  {euroFromEuros(s.data.closing_balance)}
                </td>
              </tr>
              <tr>
                <td />
                <td colSpan={2}>Charged, not invoiced yet</td>
                <td className="num" data-testid="statement-not-invoiced">
                  {euroFromEuros(s.data.not_invoiced)}
                </td>
              </tr>
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
