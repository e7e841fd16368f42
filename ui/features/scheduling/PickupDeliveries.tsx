import { useEffect, useState } from "react";
import { SEASONS, WEEKDAYS, isDated, type SeasonName } from "../../../appliance/domain/schedule";
import { Field } from "../../components/form";
import { failureMessage } from "../../components/records";
import { toast } from "../../components/toast";
import { apiList } from "../../lib/api";
import { useHqStaff } from "../../app/access";
import { Editable } from "../catalogue/shared";
import { ChipToggles } from "../people/fields";
import { type Named, listPickupDeliveries, savePickupDeliveries } from "./api";
import { toAmount } from "./Workload";

interface Row {
  /** Local key only: saving replaces every setting, so stored ids do not survive. */
  key: number;
  season: SeasonName;
  from: string;
  to: string;
  day_of_week: number;
  quantity: number;
  localities: number[];
}
let nextKey = 1;

/**
 * /configPickupDeliveries (spec §2, §3 Pickup/delivery setting): how many pickups and
 * deliveries each locality takes per weekday, per season (PEAK, OFFSEASON, each optionally
 * from..to a month-day). The whole list is saved at once and replaces what was there.
 */
export function PickupDeliveriesScreen() {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [localities, setLocalities] = useState<Named[]>([]);
  const [saving, setSaving] = useState(false);
  const hq = useHqStaff();
  const load = () =>
    listPickupDeliveries().then((list) =>
      setRows(
        list
          .map((p) => ({
            key: nextKey++,
            season: p.season,
            from: p.from ?? "",
            to: p.to ?? "",
            day_of_week: p.day_of_week,
            quantity: p.quantity,
            localities: p.locality_ids,
          }))
          // Season by season (spec §9 order), then by weekday and start.
          .sort((a, b) => SEASONS.indexOf(a.season) - SEASONS.indexOf(b.season) || a.day_of_week - b.day_of_week || a.from.localeCompare(b.from)),
      ),
    );
  useEffect(() => {
    load();
    apiList<Named>("/localities/").then(setLocalities);
  }, []);

  const set = (key: number, patch: Partial<Row>) => setRows((rows ?? []).map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const add = (season: SeasonName) => setRows([...(rows ?? []), { key: nextKey++, season, from: "", to: "", day_of_week: 1, quantity: 10, localities: [] }]);

  async function save() {
    if (!rows) return;
    if (rows.some((r) => !r.localities.length)) return toast("Choose at least one locality for every setting", "warning");
    setSaving(true);
    try {
      await savePickupDeliveries(
        rows.map((r) => ({
          season: r.season,
          from: r.from.trim() || null,
          to: r.to.trim() || null,
          day_of_week: r.day_of_week,
          quantity: r.quantity,
          localities: r.localities,
        })),
      );
      toast("Settings saved.");
      await load();
    } catch (e) {
      toast(failureMessage(e), "danger");
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="stack">
      {hq && (
        <div className="toolbar">
          <button type="button" className="btn" onClick={() => add("PEAK")}>
            + PEAK setting
          </button>
          <button type="button" className="btn" onClick={() => add("OFFSEASON")}>
            + OFFSEASON setting
          </button>
          <span className="people-hint" />
          <button type="button" className="btn btn-primary" onClick={save} disabled={saving || !rows}>
            Save settings
          </button>
        </div>
      )}
      <p className="muted small">
        Each setting gives every chosen locality that many stops (pickups and deliveries) on its weekday. With From and To (month-day, MM-DD) it applies only
        between them, and for its localities replaces the settings without dates; if To is not after From it always applies.
      </p>
      <Editable>
        {rows === null ? (
          <p className="muted">Loading…</p>
        ) : rows.length === 0 ? (
          <p className="empty">No settings yet: no locality can be booked for pickup or delivery.</p>
        ) : (
          <div className="pd-list">
            {rows.map((r, i) => (
              <section key={r.key} className="card section pd-setting" aria-label={`Setting ${i + 1}`} data-testid="pd-setting">
                <div className="pd-fields">
                  <Field label="Season">
                    <select value={r.season} onChange={(e) => set(r.key, { season: e.target.value as SeasonName })}>
                      {SEASONS.map((s) => (
                        <option key={s}>{s}</option>
                      ))}
                    </select>
                  </Field>
                  <Field label="Weekday">
                    <select value={r.day_of_week} onChange={(e) => set(r.key, { day_of_week: Number(e.target.value) })}>
                      {WEEKDAYS.map((d, n) => (
                        <option key={d} value={n}>
                          {d}
                        </option>
                      ))}
                    </select>
                  </Field>
                  <Field label="Quantity">
                    <input type="number" inputMode="numeric" min={0} value={r.quantity} onChange={(e) => set(r.key, { quantity: toAmount(e.target.value) })} />
                  </Field>
                  <Field label="From">
                    <input placeholder="MM-DD" inputMode="numeric" maxLength={5} value={r.from} onChange={(e) => set(r.key, { from: e.target.value })} />
                  </Field>
                  <Field label="To">
                    <input placeholder="MM-DD" inputMode="numeric" maxLength={5} value={r.to} onChange={(e) => set(r.key, { to: e.target.value })} />
                  </Field>
                </div>
                <small className="muted">{isDated(r) ? `From ${r.from} to ${r.to}` : "All year"}</small>
                <ChipToggles
                  label="Localities"
                  items={localities}
                  selected={new Set(r.localities)}
                  onToggle={(id) => set(r.key, { localities: r.localities.includes(id) ? r.localities.filter((l) => l !== id) : [...r.localities, id] })}
                />
                {hq && (
                  <div className="form-buttons">
                    <button type="button" className="btn btn-small btn-danger" onClick={() => setRows(rows.filter((x) => x.key !== r.key))}>
                      Remove setting
                    </button>
                  </div>
                )}
              </section>
            ))}
          </div>
        )}
      </Editable>
    </div>
  );
}
