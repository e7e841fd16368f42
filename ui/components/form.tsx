import type { ReactNode } from "react";
import { parseDiscount } from "../../appliance/domain/money";

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

/** Spec §5: discounts and percentages are whole numbers clamped to 0..100. */
export const clamp100 = (v: string) => {
  const n = Math.round(Number(v));
  return Number.isFinite(n) ? Math.min(100, Math.max(0, n)) : 0;
};
/** "PERCENTAGE n" → n, by the box's own rule (domain/money.ts): "12.5" is 13, "-5" is 0. */
export const discountValue = (d: string | null | undefined) => parseDiscount(d);
