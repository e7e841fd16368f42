import { useEffect, useState } from "react";
import { Field } from "../../components/form";
import type { AddressInput, Address, Locality, Street } from "../../../appliance/modules/places/model";
import { fetchList } from "../../lib/api";
import { usePickList } from "../../lib/useList";

/** Shared bits of the people screens: route ids, places pickers, small inputs. */

export type Params = Record<string, string | undefined>;
/** Spec §2: id 0 in a detail route means "new". */
export const idOf = (params: Params) => Number(params.id ?? 0) || 0;

/** What the address pickers edit: the address's own fields (spec §3). */
export type AddressDraft = Required<AddressInput>;

export const blankAddress: AddressDraft = { number: "", name: "", locality_id: 0, street_id: 0 };
export const draftOf = (a: Partial<Address> | null | undefined): AddressDraft => ({
  number: a?.number ?? "",
  name: a?.name ?? "",
  locality_id: a?.locality_id ?? 0,
  street_id: a?.street_id ?? 0,
});
/** Spec §5: an address is valid only when both locality and street are chosen. */
export const addressValid = (a: AddressDraft) => a.locality_id > 0 && a.street_id > 0;
export const addressTouched = (a: AddressDraft) => !!(a.locality_id || a.street_id || a.number.trim() || a.name.trim());

let localityCache: Promise<Locality[]> | null = null;
/**
 * Localities hardly change during a session; one fetch serves every screen. A failed fetch is
 * not cached and says so (issue 31): `failed` is the "Could not load" with Retry to show.
 */
export function useLocalities() {
  return usePickList(() => {
    localityCache ??= fetchList<Locality>("/localities/").then(
      (l) => {
        if (!l.length) localityCache = null;
        return l;
      },
      (e) => {
        localityCache = null;
        throw e;
      },
    );
    return localityCache;
  }, "the localities");
}

export function useStreets(localityId: number) {
  return usePickList(() => (localityId ? fetchList<Street>(`/streets/locality/${localityId}`) : Promise.resolve([])), "the streets", localityId);
}

/** Locality then street, with house number and name: the address block of every form. */
export function AddressFields({ value, onChange }: { value: AddressDraft; onChange: (a: AddressDraft) => void }) {
  const localityList = useLocalities();
  const streetList = useStreets(value.locality_id);
  const [localities, streets] = [localityList.items, streetList.items];
  const set = (patch: Partial<AddressDraft>) => onChange({ ...value, ...patch });
  return (
    <div className="grid-2">
      {localityList.failed}
      {streetList.failed}
      <Field label="Locality">
        <select name="locality_id" value={value.locality_id || ""} onChange={(e) => set({ locality_id: Number(e.target.value) || 0, street_id: 0 })}>
          <option value="">Choose a locality</option>
          {localities.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Street">
        <select name="street_id" value={value.street_id || ""} disabled={!value.locality_id} onChange={(e) => set({ street_id: Number(e.target.value) || 0 })}>
          <option value="">{value.locality_id ? "Choose a street" : "Choose a locality first"}</option>
          {streets.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
          {/* Keeps the saved street selectable while the list loads. */}
          {value.street_id > 0 && !streets.some((s) => s.id === value.street_id) && <option value={value.street_id}>…</option>}
        </select>
      </Field>
      <Field label="House number">
        <input name="number" value={value.number} autoComplete="off" onChange={(e) => set({ number: e.target.value })} />
      </Field>
      <Field label="House name">
        <input name="name" value={value.name} autoComplete="off" onChange={(e) => set({ name: e.target.value })} />
      </Field>
    </div>
  );
}

/** Spec §5: mobile and landline are numeric; the keypad on a tablet, digits only kept. */
export function PhoneInput({ name, value, onChange, onBlur }: { name: string; value: string; onChange: (v: string) => void; onBlur?: () => void }) {
  return (
    <input
      name={name}
      type="tel"
      inputMode="numeric"
      pattern="[0-9]*"
      autoComplete="off"
      value={value}
      onChange={(e) => onChange(e.target.value.replace(/\D/g, ""))}
      onBlur={onBlur}
    />
  );
}

/** A list of toggle chips: tap to pick or unpick (preferences, localities). */
export function ChipToggles<T extends { id: number; name: string }>({
  items,
  selected,
  onToggle,
  label,
  disabled,
}: {
  items: T[];
  selected: Set<number>;
  onToggle: (id: number) => void;
  label: string;
  disabled?: boolean;
}) {
  if (!items.length) return <p className="muted">Nothing to choose from.</p>;
  return (
    <div className="people-chips" role="group" aria-label={label}>
      {items.map((i) => {
        const on = selected.has(i.id);
        return (
          <button key={i.id} type="button" className={`people-chip${on ? " on" : ""}`} aria-pressed={on} disabled={disabled} onClick={() => onToggle(i.id)}>
            <span className="people-chip-mark" aria-hidden="true">
              {on ? "✓" : "+"}
            </span>
            {i.name}
          </button>
        );
      })}
    </div>
  );
}

/** A read-only figure of a statistics panel. */
export function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="people-stat">
      <span className="muted">{label}</span>
      <strong>{value}</strong>
    </div>
  );
}

/** True on a phone-sized screen (infinite scroll instead of page buttons). */
export function useIsPhone(query = "(max-width: 600px)") {
  const [phone, setPhone] = useState(() => typeof matchMedia === "function" && matchMedia(query).matches);
  useEffect(() => {
    const m = matchMedia(query);
    const on = () => setPhone(m.matches);
    m.addEventListener("change", on);
    return () => m.removeEventListener("change", on);
  }, [query]);
  return phone;
}

/** Spec §9 and §2: a generated agent password is 12 characters of letters and digits. */
export function generatePassword(length = 12): string {
  const chars = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  const bytes = new Uint32Array(length);
  crypto.getRandomValues(bytes);
  let out = Array.from(bytes, (b) => chars[b % chars.length]).join("");
  // At least one letter and one digit, so every generated password is "letters and digits".
  if (!/\d/.test(out)) out = out.slice(0, -1) + String(bytes[0]! % 10);
  if (!/[a-z]/i.test(out)) out = "a" + out.slice(1);
  return out;
}
