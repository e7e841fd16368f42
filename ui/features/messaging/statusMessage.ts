import { confirmDialog } from "../../components/dialog";
import { toast } from "../../components/toast";
import { previewStatusMessage, sendStatusMessage } from "./api";

/**
 * The ticket view's Message status (issue 25): shows the exact text and where it goes, and
 * sends only on OK. Answers whether a message was queued. A refusal (no address, no channel)
 * comes as the preview's red toast, before anything is asked.
 */
export async function askAndSendStatusMessage(ticketId: number): Promise<boolean> {
  let p: Awaited<ReturnType<typeof previewStatusMessage>>;
  try {
    p = await previewStatusMessage(ticketId);
  } catch {
    return false;
  }
  const by = p.channel === "sms" ? `SMS to ${p.recipient}` : `e-mail to ${p.recipient}`;
  const parts = p.channel === "sms" && p.sms.parts > 1 ? ` (${p.sms.parts} SMS parts)` : "";
  const ok = await confirmDialog({ title: "Message status", message: `${p.customer_name}, ${by}${parts}: “${p.text}”`, okText: "Send" });
  if (!ok) return false;
  try {
    await sendStatusMessage(ticketId);
  } catch {
    // The red toast already said why (sent again within a minute...).
    return false;
  }
  toast("message/s on their way");
  return true;
}
