import type { ReactNode } from "react";
import { clampPercent, formatDiscount, parseDiscount } from "../../appliance/domain/money";

/** Small form building blocks shared by the detail screens. */
/** A labelled control; the hint sits outside the label so the control's name is the label alone. */
export function Field({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <div className="field">
      <label>
        <span>{label}</span>
        {children}
      </label>
      {hint && <small className="muted">{hint}</small>}
    </div>
  );
}

export function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="toggle">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card section">
      <div className="section-head">
        <h2>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** Save and (for existing records) Delete, at the bottom of a detail screen. */
export function FormButtons({
  onSave,
  onDelete,
  saving,
  saveLabel = "Save",
}: {
  onSave: () => void;
  onDelete?: () => void;
  saving?: boolean;
  saveLabel?: string;
}) {
  return (
    <div className="form-buttons">
      {onDelete && (
        <button type="button" className="btn btn-danger" onClick={onDelete}>
          Delete
        </button>
      )}
      <button type="button" className="btn btn-primary" onClick={onSave} disabled={saving}>
        {saveLabel}
      </button>
    </div>
  );
}

/** Spec §5: discounts and percentages are whole numbers clamped to 0..100, by the box's rule (domain/money.ts). */
export const clamp100 = (v: string) => clampPercent(Number(v));
/** "PERCENTAGE n" → n, by the box's own rule (domain/money.ts): "12.5" is 13, "-5" is 0. */
export const discountValue = (d: string | null | undefined) => parseDiscount(d);

/**
 * The catalogue's "Discount %" field (actions, garments, modifiers, prices): one input reading
 * and writing the stored "PERCENTAGE n" text through the box's own parser (issue 31), so a
 * typed "12.5" or "-5" becomes what the server would make of it.
 */
export function DiscountField({ value, onChange }: { value: string | null | undefined; onChange: (discount: string) => void }) {
  return (
    <Field label="Discount %" hint="0 to 100">
      <input
        name="discount"
        type="number"
        inputMode="numeric"
        min={0}
        max={100}
        step={1}
        value={parseDiscount(value)}
        onChange={(e) => onChange(formatDiscount(parseDiscount(e.target.value)))}
      />
    </Field>
  );
}
