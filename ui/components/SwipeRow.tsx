import { type ReactNode, useRef, useState } from "react";

/**
 * A row that slides left under a finger to show its options (spec §2: item rows on a phone
 * swipe to comments, delete, print). A tap still reaches the row; a swipe does not.
 */
export function SwipeRow({ children, options }: { children: ReactNode; options: { label: string; onClick: () => void; danger?: boolean }[] }) {
  const [open, setOpen] = useState(false);
  const start = useRef<{ x: number; y: number } | null>(null);
  const swiped = useRef(false);
  return (
    <div
      className={`swipe-row ${open ? "swipe-open" : ""}`}
      onPointerDown={(e) => {
        start.current = { x: e.clientX, y: e.clientY };
        swiped.current = false;
      }}
      onPointerUp={(e) => {
        const s = start.current;
        start.current = null;
        if (!s) return;
        const dx = e.clientX - s.x;
        if (Math.abs(dx) > 50 && Math.abs(dx) > Math.abs(e.clientY - s.y)) {
          swiped.current = true;
          setOpen(dx < 0);
        }
      }}
      onClickCapture={(e) => {
        // The click that ends a swipe must not also select the row.
        if (swiped.current) {
          e.stopPropagation();
          swiped.current = false;
        }
      }}
    >
      <div className="swipe-options" aria-hidden={!open}>
        {options.map((o) => (
          <button
            key={o.label}
            type="button"
            tabIndex={open ? 0 : -1}
            className={`btn btn-small ${o.danger ? "btn-danger" : ""}`}
            onClick={() => (setOpen(false), o.onClick())}
          >
            {o.label}
          </button>
        ))}
      </div>
      <div className="swipe-content">{children}</div>
    </div>
  );
}
