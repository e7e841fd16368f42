import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import { euroFromEuros } from "../../../appliance/domain/format";
import { isFractionOfCent, toEuros, typedCents, WHOLE_CENTS_ONLY } from "../../../appliance/domain/money";
import type { AgentListRow } from "../../../appliance/modules/agents/model";
import type { ChainTransfer } from "../../../appliance/modules/bookings/model";
import type { ChainShop, SiteState } from "../../../appliance/modules/chain/model";
import type { TransferResult } from "../../../appliance/modules/money/model";
import { allowed, useHqAgent } from "../../app/access";
import { api, fetchList } from "../../lib/api";
import { employee } from "../../lib/session";

const PHASE: Record<ChainTransfer["phase"], string> = {
  requested: "requested: waiting for the source's box to take it out",
  out_applied: "taken out at the source: on its way to the destination",
  refused: "refused by the source's box (the balance was spent meanwhile): nothing moved",
  in_applied: "arrived: spendable at the destination",
};
const message = (e: unknown) => (e instanceof Error && e.message.trim() ? e.message : "The transfer failed: try again");

/**
 * HQ staff move a customer's deposit between shops (issue 34, docs/decisions/deposit-transfers.md).
 * Between shops of this box it is applied at once; on HQ's box with sites, "between boxes" asks
 * for the sites and then their shops by name (GET /chain/shops: the ids are each site's own)
 * and follows the transfer's phase through the copies.
 * A failure is shown in words, never as an empty state.
 */
export function DepositTransfer({ customer, mobile, onDone }: { customer: number; mobile: string; onDone: () => void }) {
  useSignals();
  const hqStaff = allowed("hqStaff", employee.value, useHqAgent());
  const [open, setOpen] = useState(false);
  const [shops, setShops] = useState<AgentListRow[]>([]);
  const [sites, setSites] = useState<string[]>([]);
  const [across, setAcross] = useState(false);
  const [f, setF] = useState({ from: "", to: "", fromSite: "", toSite: "", amount: "", mobile });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  const [state, setState] = useState("");
  const [chainId, setChainId] = useState("");
  // Each chosen site's shops as HQ's copy shows them, or why they could not be read.
  const [siteShops, setSiteShops] = useState<Record<string, ChainShop[] | { error: string } | "loading">>({});

  useEffect(() => {
    if (!open) return;
    fetchList<AgentListRow>("/agents/").then(
      // HQ itself may hold a deposit (taken at its counter), so it is a shop to move from or to.
      setShops,
      (e) => setProblem(`Could not load the shops: ${message(e)}`),
    );
    // Only HQ's box with sites answers this; elsewhere there is no "between boxes".
    api<SiteState[]>("GET", "/chain/sites", { quiet: true }).then(
      (s) => setSites(s.map((x) => x.site)),
      () => setSites([]),
    );
  }, [open]);

  useEffect(() => {
    for (const site of [f.fromSite, f.toSite]) {
      if (!site || siteShops[site]) continue;
      setSiteShops((m) => ({ ...m, [site]: "loading" }));
      api<ChainShop[]>("GET", "/chain/shops", { query: { site }, quiet: true }).then(
        (list) => setSiteShops((m) => ({ ...m, [site]: list.filter((x) => !x.archived_at) })),
        (e) => setSiteShops((m) => ({ ...m, [site]: { error: `Could not load ${site}'s shops: ${message(e)}` } })),
      );
    }
  }, [f.fromSite, f.toSite, siteShops]);

  if (!hqStaff) return null;
  if (!open)
    return (
      <button type="button" className="btn" onClick={() => setOpen(true)}>
        Transfer
      </button>
    );

  const set = (p: Partial<typeof f>) => setF((x) => ({ ...x, ...p }));
  const cents = typedCents(f.amount);
  const invalid = isFractionOfCent(f.amount)
    ? WHOLE_CENTS_ONLY
    : !Number.isFinite(cents) || cents <= 0
      ? "Enter the amount to transfer"
      : !f.from || !f.to || (across && (!f.fromSite || !f.toSite || !f.mobile.trim()))
        ? "Choose where from and where to"
        : "";
  const shopName = (id: number) => shops.find((s) => s.id === id)?.name ?? `shop ${id}`;

  async function follow(id: string) {
    try {
      const [t] = await api<ChainTransfer[]>("GET", "/chain/deposits/transfers", { query: { transfer_id: id }, quiet: true });
      setState(t ? `Transfer of ${euroFromEuros(t.amount)} ${PHASE[t.phase]}` : "The transfer is no longer listed at head quarters");
    } catch (e) {
      setProblem(message(e));
    }
  }

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (busy || invalid) return;
    setBusy(true);
    setProblem("");
    setState("");
    try {
      if (across) {
        const t = await api<ChainTransfer>("POST", "/chain/deposits/transfers", {
          quiet: true,
          body: {
            from_site: f.fromSite,
            from_agent: Number(f.from),
            to_site: f.toSite,
            to_agent: Number(f.to),
            mobile: f.mobile.trim(),
            amount: toEuros(cents),
          },
        });
        setChainId(t.transfer_id);
        setState(`Transfer of ${euroFromEuros(t.amount)} ${PHASE[t.phase]}`);
      } else {
        const t = await api<TransferResult>("POST", `/customers/${customer}/deposits/transfer`, {
          quiet: true,
          body: { from_agent: Number(f.from), to_agent: Number(f.to), amount: toEuros(cents) },
        });
        setState(
          `Transfer of ${euroFromEuros(t.amount)} applied: ${euroFromEuros(t.from_balance)} left at ${shopName(t.from_agent)}, ${euroFromEuros(t.to_balance)} at ${shopName(t.to_agent)}`,
        );
        onDone();
      }
      set({ amount: "" });
    } catch (err) {
      setProblem(message(err));
    } finally {
      setBusy(false);
    }
  }

  const shopField = (label: string, key: "from" | "to") => {
    // Between boxes: the chosen site's shops (its copy's names, its own ids); else this box's.
    const site = key === "from" ? f.fromSite : f.toSite;
    const listed = across ? siteShops[site] : shops;
    const options = Array.isArray(listed) ? listed.map((s) => ({ id: "agent_id" in s ? s.agent_id : s.id, name: s.name, enabled: s.enabled })) : [];
    return (
      <label className="field">
        <span>{label} shop</span>
        <select aria-label={`Transfer ${key} shop`} value={f[key]} disabled={across && !site} onChange={(e) => set({ [key]: e.target.value })}>
          <option value="">
            {across && !site
              ? "Choose the site first"
              : listed === "loading"
                ? "Loading the shops…"
                : Array.isArray(listed) && !listed.length
                  ? "No shops in HQ's copy of this site"
                  : "Choose…"}
          </option>
          {options.map((s) => (
            <option key={s.id} value={s.id}>
              {s.enabled ? s.name : `${s.name} (disabled)`}
            </option>
          ))}
        </select>
        {typeof listed === "object" && !Array.isArray(listed) && (
          <span className="form-error" role="alert">
            {listed.error}
          </span>
        )}
      </label>
    );
  };
  const siteField = (label: string, key: "fromSite" | "toSite") => (
    <label className="field">
      <span>{label} site</span>
      <select
        aria-label={`Transfer ${label.toLowerCase()} site`}
        value={f[key]}
        // Another site's ids mean other shops: the shop is chosen again.
        onChange={(e) => set({ [key]: e.target.value, [key === "fromSite" ? "from" : "to"]: "" })}
      >
        <option value="">Choose…</option>
        {sites.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <form className="people-grid" onSubmit={submit} aria-label="Transfer the deposit" data-testid="deposit-transfer">
      {sites.length > 0 && (
        <label className="field">
          <span>Between boxes</span>
          <input
            type="checkbox"
            checked={across}
            onChange={(e) => {
              setAcross(e.target.checked);
              // This box's shop ids are not a site's: both shops are chosen again.
              set({ from: "", to: "" });
            }}
          />
        </label>
      )}
      {across && siteField("From", "fromSite")}
      {shopField("From", "from")}
      {across && siteField("To", "toSite")}
      {shopField("To", "to")}
      {across && (
        <label className="field">
          <span>Customer's mobile at the source</span>
          <input aria-label="Transfer mobile" value={f.mobile} onChange={(e) => set({ mobile: e.target.value })} />
        </label>
      )}
      <label className="field">
        <span>Amount (€)</span>
        <input inputMode="decimal" aria-label="Transfer amount" value={f.amount} onChange={(e) => set({ amount: e.target.value })} />
      </label>
      <div>
        {invalid && f.amount.trim() !== "" && <p className="form-error">{invalid}</p>}
        {problem && (
          <p className="form-error" role="alert" data-testid="transfer-problem">
            {problem}
          </p>
        )}
        {state && (
          <p role="status" data-testid="transfer-state">
            {state}{" "}
            {chainId && (
              <button type="button" className="btn btn-small" onClick={() => follow(chainId)}>
                Check again
              </button>
            )}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy || !!invalid}>
          Transfer
        </button>
      </div>
    </form>
  );
}
