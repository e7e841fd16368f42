import { useCallback, useEffect, useState } from "react";
import { displayDateTime } from "../../../appliance/domain/format";
import type { BoxHealth, DeviceHealth } from "../../../appliance/modules/boxhealth/model";
import { Section } from "../../components/form";
import { backupNow, boxHealth } from "./api";
import { TimeZoneSection } from "./TimeZone";

const MB = 1024 * 1024;
const size = (bytes: number) => (bytes >= 1024 * MB ? `${(bytes / 1024 / MB).toFixed(1)} GB` : `${(bytes / MB).toFixed(1)} MB`);
const when = (iso: string | null) => (iso ? displayDateTime(iso) : "never");
function uptime(s: number) {
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return d ? `${d} d ${h} h` : h ? `${h} h ${m} min` : `${m} min`;
}

function Devices({ label, rows, done }: { label: string; rows: DeviceHealth[]; done: string }) {
  if (!rows.length) return <p className="muted">None set up.</p>;
  return (
    <ul className="list" aria-label={label}>
      {rows.map((d) => (
        <li key={d.id} className="row-link">
          <span className="row-main">
            <strong>{d.name}</strong>
            <span className="muted">
              {done}: {when(d.last_ok_at)}
              {d.last_error ? ` · ${d.last_error}` : ""}
            </span>
          </span>
          <span className={`badge gun-${d.state}`}>{d.state}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * "The box" (admins, issue 16): printers and guns, disk, database, the HQ link, backups,
 * version, uptime and certificate, with what needs a person at the top.
 */
export function BoxScreen() {
  const [h, setH] = useState<BoxHealth | null>(null);
  const load = useCallback(() => boxHealth().then(setH, () => {}), []);
  useEffect(() => {
    void load();
    const t = setInterval(load, 30_000);
    return () => clearInterval(t);
  }, [load]);
  const [backingUp, setBackingUp] = useState(false);
  const backup = () => {
    setBackingUp(true);
    backupNow()
      .then(setH, () => {})
      .finally(() => setBackingUp(false));
  };
  if (!h) return <p className="muted">Reading the box…</p>;
  const link = h.link;
  // Issue 25: "All is well" only when nothing is missing either: no printer set up, or no
  // backup ever taken, is said rather than passed over.
  const missing = [
    ...(h.printers.length ? [] : ["No printer is set up: receipts and labels cannot print (Configuration › Printers)."]),
    ...(h.backup ? [] : ["No backup has been taken yet."]),
  ].filter((m) => !h.needs_attention.some((a) => a.message === m));
  const notes = [...h.needs_attention.map((a) => a.message), ...missing];
  return (
    <div className="stack">
      <Section
        title={h.needs_attention.length ? "Needs attention" : missing.length ? "Missing" : "All is well"}
        actions={
          <button type="button" className="btn btn-small" onClick={() => load()}>
            Refresh
          </button>
        }
      >
        {notes.length ? (
          <ul className="list" aria-label="Needs attention">
            {notes.map((m) => (
              <li key={m} className="row-link" role="alert">
                <span className="row-main">
                  <strong>{m}</strong>
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">Nothing needs a person.</p>
        )}
      </Section>
      <Section title="Printers">
        <Devices label="Printers" rows={h.printers} done="Last print" />
      </Section>
      <Section title="Barcode guns">
        <Devices label="Barcode guns" rows={h.guns} done="Last scan" />
      </Section>
      <Section title="Box">
        <dl aria-label="Box facts" style={{ display: "grid", gridTemplateColumns: "max-content 1fr", gap: "6px 16px", margin: "0 16px 12px" }}>
          <dt>Version</dt>
          <dd>{h.version}</dd>
          <dt>Running for</dt>
          <dd>{uptime(h.uptime_seconds)}</dd>
          <dt>Disk free</dt>
          <dd>
            {size(h.disk.free_bytes)} of {size(h.disk.total_bytes)} ({h.disk.free_percent} %)
          </dd>
          <dt>Database</dt>
          <dd>{size(h.database.bytes)}</dd>
          <dt>Database check</dt>
          <dd>
            {h.database.integrity
              ? `${h.database.integrity.ok ? "ok" : h.database.integrity.result} (${when(h.database.integrity.checked_at)})`
              : "not run yet"}
          </dd>
          <dt>Last backup</dt>
          <dd>
            {h.backup
              ? `${when(h.backup.at)}, ${h.backup.kind === "nightly" ? "nightly" : h.backup.kind === "manual" ? "taken by hand" : `before ${h.backup.version}`} (${size(h.backup.bytes)})`
              : "none yet (one is taken every night, and before each upgrade)"}{" "}
            <button type="button" className="btn btn-small" disabled={backingUp} onClick={backup}>
              {backingUp ? "Backing up…" : "Back up now"}
            </button>
          </dd>
          <dt>Backup disk</dt>
          <dd>
            {h.backups.second_dir
              ? `${h.backups.second_dir}${h.backups.second_dir_from === "env" ? " (IRONBOX_BACKUP_DIR)" : ""}`
              : "none: the nightly copy stays on the box's own disk"}
            {h.backups.last_run ? `; last run ${when(h.backups.last_run.at)}: ${h.backups.last_run.ok ? "ok" : h.backups.last_run.error}` : ""}
          </dd>
          <dt>Link to head-quarters</dt>
          <dd>
            {link.state === "off"
              ? "not set up"
              : `${link.state}${link.lag_seconds !== null ? `, ${link.lag_seconds} s behind` : ""}; last shipped ${when(link.last_shipped_at)}${link.last_error ? ` · ${link.last_error}` : ""}`}
          </dd>
          <dt>Certificate</dt>
          <dd>{h.certificate ? `expires ${when(h.certificate.expires_at)} (${h.certificate.names.join(", ")})` : "no certificate"}</dd>
        </dl>
      </Section>
      <TimeZoneSection />
    </div>
  );
}
