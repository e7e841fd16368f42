import { useEffect, useState } from "react";
import { displayDateTime, euroFromEuros } from "../../../appliance/domain/format";
import type { Payment } from "../../../appliance/modules/payments/model";
import { listPayments } from "./api";

const TENDER = { cash: "Cash", card: "Card", other: "Other" } as const;

/**
 * A ticket's payments and refunds (issue 24), oldest first: when (DD/MM/YYYY HH:mm, Malta),
 * tender, amount, who took it, and for cash what was handed over and the change given.
 * `version` changes when the ticket was paid again, so the list follows.
 */
export function Payments({ ticketId, version }: { ticketId: number; version: unknown }) {
  const [rows, setRows] = useState<Payment[] | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the trigger (a new payment), not a value the effect reads.
  useEffect(() => {
    listPayments(ticketId).then(setRows, () => setRows([]));
  }, [ticketId, version]);
  if (!rows?.length) return null;
  return (
    <table className="payments" data-testid="payments">
      <caption>Payments</caption>
      <thead>
        <tr>
          <th>When</th>
          <th>Tender</th>
          <th>Amount</th>
          <th>Taken by</th>
          <th>Note</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((p) => (
          <tr key={p.id} className={p.amount < 0 ? "refund" : undefined}>
            <td>{displayDateTime(p.taken_at)}</td>
            <td>{TENDER[p.tender]}</td>
            <td>{euroFromEuros(p.amount)}</td>
            <td>{p.employee ?? ""}</td>
            <td>
              {p.refund_of ? `Refund: ${p.reason ?? ""}` : ""}
              {p.tendered !== null ? `Tendered ${euroFromEuros(p.tendered)}, change ${euroFromEuros(p.change ?? 0)}` : ""}
              {p.stop ? ` ${p.stop}` : ""}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
