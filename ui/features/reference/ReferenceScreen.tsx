import { useState } from "react";
import { displayDateTime } from "../../../appliance/domain/format";
import type { PublishResult, ReferenceStatus } from "../../../appliance/modules/reference/model";
import { useHqStaff } from "../../app/access";
import { Section } from "../../components/form";
import { toast } from "../../components/toast";
import { ApiError, api } from "../../lib/api";
import { loadReferenceStatus, useReferenceStatus } from "./state";

/** "Reference data version N since <date>": which of HQ's versions this box runs (or HQ last published). */
export function ReferenceVersion() {
  const s = useReferenceStatus();
  if (!s || s.version === null) return null;
  return (
    <p className="muted small reference-version">
      Reference data version {s.version} since {displayDateTime(s.applied_at)}
    </p>
  );
}

/**
 * Reference data (issue 15): on head quarters' box, publishing the chain's reference data as a
 * signed version and the key shops are enrolled with; on a shop's box, the version it runs,
 * the last check and its error, and a check now.
 */
export function ReferenceScreen() {
  const s = useReferenceStatus();
  const hqStaff = useHqStaff();
  const [busy, setBusy] = useState(false);

  async function run(what: "publish" | "sync") {
    setBusy(true);
    try {
      if (what === "publish") {
        const r = await api<PublishResult>("POST", "/reference/publish", { quiet: true });
        toast(r.changed ? `Version ${r.version} published.` : `Nothing changed: version ${r.version} stands.`);
      } else {
        const r = await api<ReferenceStatus>("POST", "/reference/sync", { quiet: true });
        toast(r.last_error ? r.last_error : "Checked with head quarters.", r.last_error ? "warning" : "success");
      }
      await loadReferenceStatus();
    } catch (e) {
      toast(e instanceof ApiError ? e.message : "Something went wrong", "danger");
    } finally {
      setBusy(false);
    }
  }

  if (!s) return <p className="muted">Loading…</p>;
  return (
    <div className="stack">
      <Section title="Reference data">
        <p>
          {s.version === null
            ? s.mode === "hq"
              ? "Nothing published yet."
              : "This box runs its own reference data."
            : `${s.mode === "hq" ? "Last published: version" : "This box runs version"} ${s.version} since ${displayDateTime(s.applied_at)}.`}
        </p>
        {s.mode === "hq" ? (
          <>
            <p className="muted small">
              The catalogue and prices, modifiers, ticket states, localities and streets, preferences, workload, pickup and delivery capacity and message
              templates, signed by this box. Shops enrolled with head quarters fetch it within minutes.
            </p>
            {/* The server lets HQ staff only publish (HQ_STAFF); a shop's admin on this box is told so. */}
            {hqStaff ? (
              <button type="button" className="btn btn-primary" disabled={busy} onClick={() => run("publish")}>
                Publish reference data
              </button>
            ) : (
              <p className="muted small">Only head-quarters staff publish it.</p>
            )}
            {s.public_key && (
              <label className="field">
                <span>Public key for enrolling a shop (IRONBOX_HQ_PUBLIC_KEY)</span>
                <input readOnly value={s.public_key} onFocus={(e) => e.target.select()} aria-label="Public key" />
              </label>
            )}
          </>
        ) : s.managed ? (
          <>
            <p>
              Managed by head quarters at <strong>{s.hq_url}</strong>. Last check: {displayDateTime(s.last_check_at)}.
            </p>
            {s.last_error && (
              <p className="form-error" role="alert">
                {s.last_error}
              </p>
            )}
            <button type="button" className="btn" disabled={busy} onClick={() => run("sync")}>
              Check with head quarters now
            </button>
          </>
        ) : (
          <p className="muted small">Not enrolled with head quarters: the catalogue and settings are edited on this box.</p>
        )}
      </Section>
    </div>
  );
}
