import { useEffect, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { Field, FormButtons, Section, Toggle, DiscountField } from "../../components/form";
import { toast } from "../../components/toast";
import { euroFromEuros } from "../../../appliance/domain/format";
import { type Price, type SubCategory, listActions, listPrices } from "./api";
import { useHqStaff } from "../../app/access";
import { useRecord } from "../../lib/useRecord";
import { usePickList } from "../../lib/useList";
import { Editable, idOf } from "./shared";
import { api } from "../../lib/api";

/**
 * The price of an action for a garment: /actionGarmentSubCategory/{id} for an existing one,
 * /actionGarmentSubCategories/0?action=&subGarment= for a new one (spec §2).
 */
export function PriceDetail({ params }: { params: Record<string, string | undefined> }) {
  const id = idOf(params);
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const blank: Price = {
    id: 0,
    garment_sub_category_id: Number(search.get("subGarment")) || 0,
    action_id: Number(search.get("action")) || 0,
    price: 0,
    discount: null,
    is_percentage_of: null,
    effective_price: 0,
  };
  const { record: p, set, loaded, save, remove: removeRecord } = useRecord<Price>({ path: "/actionGarmentSubCategories/", id, blank });
  const { items: actions, failed: actionsFailed } = usePickList(listActions, "the actions");
  const garmentId = loaded ? p.garment_sub_category_id : 0;
  const { items: siblings, failed: siblingsFailed } = usePickList(
    () => (garmentId ? listPrices({ garment_sub_category_id: garmentId }) : Promise.resolve([])),
    "the garment's other prices",
    garmentId,
  );
  const [garment, setGarment] = useState<SubCategory | null>(null);
  useEffect(() => {
    if (!loaded || !p.garment_sub_category_id) return;
    api<SubCategory>("GET", `/garmentSubCategories/${p.garment_sub_category_id}`).then(setGarment);
  }, [loaded, p.garment_sub_category_id]);
  const back = `/garmentsSubCategory/${p.garment_sub_category_id}`;
  const remove = async () => (await removeRecord("ActionGarmentSubCategory Removed")) && navigate(back);
  const hq = useHqStaff();
  const actionName = (aid: number) => actions.find((a) => a.id === aid)?.name ?? "";

  async function submit() {
    if (!p.action_id || !p.garment_sub_category_id) return toast("Choose the action and the garment", "warning");
    const body = {
      garment_sub_category_id: p.garment_sub_category_id,
      action_id: p.action_id,
      price: Number(p.price) || 0,
      discount: p.discount,
      is_percentage_of: p.is_percentage_of,
    };
    const saved = await save(body);
    if (saved) navigate(back);
  }

  return (
    <Section title={`${actionName(p.action_id) || "Action"} price${garment ? ` for ${garment.name}` : ""}`}>
      {actionsFailed}
      {siblingsFailed}
      <Editable>
        <div className="grid-2">
          <Field label="Action">
            <select name="action_id" value={p.action_id || ""} onChange={(e) => set({ action_id: Number(e.target.value) })}>
              <option value="">Choose</option>
              {actions.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </Field>
          <Toggle
            label="Percentage of another price of this garment"
            checked={p.is_percentage_of != null}
            onChange={(on) => set({ is_percentage_of: on ? (siblings.find((x) => x.id !== id)?.id ?? null) : null })}
          />
          {p.is_percentage_of != null && (
            <Field label="Percentage of">
              <select name="is_percentage_of" value={p.is_percentage_of ?? ""} onChange={(e) => set({ is_percentage_of: Number(e.target.value) || null })}>
                {siblings
                  .filter((x) => x.id !== id)
                  .map((x) => (
                    <option key={x.id} value={x.id}>
                      {actionName(x.action_id)} ({euroFromEuros(x.effective_price)})
                    </option>
                  ))}
              </select>
            </Field>
          )}
          <Field label={p.is_percentage_of != null ? "Percent" : "Price (€)"}>
            <input name="price" type="number" min={0} step="0.01" value={p.price} onChange={(e) => set({ price: Number(e.target.value) })} />
          </Field>
          <DiscountField value={p.discount} onChange={(discount) => set({ discount })} />
          {id > 0 && <p className="muted">Effective price: {euroFromEuros(p.effective_price)}</p>}
        </div>
      </Editable>
      {hq && <FormButtons onSave={submit} onDelete={id ? remove : undefined} />}
    </Section>
  );
}
