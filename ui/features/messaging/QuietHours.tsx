import { useEffect, useState } from "react";
import { HHMM } from "../../../appliance/domain/quietHours";
import { LoadFailed } from "../../components/LoadFailed";
import { Field, Section } from "../../components/form";
import { toast } from "../../components/toast";
import { loadFailure } from "../../lib/api";
import { getQuietHours, putQuietHours, type QuietHoursSettings } from "./api";

/**
 * Quiet hours (issue 25): automatic status messages reached at night wait until the morning.
 * Times are typed as HH:MM, 24-hour, whatever the tablet's language (a native time field
 * would show AM/PM on an en-US tablet). HQ staff change them, like the channels.
 */
export function QuietHoursSection({ canSet }: { canSet: boolean }) {
  const [saved, setSaved] = useState<QuietHoursSettings | null>(null);
  const [draft, setDraft] = useState<QuietHoursSettings | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [tries, setTries] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tries` is Retry's way to load again
  useEffect(() => {
    setFailed(null);
    getQuietHours().then(
      (q) => {
        setSaved(q);
        setDraft(q);
      },
      (e) => setFailed(loadFailure(e)),
    );
  }, [tries]);

  const bad = draft ? (["start", "end"] as const).filter((k) => !HHMM.test(draft[k])) : [];
  const changed = !!draft && !!saved && (draft.enabled !== saved.enabled || draft.start !== saved.start || draft.end !== saved.end);
  async function save() {
    if (!draft) return;
    setBusy(true);
    try {
      const q = await putQuietHours(draft);
      setSaved(q);
      setDraft(q);
      toast("Settings saved.");
    } catch {
      // The red toast already said why.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title="Quiet hours">
      <p className="muted">Automatic status messages of a ticket that changes state at night wait until the end of quiet hours (the shop's time).</p>
      <LoadFailed what="quiet hours" error={failed} onRetry={() => setTries((n) => n + 1)} />
      {draft && (
        <>
          <label className="toggle">
            <input
              type="checkbox"
              name="quiet_enabled"
              checked={draft.enabled}
              disabled={!canSet}
              onChange={(e) => setDraft({ ...draft, enabled: e.target.checked })}
            />
            <span>Hold automatic messages during quiet hours</span>
          </label>
          <div className="grid-2">
            {(["start", "end"] as const).map((k) => (
              <Field key={k} label={k === "start" ? "Quiet from" : "Quiet until"} hint="HH:MM, 24-hour">
                <input
                  name={`quiet_${k}`}
                  inputMode="numeric"
                  maxLength={5}
                  value={draft[k]}
                  readOnly={!canSet}
                  aria-invalid={bad.includes(k)}
                  onChange={(e) => setDraft({ ...draft, [k]: e.target.value })}
                />
              </Field>
            ))}
          </div>
          {bad.length > 0 && <p className="form-error">Write the time as HH:MM, e.g. 21:00.</p>}
          {canSet ? (
            <div className="form-buttons">
              <button type="button" className="btn btn-primary" disabled={!changed || busy || bad.length > 0} onClick={() => void save()}>
                Save quiet hours
              </button>
            </div>
          ) : (
            <p className="muted">Only head-quarters staff change the quiet hours.</p>
          )}
        </>
      )}
    </Section>
  );
}
