import { useSignals } from "@preact/signals-react/runtime";
import { displayDateTime, displayTime } from "../../../appliance/domain/format";
import { useCallback, useEffect, useRef, useState } from "react";
import type { LinkCheck, LinkPosition, LinkState } from "../../../appliance/modules/hqlink/model";
import { Field, Section } from "../../components/form";
import { toast } from "../../components/toast";
import { allowed, useHqAgent } from "../../app/access";
import { employee } from "../../lib/session";
import { checkLink, linkState, saveLink } from "./api";

const when = (iso: string | null) => (iso ? `${displayDateTime(iso)}:${displayTime(iso, true).slice(6)}` : "never");
const position = (p: LinkPosition | null) =>
  p ? `generation ${p.generation ?? "?"}, WAL ${p.index}, byte ${new Intl.NumberFormat("en-GB").format(p.offset)}` : "—";
const STATE_WORDS: Record<LinkState["state"], string> = {
  off: "Off: no link to HQ is set up",
  ok: "Up to date",
  lagging: "Behind",
  down: "Not reaching HQ",
};
function lag(s: number | null) {
  if (s === null) return "—";
  if (s < 1) return "none";
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

/**
 * "Link to HQ" (admins see it; HQ staff set it, as the server rules: on a box several shops
 * share, a shop's admin must not send the whole database elsewhere): where this box streams its
 * database (HQ's SSH server or a bucket), the key it logs in with (write-only), and how the link
 * is doing. Settings preset by the box's environment are shown read-only.
 */
export function LinkScreen() {
  useSignals();
  const canSet = allowed("hqStaff", employee.value, useHqAgent());
  const [s, setS] = useState<LinkState | null>(null);
  const [url, setUrl] = useState("");
  const [site, setSite] = useState("");
  const [warn, setWarn] = useState("");
  const [key, setKey] = useState("");
  const [saving, setSaving] = useState(false);
  const [check, setCheck] = useState<LinkCheck | null>(null);
  const [checking, setChecking] = useState(false);

  // Whether the form holds the saved settings: until it does, Save would send empty fields
  // (an empty URL turns the link off).
  const filled = useRef(false);
  const fill = useCallback((x: LinkState) => {
    filled.current = true;
    setS(x);
    setUrl(x.settings.url ?? "");
    setSite(x.settings.site);
    setWarn(String(x.settings.warn_after_seconds));
  }, []);
  useEffect(() => {
    linkState().then(fill, () => {});
    // The state moves by itself (lag, errors): refreshed every few seconds; the form is not
    // touched once filled (a first read that failed is made good by the next one).
    const t = setInterval(
      () =>
        linkState(true).then(
          (x) => (filled.current ? setS(x) : fill(x)),
          () => {},
        ),
      3000,
    );
    return () => clearInterval(t);
  }, [fill]);
  if (!s) return <p className="muted">Reading the link…</p>;
  const p = s.settings.presets;

  async function save() {
    if (!s) return;
    setSaving(true);
    try {
      const body: Parameters<typeof saveLink>[0] = {};
      if (!p.url) body.url = url.trim() ? url.trim() : null;
      if (!p.site && site.trim() !== s.settings.site) body.site = site.trim();
      if (!p.warn_after_seconds && Number(warn) !== s.settings.warn_after_seconds) body.warn_after_seconds = Number(warn);
      if (!p.key && key.trim()) body.key = key;
      fill(await saveLink(body));
      setKey("");
      setCheck(null);
      toast("Saved; the link restarts");
    } catch {
      // the toast said why
    } finally {
      setSaving(false);
    }
  }

  async function tryNow() {
    setChecking(true);
    setCheck(null);
    try {
      setCheck(await checkLink());
    } catch {
      // the toast said why
    } finally {
      setChecking(false);
    }
  }

  async function loadKeyFile(file: File | undefined) {
    if (file) setKey(await file.text());
  }

  return (
    <div className="stack">
      <Section
        title="State"
        actions={
          <button type="button" className="btn btn-small" onClick={tryNow} disabled={checking || s.state === "off"}>
            {checking ? "Checking…" : "Check"}
          </button>
        }
      >
        <dl aria-label="Link state" style={{ display: "grid", gridTemplateColumns: "max-content 1fr", gap: "6px 16px", margin: "0 16px 12px" }}>
          <dt>Link</dt>
          <dd>
            <span className={`badge link-${s.state}`} data-state={s.state}>
              {STATE_WORDS[s.state]}
            </span>
          </dd>
          <dt>Behind by</dt>
          <dd>{lag(s.lag_seconds)}</dd>
          <dt>Last shipped</dt>
          <dd>{when(s.last_shipped_at)}</dd>
          <dt>Last position shipped</dt>
          <dd>{position(s.shipped)}</dd>
          <dt>Last error</dt>
          <dd role={s.last_error ? "alert" : undefined}>{s.last_error ?? "none"}</dd>
          <dt>Litestream</dt>
          <dd>
            {s.state === "off" ? "not started" : s.running ? "running" : "not running"}
            {s.restarts ? ` (restarted ${s.restarts} time${s.restarts === 1 ? "" : "s"})` : ""}
          </dd>
        </dl>
        {check && (
          <p className={check.ok ? "muted" : "error"} role="status" style={{ margin: "0 16px 12px" }}>
            {check.message}
          </p>
        )}
      </Section>
      <Section title="Settings">
        <div className="form" style={{ padding: "0 16px 12px" }}>
          <Field
            label="Replica URL"
            hint={
              p.url
                ? "Set by the box's environment (IRONBOX_REPLICA_URL)"
                : "HQ's SSH server: sftp://user@host:22/folder-of-this-shop; or a bucket: s3://bucket/folder (keys in the box's environment). Empty turns the link off."
            }
          >
            <input value={url} onChange={(e) => setUrl(e.target.value)} readOnly={p.url || !canSet} placeholder="sftp://mosta@hq.example.com:22/mosta" />
          </Field>
          <Field
            label="SSH key"
            hint={
              p.key
                ? "Set by the box's environment (IRONBOX_REPLICA_KEY)"
                : s.settings.key_set
                  ? "A key is stored (it is never shown). Paste or choose a new one to replace it."
                  : "Paste the private key HQ gave this shop, or choose its file. It is stored on the box only."
            }
          >
            <textarea
              value={key}
              onChange={(e) => setKey(e.target.value)}
              readOnly={p.key || !canSet}
              rows={4}
              autoComplete="off"
              spellCheck={false}
              placeholder={s.settings.key_set ? "(stored)" : "-----BEGIN OPENSSH PRIVATE KEY-----"}
            />
          </Field>
          {!p.key && canSet && (
            <Field label="Key file">
              <input type="file" onChange={(e) => loadKeyFile(e.target.files?.[0])} />
            </Field>
          )}
          <Field label="This site's name" hint={p.site ? "Set by the box's environment (IRONBOX_SITE_NAME)" : undefined}>
            <input value={site} onChange={(e) => setSite(e.target.value)} readOnly={p.site || !canSet} />
          </Field>
          <Field
            label="Warn when behind by more than (seconds)"
            hint={p.warn_after_seconds ? "Set by the box's environment (IRONBOX_LINK_LAG_WARN_SECONDS)" : undefined}
          >
            <input type="number" min={10} value={warn} onChange={(e) => setWarn(e.target.value)} readOnly={p.warn_after_seconds || !canSet} />
          </Field>
          {canSet ? (
            <div className="form-buttons">
              <button type="button" className="btn btn-primary" onClick={save} disabled={saving}>
                Save
              </button>
            </div>
          ) : (
            <p className="muted">Only head-quarters staff change the link.</p>
          )}
        </div>
      </Section>
    </div>
  );
}
