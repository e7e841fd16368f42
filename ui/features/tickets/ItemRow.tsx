import { euroFromEuros } from "../../../appliance/domain/format";
import { useState } from "react";
import type { Item } from "../../../appliance/modules/tickets/model";

/** The item's image viewer: a count that opens the photos taken for its actions. */
export function PhotoViewer({ urls }: { urls: string[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <span
        role="button"
        tabIndex={0}
        className="photos-link"
        onClick={(e) => (e.stopPropagation(), setOpen(true))}
        onKeyDown={(e) => e.key === "Enter" && (e.stopPropagation(), setOpen(true))}
      >
        📷 {urls.length} photo{urls.length > 1 ? "s" : ""}
      </span>
      {open && (
        <span className="overlay" role="dialog" aria-label="Photos" onClick={(e) => (e.stopPropagation(), setOpen(false))}>
          <span className="photo-strip">
            {urls.map((u) => (
              <img key={u} src={u} alt="Garment" />
            ))}
          </span>
        </span>
      )}
    </>
  );
}

/**
 * Spec §2 ticket item row: actions (first letter and price), garment name, pieces,
 * modifiers, comments (green), quantity where allowed, total with override; express in red.
 */
export function ItemRow({ item, selected, onSelect }: { item: Item; selected?: boolean; onSelect?: () => void }) {
  const pieces = item.pieces ? item.pieces.split(",") : [];
  const classes = ["item-row", selected ? "item-selected" : "", item.has_express ? "item-express" : ""].join(" ");
  const body = (
    <>
      <span className="item-actions">
        {item.actions.map((a) => (
          <span key={a.id} className="action-pill" title={a.name}>
            {a.name[0]} {euroFromEuros(a.price)}
          </span>
        ))}
      </span>
      <span className="item-main">
        <strong>{item.sub_category?.name ?? item.description}</strong>
        {pieces.length > 0 && <span className="muted"> · {pieces.join(", ")}</span>}
        {item.sub_category?.allow_quantity && <span className="qty"> × {item.quantity}</span>}
        {item.modifiers.length > 0 && <span className="item-mods">{item.modifiers.map((m) => m.name).join(", ")}</span>}
        {item.comments && <span className="item-comment">{item.comments}</span>}
        {item.location && <span className="item-location">On {item.location}</span>}
        {item.image_urls.length > 0 && <PhotoViewer urls={item.image_urls} />}
      </span>
      <span className="item-total">
        {item.total_override != null ? (
          <>
            <s className="muted">{euroFromEuros(item.total)}</s> {euroFromEuros(item.total_override)}
          </>
        ) : (
          euroFromEuros(item.total)
        )}
      </span>
    </>
  );
  return onSelect ? (
    <button type="button" className={classes} aria-pressed={selected} data-testid="item-row" onClick={onSelect}>
      {body}
    </button>
  ) : (
    <div className={classes} data-testid="item-row">
      {body}
    </div>
  );
}
