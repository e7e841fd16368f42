import { useState } from "react";
import { isFractionOfCent, WHOLE_CENTS_ONLY } from "../../../appliance/domain/money";
import type { Account } from "../../../appliance/modules/accounts/model";
import { api } from "../../lib/api";
import { agent } from "../../lib/session";
import { CustomerPicker, type Member } from "./CustomerPicker";

const fields = (a?: Account) => ({
  name: a?.name ?? "",
  billing_contact: a?.billing_contact ?? "",
  email: a?.email ?? "",
  vat_number: a?.vat_number ?? "",
  terms_days: String(a?.terms_days ?? 30),
  credit_limit: String(a?.credit_limit ?? 0),
  discount: a?.discount == null ? "" : String(a.discount),
});

/**
 * Opens or edits a business account (issue 34). The customers that may charge to it are found
 * by name or phone and shown by name (CustomerPicker); the box checks each is the shop's.
 */
export function AccountForm({ account, onSaved, onCancel }: { account?: Account; onSaved: (a: Account) => void; onCancel?: () => void }) {
  const [f, setF] = useState(fields(account));
  const [members, setMembers] = useState<Member[]>(account?.customers ?? []);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (e: React.ChangeEvent<HTMLInputElement>) => setF({ ...f, [k]: e.target.value });
  // A new account is billed by the caller's shop; an account keeps its shop.
  const shop = account?.agent_id ?? agent.value?.agent_id ?? null;
  const problem = !f.name.trim()
    ? "A name is required"
    : isFractionOfCent(f.credit_limit)
      ? WHOLE_CENTS_ONLY
      : !(Number(f.credit_limit) >= 0)
        ? "The credit limit is an amount in euros"
        : "";

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (busy || problem) return;
    setBusy(true);
    const body = {
      name: f.name.trim(),
      customer_ids: members.map((m) => m.id),
      billing_contact: f.billing_contact,
      email: f.email,
      vat_number: f.vat_number,
      terms_days: Number(f.terms_days),
      credit_limit: Number(f.credit_limit),
      discount: f.discount.trim() === "" ? null : Number(f.discount),
    };
    try {
      onSaved(await api<Account>(account ? "PUT" : "POST", account ? `/accounts/${account.id}` : "/accounts/", { body }));
    } catch {
      // api() showed the box's message; the form keeps what was typed.
    } finally {
      setBusy(false);
    }
  }

  const input = (k: keyof typeof f, label: string, mode?: "decimal" | "numeric" | "email") => (
    <label className="field">
      <span>{label}</span>
      <input aria-label={label} inputMode={mode} value={f[k]} onChange={set(k)} />
    </label>
  );
  return (
    <form className="people-grid" onSubmit={submit} aria-label={account ? "Edit account" : "New account"}>
      {input("name", "Account name")}
      {input("billing_contact", "Billing contact")}
      {input("email", "Billing e-mail", "email")}
      {input("vat_number", "VAT number")}
      {input("terms_days", "Terms (days)", "numeric")}
      {input("credit_limit", "Credit limit (€)", "decimal")}
      {input("discount", "Discount (%)", "numeric")}
      <CustomerPicker shop={shop} chosen={members} onChange={setMembers} />
      <div>
        {problem && f.name !== "" && <p className="form-error">{problem}</p>}
        <button type="submit" className="btn btn-primary" disabled={busy || !!problem}>
          {account ? "Save account" : "Open account"}
        </button>{" "}
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
