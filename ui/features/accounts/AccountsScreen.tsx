import { useState } from "react";
import { Link, useLocation } from "wouter";
import { euroFromEuros } from "../../../appliance/domain/format";
import type { Account } from "../../../appliance/modules/accounts/model";
import { LoadFailed } from "../../components/LoadFailed";
import { Section } from "../../components/form";
import { toast } from "../../components/toast";
import { AccountForm } from "./AccountForm";
import { useLoad } from "./load";

/** The business accounts billed by this shop (HQ: every shop's), and a new one (issue 34). */
export function AccountsScreen() {
  const [, navigate] = useLocation();
  const list = useLoad<Account[]>("/accounts/");
  const [adding, setAdding] = useState(false);
  return (
    <div className="stack">
      <Section
        title="Accounts"
        actions={
          <>
            <button type="button" className="btn" onClick={() => navigate("/accounts/aged")}>
              Aged report
            </button>{" "}
            <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
              New account
            </button>
          </>
        }
      >
        {adding && (
          <AccountForm
            onCancel={() => setAdding(false)}
            onSaved={(a) => {
              toast(`Account ${a.name} opened`);
              navigate(`/accounts/${a.id}`);
            }}
          />
        )}
        <LoadFailed what="the accounts" error={list.error} onRetry={list.reload} />
        {!list.data && !list.error && <p className="muted">Loading the accounts…</p>}
        {list.data && list.data.length === 0 && <p className="muted">No accounts yet.</p>}
        {list.data && list.data.length > 0 && (
          <div className="people-table-wrap">
            <table className="table" data-testid="accounts">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Shop</th>
                  <th className="num">Balance</th>
                  <th className="num">Credit limit</th>
                  <th>Terms</th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <Link href={`/accounts/${a.id}`}>{a.name}</Link>
                    </td>
                    <td>{a.agent_name}</td>
                    <td className="num">{euroFromEuros(a.balance)}</td>
                    <td className="num">{euroFromEuros(a.credit_limit)}</td>
                    <td>{a.terms_days} days</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </div>
  );
}
