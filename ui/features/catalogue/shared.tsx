import { type ReactNode, useState } from "react";
import { uploadImage } from "../../lib/upload";
import { useHqStaff } from "../../app/access";
import { useManaged } from "../reference/state";

export const idOf = (params: Record<string, string | undefined>) => Number(params.id ?? 0) || 0;

/** A small image upload that stores the returned URL. */
export function ImagePicker({ value, onChange }: { value: string | null; onChange: (url: string | null) => void }) {
  const [busy, setBusy] = useState(false);
  async function upload(file: File) {
    setBusy(true);
    const img = await uploadImage(file);
    setBusy(false);
    if (img) onChange(img.url);
  }
  return (
    <div className="image-picker">
      {value && !value.startsWith("color:") && <img src={value} alt="" className="thumb" />}
      <input
        type="file"
        accept="image/png,image/jpeg,image/webp,image/gif"
        aria-label="Image"
        disabled={busy}
        onChange={(e) => e.target.files?.[0] && upload(e.target.files[0])}
      />
      {value && (
        <button type="button" className="btn btn-small" onClick={() => onChange(null)}>
          Remove image
        </button>
      )}
    </div>
  );
}

/** Says why a shop's admin cannot change what it sees (or that head quarters manages this box's copy). */
export function SharedDataNote() {
  if (useManaged())
    return (
      <p className="managed-banner" role="note">
        Reference data managed by head quarters: it changes there and arrives here with each new version.
      </p>
    );
  return (
    <p className="muted small" role="note">
      Shared by every shop: only head-quarters staff change it.
    </p>
  );
}

/**
 * Catalogue and places are shared by every shop (issue 11): HQ staff edit them, a shop's admin
 * sees the same form read-only (every control inside disabled) with a note saying why.
 */
export function Editable({ children }: { children: ReactNode }) {
  const hq = useHqStaff();
  return (
    <>
      {!hq && <SharedDataNote />}
      <fieldset disabled={!hq} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        {children}
      </fieldset>
    </>
  );
}
