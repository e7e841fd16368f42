import { useEffect, useState } from "react";
import { Link } from "wouter";
import type { Attention } from "../../../appliance/modules/boxhealth/model";
import { boxHealth } from "./api";

/** The home screen's warning tile (admins): shown only while something on the box needs a person. */
export function BoxWarning() {
  const [attention, setAttention] = useState<Attention[]>([]);
  useEffect(() => {
    const load = () =>
      boxHealth(true).then(
        (h) => setAttention(h.needs_attention),
        () => {},
      );
    void load();
    const t = setInterval(load, 60_000);
    return () => clearInterval(t);
  }, []);
  if (!attention.length) return null;
  return (
    // Outside the menu's tiles (their order is the spec's), above them, in the danger colour.
    <Link
      href="/box"
      className="card box-warning"
      role="alert"
      style={{ display: "flex", gap: 12, alignItems: "center", padding: "12px 16px", borderLeft: "6px solid var(--danger)", textDecoration: "none" }}
    >
      <strong>The box needs attention{attention.length > 1 ? ` (${attention.length})` : ""}</strong>
      <span>{attention[0]!.message}</span>
    </Link>
  );
}
