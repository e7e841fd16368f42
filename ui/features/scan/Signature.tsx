import { forwardRef, useImperativeHandle, useRef } from "react";

export interface SignatureHandle {
  /** PNG data URL of the drawing, or null when nothing was drawn. */
  value(): string | null;
  clear(): void;
}

/** Spec §2/§9: a 500 × 200 signature canvas, drawn with a finger, pen or mouse. */
export const SignaturePad = forwardRef<SignatureHandle>(function SignaturePad(_, ref) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawn = useRef(false);
  const last = useRef<{ x: number; y: number } | null>(null);
  const point = (e: React.PointerEvent) => {
    const r = canvas.current!.getBoundingClientRect();
    return { x: ((e.clientX - r.left) * 500) / r.width, y: ((e.clientY - r.top) * 200) / r.height };
  };
  useImperativeHandle(ref, () => ({
    value: () => (drawn.current ? canvas.current!.toDataURL("image/png") : null),
    clear: () => {
      canvas.current!.getContext("2d")!.clearRect(0, 0, 500, 200);
      drawn.current = false;
    },
  }));
  return (
    <canvas
      ref={canvas}
      width={500}
      height={200}
      className="signature-pad"
      aria-label="Signature"
      onPointerDown={(e) => {
        canvas.current!.setPointerCapture(e.pointerId);
        last.current = point(e);
      }}
      onPointerMove={(e) => {
        if (!last.current) return;
        const p = point(e);
        const ctx = canvas.current!.getContext("2d")!;
        ctx.lineWidth = 2.5;
        ctx.lineCap = "round";
        ctx.strokeStyle = "#14202b";
        ctx.beginPath();
        ctx.moveTo(last.current.x, last.current.y);
        ctx.lineTo(p.x, p.y);
        ctx.stroke();
        last.current = p;
        drawn.current = true;
      }}
      onPointerUp={() => (last.current = null)}
    />
  );
});
