import { useMemo, useState } from "react";
import type { Category } from "../../../appliance/modules/catalogue/model";
import { fuzzySearch } from "../../lib/fuzzy";

/**
 * The counter's garment panel (spec §9): category tabs, or a search across every category,
 * and a copy count; tapping a garment adds that many items of it. The panel folds away on
 * small screens.
 */
const searchGarments = fuzzySearch<{ name: string }>((g) => [g.name]);

export function GarmentPicker({ categories, onAdd }: { categories: Category[]; onAdd: (garmentId: number, copies: number) => Promise<unknown> }) {
  const [open, setOpen] = useState(true);
  const [search, setSearch] = useState("");
  const [copies, setCopies] = useState(1);
  const [chosenCat, setCatId] = useState<number | null>(null);
  const catId = chosenCat ?? categories[0]?.id ?? null;
  const garments = useMemo(() => {
    const q = search.trim().toLowerCase();
    const all = categories.flatMap((c) => c.sub_categories.map((s) => ({ ...s, cat: c.id })));
    return q ? searchGarments(all, q) : all.filter((g) => g.cat === catId);
  }, [categories, catId, search]);
  // Spec §9: the copy count resets to 1 after adding.
  const add = (garmentId: number) => void onAdd(garmentId, copies).finally(() => setCopies(1));

  return (
    <section className="card garment-panel">
      <button type="button" className="panel-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        Garments {open ? "▾" : "▸"}
      </button>
      {open && (
        <>
          <div className="toolbar">
            <input
              className="search"
              type="search"
              aria-label="Search garments"
              placeholder="Search garments"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <label className="copies">
              Copies
              <input
                type="number"
                min={1}
                max={100}
                aria-label="Copies"
                value={copies}
                onChange={(e) => setCopies(Math.max(1, Math.min(100, Number(e.target.value) || 1)))}
              />
            </label>
          </div>
          {!search && (
            <div className="tabs" role="tablist">
              {categories.map((c) => (
                <button
                  key={c.id}
                  type="button"
                  role="tab"
                  aria-selected={c.id === catId}
                  className={`tab ${c.id === catId ? "tab-on" : ""}`}
                  onClick={() => setCatId(c.id)}
                >
                  {c.name}
                </button>
              ))}
            </div>
          )}
          <div className="garment-grid">
            {garments.map((g) => (
              <button key={g.id} type="button" className="garment-btn" onClick={() => add(g.id)}>
                {g.image && <img src={g.image} alt="" />}
                {g.name}
              </button>
            ))}
          </div>
        </>
      )}
    </section>
  );
}
