import { useEffect, useState } from "react";
import { setShopTimeZone } from "../../../appliance/domain/dates";
import { displayDateTime } from "../../../appliance/domain/format";
import type { TimeZoneSetting } from "../../../appliance/modules/boxhealth/model";
import type { z } from "zod";
import { useHqStaff } from "../../app/access";
import { Field, Section } from "../../components/form";
import { toast } from "../../components/toast";
import { api } from "../../lib/api";

type Setting = z.infer<typeof TimeZoneSetting>;
/** Every zone the browser knows, for the picker; the current one at least. */
const zones = (current: string) => {
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return all.includes(current) ? all : [current, ...all];
};

/**
 * The shop's time zone (issue 25): every day and time the screens, receipts and reports show
 * is in it. HQ staff change it (it is the whole box's); IRONBOX_TIME_ZONE, when set, decides.
 */
export function TimeZoneSection() {
  const [s, setS] = useState<Setting | null>(null);
  const [pick, setPick] = useState("");
  const [saving, setSaving] = useState(false);
  const hq = useHqStaff();
  useEffect(() => {
    api<Setting>("GET", "/box/timeZone", { quiet: true }).then(
      (x) => (setS(x), setPick(x.time_zone)),
      () => setS(null),
    );
  }, []);
  if (!s) return null;
  const locked = s.from === "env" || !hq;
  async function save() {
    setSaving(true);
    try {
      const x = await api<Setting>("PUT", "/box/timeZone", { body: { time_zone: pick } });
      setS(x);
      // This tablet at once; the others at their next load (they read it from /health).
      setShopTimeZone(x.time_zone);
      toast("Time zone saved");
    } catch {
      // api() has said what went wrong.
    } finally {
      setSaving(false);
    }
  }
  return (
    <Section title="Time zone">
      <div className="stack" style={{ margin: "0 16px 12px" }}>
        <Field
          label="Shop's time zone"
          hint={
            s.from === "env"
              ? "Set by IRONBOX_TIME_ZONE on the box: change it there"
              : !hq
                ? "The whole box's: head-quarters staff change it"
                : `Days, dates and times on every screen, receipt and report. Now: ${displayDateTime(new Date())}`
          }
        >
          <select value={pick} disabled={locked} onChange={(e) => setPick(e.target.value)}>
            {zones(s.time_zone).map((z) => (
              <option key={z}>{z}</option>
            ))}
          </select>
        </Field>
        {!locked && (
          <div className="form-buttons">
            <button type="button" className="btn btn-primary" disabled={saving || pick === s.time_zone} onClick={save}>
              Save time zone
            </button>
          </div>
        )}
      </div>
    </Section>
  );
}
