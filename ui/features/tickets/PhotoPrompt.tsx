/**
 * An action that needs a photo (images_required) asks for one before it is added: take or
 * choose a photo, add it without one, or cancel (which adds nothing).
 */
export function PhotoPrompt({ actionName, onPhoto, onCancel }: { actionName: string; onPhoto: (file: File | null) => void; onCancel: () => void }) {
  return (
    <div className="overlay">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="photo-title">
        <h2 id="photo-title">Need to select image!</h2>
        <p>{actionName} needs a photo of the garment before it is added.</p>
        <label className="btn btn-primary">
          Take or choose a photo
          <input type="file" accept="image/*" capture="environment" hidden aria-label="Photo" onChange={(e) => onPhoto(e.target.files?.[0] ?? null)} />
        </label>
        <div className="dialog-buttons">
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn" onClick={() => onPhoto(null)}>
            Add without photo
          </button>
        </div>
      </div>
    </div>
  );
}
