import { type ReactNode, useEffect, useState } from "react";
import { useLocation } from "wouter";
import { toast } from "../../components/toast";
import { deleteRecord, failureMessage } from "../../components/records";
import { api } from "../../lib/api";
import { uploadImage } from "../../lib/upload";
import { useHqStaff } from "../../app/access";

/** Loads a record for a detail screen; id 0 means new (spec §2). */
export function useRecord<T>(path: string, id: number, blank: T): [T, (t: T) => void, boolean] {
  const [rec, setRec] = useState<T>(blank);
  const [loaded, setLoaded] = useState(id === 0);
  useEffect(() => {
    if (!id) return;
    api<T>("GET", `${path}${id}`).then((r) => {
      setRec(r);
      setLoaded(true);
    });
  }, [path, id]);
  return [rec, setRec, loaded];
}

/**
 * Saves a record the spec's way (§8): a failed create shows the server's message, a failed
 * update 'Something went wrong'. Returns the saved record or null.
 */
export async function saveRecord<T>(run: () => Promise<T>, isNew: boolean, okText = "Information Saved"): Promise<T | null> {
  try {
    const r = await run();
    toast(okText);
    return r;
  } catch (e) {
    toast(failureMessage(e, isNew), "danger");
    return null;
  }
}

/** Spec §5: deleting with id 0 makes no call; every delete asks first. */
export function useDelete(path: string, id: number, okText: string, then: string) {
  const [, navigate] = useLocation();
  return async () => {
    if (await deleteRecord({ path, id, okText })) navigate(then);
  };
}

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
      <input type="file" accept="image/png,image/jpeg,image/webp,image/gif" aria-label="Image" disabled={busy} onChange={(e) => e.target.files?.[0] && upload(e.target.files[0])} />
      {value && (
        <button type="button" className="btn btn-small" onClick={() => onChange(null)}>
          Remove image
        </button>
      )}
    </div>
  );
}

/** Says why a shop's admin cannot change what it sees. */
export function SharedDataNote() {
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
