import { useEffect, useRef, useState } from "react";
import { fetchList } from "./api";
import { usePickList } from "./useList";
import { currentToken } from "./session";

export interface BoxGun {
  id: string;
  name: string;
  status: "online" | "offline" | "unknown";
  detail?: string;
}

const KEY = "ironbox.pairedGun";

/**
 * Pairs this tablet with a barcode gun wired to the box (README: the tablet chooses the gun
 * on the tracking screen; the choice is kept on the tablet). Scans from that gun arrive over
 * /api/v1/events and are handed to onCode, exactly like a scan typed on the tablet.
 */
export function useBoxGun(onCode: (code: string) => void) {
  // A list of guns that failed to load says so (issue 31) rather than "no guns": `failed` is shown beside the picker.
  const gunList = usePickList(() => fetchList<BoxGun>("/scanners/"), "the barcode guns");
  const guns = gunList.items;
  const [paired, setPaired] = useState<string>(() => localStorage.getItem(KEY) ?? "");
  const [status, setStatus] = useState<string>("");
  // The latest handler, so a scan always reaches the screen as it is now.
  const handler = useRef(onCode);
  handler.current = onCode;

  useEffect(() => {
    paired ? localStorage.setItem(KEY, paired) : localStorage.removeItem(KEY);
    if (!paired) return setStatus("");
    const gun = guns.find((g) => g.id === paired);
    setStatus(gun?.status ?? "unknown");
    // EventSource cannot send headers: the token travels in the query (README).
    const es = new EventSource(`/api/v1/events?gun=${encodeURIComponent(paired)}&token=${encodeURIComponent(currentToken() ?? "")}`);
    es.addEventListener("scan", (e) => handler.current(JSON.parse((e as MessageEvent).data).code));
    es.addEventListener("gun", (e) => setStatus(JSON.parse((e as MessageEvent).data).status));
    es.onerror = () => setStatus("reconnecting");
    return () => es.close();
  }, [paired, guns.length]);

  return { guns, paired, setPaired, status, failed: gunList.failed };
}

/** The gun picker shown on the tracking screen. */
export function GunPicker({ gun }: { gun: ReturnType<typeof useBoxGun> }) {
  if (!gun.guns.length) return null;
  return (
    <label className="gun-picker">
      <span>Gun at the box</span>
      <select aria-label="Gun at the box" value={gun.paired} onChange={(e) => gun.setPaired(e.target.value)}>
        <option value="">None (this tablet only)</option>
        {gun.guns.map((g) => (
          <option key={g.id} value={g.id}>
            {g.name}
          </option>
        ))}
      </select>
      {gun.paired && <span className={`badge gun-${gun.status}`}>{gun.status}</span>}
    </label>
  );
}
