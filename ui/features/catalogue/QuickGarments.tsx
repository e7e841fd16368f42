import { useMemo, useState } from "react";
import { roundEuros } from "../../../appliance/domain/money";
import { toast } from "../../components/toast";
import { api } from "../../lib/api";
import { usePickList } from "../../lib/useList";
import { useHqStaff } from "../../app/access";
import { Editable } from "./shared";
import { listActions, listCategories, listPrices } from "./api";

const key = (g: number, a: number) => `${g}:${a}`;

/**
 * One grid of every garment × action price (issue 3): edit in place, Enter or ↓ moves down,
 * ↑ up, Tab across; Save sends every changed cell in one request (all or nothing).
 */
export function QuickGarments() {
  const catList = usePickList(listCategories, "the garments");
  const actionList = usePickList(listActions, "the actions");
  const priceList = usePickList(() => listPrices({}), "the prices");
  const [cats, actions, prices] = [catList.items, actionList.items, priceList.items];
  // A price grid whose prices failed to load shows blanks that are not "no price": it is not saved until they load (issue 31).
  const allLoaded = catList.loaded && actionList.loaded && priceList.loaded;
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const hq = useHqStaff();
  const load = () => Promise.all([catList.retry(), actionList.retry(), priceList.retry()]);

  const byCell = useMemo(() => new Map(prices.map((p) => [key(p.garment_sub_category_id, p.action_id), p])), [prices]);
  const rows = cats.flatMap((c) => c.sub_categories.map((s) => ({ cat: c.name, g: s })));
  const shownValue = (g: number, a: number) => edits[key(g, a)] ?? byCell.get(key(g, a))?.effective_price.toFixed(2) ?? "";
  const changed = Object.keys(edits).filter((k) => {
    const before = byCell.get(k)?.effective_price.toFixed(2) ?? "";
    return edits[k]!.trim() !== before;
  });

  function onKey(e: React.KeyboardEvent<HTMLInputElement>, row: number, col: number) {
    const move = e.key === "Enter" || e.key === "ArrowDown" ? 1 : e.key === "ArrowUp" ? -1 : 0;
    if (!move) return;
    e.preventDefault();
    document.querySelector<HTMLInputElement>(`[data-cell="${row + move}:${col}"]`)?.focus();
  }

  async function saveAll() {
    const cells = changed.map((k) => {
      const [g, a] = k.split(":").map(Number) as [number, number];
      const v = edits[k]!.trim();
      return { garment_sub_category_id: g, action_id: a, price: v === "" ? null : Math.max(0, roundEuros(Number(v))) };
    });
    if (cells.some((c) => c.price !== null && !Number.isFinite(c.price))) return toast("Prices must be numbers", "warning");
    if (!cells.length) return toast("Nothing changed", "warning");
    if (!allLoaded) return;
    setSaving(true);
    try {
      await api("PUT", "/actionGarmentSubCategories/bulk", { body: cells, quiet: true });
      toast("Settings saved.");
      setEdits({});
      await load();
    } catch (e) {
      toast(e instanceof Error ? e.message : "Something went wrong", "danger");
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="stack">
      {catList.failed}
      {actionList.failed}
      {priceList.failed}
      {hq && (
        <div className="toolbar">
          <span className="muted">{changed.length ? `${changed.length} changed` : "Type a price to change it; blank removes it."}</span>
          <button type="button" className="btn btn-primary" onClick={saveAll} disabled={saving || !allLoaded || !changed.length}>
            Save prices
          </button>
        </div>
      )}
      <Editable>
        <div className="grid-scroll card">
          <table className="price-grid">
            <thead>
              <tr>
                <th scope="col">Garment</th>
                {actions.map((a) => (
                  <th key={a.id} scope="col">
                    {a.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map(({ cat, g }, r) => (
                <tr key={g.id}>
                  <th scope="row">
                    {g.name} <small className="muted">{cat}</small>
                  </th>
                  {actions.map((a, c) => {
                    const k = key(g.id, a.id);
                    return (
                      <td key={a.id}>
                        <input
                          data-cell={`${r}:${c}`}
                          aria-label={`${g.name} ${a.name}`}
                          inputMode="decimal"
                          className={changed.includes(k) ? "cell-changed" : byCell.get(k)?.is_percentage_of ? "cell-percent" : ""}
                          title={byCell.get(k)?.is_percentage_of ? "A percentage of another price; typing here makes it a flat price" : undefined}
                          value={shownValue(g.id, a.id)}
                          onChange={(e) => setEdits({ ...edits, [k]: e.target.value })}
                          onKeyDown={(e) => onKey(e, r, c)}
                        />
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Editable>
    </div>
  );
}
