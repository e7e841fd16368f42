import { useSignals } from "@preact/signals-react/runtime";
import { boxUnreachable, lastContact } from "../../lib/connection";

import { businessDay } from "../../../appliance/domain/dates";
import { displayDate, displayTime } from "../../../appliance/domain/format";

/** Spans the top of every screen while the box does not answer (lib/connection.ts). */
export function OfflineBanner() {
  useSignals();
  if (!boxUnreachable.value) return null;
  const last = lastContact.value;
  return (
    <div
      role="alert"
      data-testid="offline-banner"
      style={{ position: "sticky", top: 0, zIndex: 1000, background: "#b7791f", color: "#fff", padding: "10px 16px", fontWeight: 600, textAlign: "center" }}
    >
      The box is not answering — retrying.{" "}
      <span style={{ fontWeight: 400 }}>
        {last ? (
          <>
            Last contact <time dateTime={last.toISOString()}>{displayTime(last, true)}</time>
            {businessDay(last) !== businessDay(new Date()) ? ` on ${displayDate(last.toISOString())}` : ""}.
          </>
        ) : (
          "No contact yet from this tablet."
        )}
      </span>
    </div>
  );
}
