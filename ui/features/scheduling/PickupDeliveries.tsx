import { useEffect, useState } from "react";
import { businessDay } from "../../../appliance/domain/dates";
import { displayDate } from "../../../appliance/domain/format";
import { SEASONS, WEEKDAYS, isDated, type SeasonName } from "../../../appliance/domain/schedule";
import { useHqStaff } from "../../app/access";
import { DateField } from "../../components/DateField";
import { failureMessage } from "../../components/records";
import { toast } from "../../components/toast";
import { LoadFailed } from "../../components/LoadFailed";
import { fetchList, loadFailure } from "../../lib/api";
import { useList } from "../../lib/useList";
import { Editable } from "../catalogue/shared";
import { ChipToggles } from "../people/fields";
import { type Named, listPickupDeliveries, savePickupDeliveries } from "./api";
import { type SeasonRow, dayToMonthDay, emptyWeek, expandRows, groupSettings, monthDayToDay, newKey } from "./pdGroups";
import { toAmount } from "./Workload";

/** Monday first, as the shop's week; values are the API's day_of_week (0 Sunday). */
const WEEK = [1, 2, 3, 4, 5, 6, 0];

/**
 * /configPickupDeliveries (spec §2, §3 Pickup/delivery setting): how many pickups and
 * deliveries each locality takes per weekday, per season (PEAK, OFFSEASON, each optionally
 * from..to a day of the year). One table of seasons × weekdays (issue 25; a card per weekday
 * per season was 14 cards for one locality's week); the whole list is saved at once and
 * replaces what was there.
 */
export function PickupDeliveriesScreen() {
  const [rows, setRows] = useState<SeasonRow[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const localityList = useList(() => fetchList<Named>("/localities/"));
  const localities = localityList.items ?? [];
  const [saving, setSaving] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  const hq = useHqStaff();
  const year = Number(businessDay(new Date()).slice(0, 4));
  const load = () =>
    listPickupDeliveries().then(
      (list) => {
        // Season by season (spec §9 order), then by start.
        setRows(groupSettings(list).sort((a, b) => SEASONS.indexOf(a.season) - SEASONS.indexOf(b.season) || a.from.localeCompare(b.from)));
        setFailed(null);
      },
      (e) => setFailed(loadFailure(e)),
    );
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once; Retry and Save load again
  useEffect(() => void load(), []);
  // Save replaces the whole list: a list that failed to load is never edited nor saved (issue 31),
  // else an admin who "adds the missing one" wipes every other locality's capacity.
  const loaded = rows !== null && !failed;

  const set = (key: number, patch: Partial<SeasonRow>) => setRows((rows ?? []).map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const add = (season: SeasonName) => {
    const key = newKey();
    setRows([...(rows ?? []), { key, season, from: "", to: "", localities: [], quantities: emptyWeek() }]);
    setOpen(key);
  };
  const names = (ids: number[]) => localities.filter((l) => ids.includes(l.id)).map((l) => l.name);

  async function save() {
    if (!rows || !loaded) return;
    if (rows.some((r) => !r.localities.length)) return toast("Choose at least one locality for every setting", "warning");
    setSaving(true);
    try {
      await savePickupDeliveries(expandRows(rows));
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
          <button type="button" className="btn" disabled={!loaded} onClick={() => add("PEAK")}>
            + PEAK setting
          </button>
          <button type="button" className="btn" disabled={!loaded} onClick={() => add("OFFSEASON")}>
            + OFFSEASON setting
          </button>
          <span className="people-hint" />
          <button type="button" className="btn btn-primary" onClick={save} disabled={saving || !loaded}>
            Save settings
          </button>
        </div>
      )}
      <p className="muted small">
        Each row gives every chosen locality that many stops (pickups and deliveries) on each weekday; an empty day has no setting. With From and To it applies
        only between those days, every year (the year is not kept), and for its localities replaces the rows without dates; if To is not after From it always
        applies.
      </p>
      <LoadFailed what="the localities" error={localityList.error} onRetry={() => void localityList.retry()} />
      <Editable>
        {failed ? (
          <LoadFailed what="the pickup and delivery settings" error={failed} onRetry={() => void load()} />
        ) : rows === null ? (
          <p className="muted">Loading…</p>
        ) : rows.length === 0 ? (
          <p className="empty">No settings yet: no locality can be booked for pickup or delivery.</p>
        ) : (
          <div className="table-scroll card">
            <table className="pd-table" aria-label="Pickups and deliveries per weekday">
              <thead>
                <tr>
                  <th scope="col">Season</th>
                  <th scope="col">From</th>
                  <th scope="col">To</th>
                  {WEEK.map((d) => (
                    <th key={d} scope="col" title={WEEKDAYS[d]}>
                      {WEEKDAYS[d]!.slice(0, 3)}
                    </th>
                  ))}
                  {hq && <th scope="col" aria-label="Remove" />}
                </tr>
              </thead>
              {rows.map((r, i) => (
                <tbody key={r.key} aria-label={`Setting ${i + 1}`} data-testid="pd-setting">
                  <tr>
                    <td>
                      <select aria-label="Season" className="pd-season" value={r.season} onChange={(e) => set(r.key, { season: e.target.value as SeasonName })}>
                        {SEASONS.map((s) => (
                          <option key={s}>{s}</option>
                        ))}
                      </select>
                    </td>
                    <td className="pd-date">
                      <DateField label="From" value={monthDayToDay(r.from, year)} onChange={(d) => set(r.key, { from: dayToMonthDay(d) })} />
                    </td>
                    <td className="pd-date">
                      <DateField label="To" value={monthDayToDay(r.to, year)} onChange={(d) => set(r.key, { to: dayToMonthDay(d) })} />
                    </td>
                    {WEEK.map((d) => (
                      <td key={d}>
                        <input
                          type="number"
                          inputMode="numeric"
                          min={0}
                          className="pd-qty"
                          aria-label={WEEKDAYS[d]}
                          value={r.quantities[d]}
                          onChange={(e) =>
                            set(r.key, {
                              quantities: r.quantities.map((q, n) => (n === d ? (e.target.value === "" ? "" : String(toAmount(e.target.value))) : q)),
                            })
                          }
                        />
                      </td>
                    ))}
                    {hq && (
                      <td>
                        <button type="button" className="btn btn-small btn-danger" onClick={() => setRows(rows.filter((x) => x.key !== r.key))}>
                          Remove
                        </button>
                      </td>
                    )}
                  </tr>
                  <tr className="pd-localities">
                    <td colSpan={WEEK.length + (hq ? 4 : 3)}>
                      <div className="pd-localities-head">
                        <span className="muted small">
                          {isDated(r)
                            ? `Every year ${displayDate(monthDayToDay(r.from, year)).slice(0, 5)} – ${displayDate(monthDayToDay(r.to, year)).slice(0, 5)}`
                            : "All year"}
                          {" · "}
                          {r.localities.length ? names(r.localities).join(", ") : "no localities yet"}
                        </span>
                        <button type="button" className="btn btn-small" aria-expanded={open === r.key} onClick={() => setOpen(open === r.key ? null : r.key)}>
                          Localities ({r.localities.length})
                        </button>
                      </div>
                      {open === r.key && (
                        <ChipToggles
                          label="Localities"
                          items={localities}
                          selected={new Set(r.localities)}
                          onToggle={(id) =>
                            set(r.key, {
                              localities: r.localities.includes(id) ? r.localities.filter((l) => l !== id) : [...r.localities, id].sort((a, b) => a - b),
                            })
                          }
                        />
                      )}
                    </td>
                  </tr>
                </tbody>
              ))}
            </table>
          </div>
        )}
      </Editable>
    </div>
  );
}
