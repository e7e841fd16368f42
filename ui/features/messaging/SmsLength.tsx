import { smsParts } from "../../../appliance/domain/sms";

/**
 * What a text costs as SMS: "42 characters · 1 SMS part (GSM-7)". Maltese letters (ċ, ġ, ħ, ż)
 * are not in GSM-7, so one of them turns the whole text into UCS-2 and its parts shrink.
 */
export function SmsLength({ text }: { text: string }) {
  if (!text) return <small className="muted sms-length">Empty message</small>;
  const s = smsParts(text);
  return (
    <small className={`sms-length${s.encoding === "UCS-2" ? " sms-ucs2" : ""}`} data-testid="sms-length">
      {s.length} character{s.length === 1 ? "" : "s"} · {s.parts} SMS part{s.parts === 1 ? "" : "s"} ({s.encoding})
      {s.encoding === "UCS-2" && <span className="muted"> · up to {s.perPart} characters a part</span>}
    </small>
  );
}
