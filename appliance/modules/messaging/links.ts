// Issue 35: what messaging asks the public face for. A ticket's status, automatic message
// carries a link to its status page (minted in the write that queues the message, so a
// message that is not queued leaves no live link); the public face's one-time codes go out
// through the same outbox as every other message.
import type { Db } from "../../../db/client";
import { outgoingMessages } from "../../../db/schema";
import type { Clock } from "../../platform/clock";
import type { Channels } from "./compose";
import { newRow } from "./outbox";
import type { Announce } from "./sender";

export interface TicketLinks {
  /** The link's text, minted with the write `q`; null when no public address is set. */
  mint(q: Pick<Db, "insert">, ticket: { id: number; agent_id: number }): Promise<string | null>;
  /** A link of the real one's length for previews (nothing minted); null without a public address. */
  sample(): string | null;
}
export const NO_LINKS: TicketLinks = { mint: async () => null, sample: () => null };

/** The message text with its link on a line of its own (GSM-7 has the line break). */
export const withLink = (text: string, link: string | null) => (link ? `${text}\n${link}` : text);

/** A one-time code: `customer_id` null when no customer of this box has the mobile (a new customer of the chain, or one known only at a shop). */
export type CodeMessage = { agent_id: number; customer_id: number | null; mobile: string; text: string };

export async function queueCode(
  deps: { db: Db; clock: Clock; channels: () => Promise<Channels>; announce: Announce; kick: () => void },
  to: CodeMessage,
): Promise<number | null> {
  const ch = await deps.channels();
  if (!ch.sms) return null;
  const at = deps.clock.now().toISOString();
  const [row] = await deps.db
    .insert(outgoingMessages)
    .values(
      newRow(
        {
          channel: "sms",
          recipient: to.mobile,
          agent_id: to.agent_id,
          employee_id: null,
          customer_id: to.customer_id,
          ticket_id: null,
          batch_id: null,
          subject: "",
          text: to.text,
        },
        at,
      ),
    )
    .returning();
  deps.announce(row!, "queued");
  setTimeout(deps.kick, 0);
  return row!.id;
}

export type TicketText = CodeMessage & { customer_id: number; ticket_id: number };

/**
 * Issue 35: a text about one ticket by SMS, with the ticket's status link, queued with the
 * caller's write `q` (the booking's confirmation commits with the booking's outcome, or
 * neither does). Null when no SMS channel is set up (nothing is queued, no link is minted).
 */
export async function queueTicketText(
  deps: { clock: Clock; channels: () => Promise<Channels>; kick: () => void; links: TicketLinks },
  q: Pick<Db, "insert">,
  to: TicketText,
): Promise<number | null> {
  const ch = await deps.channels();
  if (!ch.sms) return null;
  const at = deps.clock.now().toISOString();
  const link = await deps.links.mint(q, { id: to.ticket_id, agent_id: to.agent_id });
  const [row] = await q
    .insert(outgoingMessages)
    .values(
      newRow(
        {
          channel: "sms",
          recipient: to.mobile,
          agent_id: to.agent_id,
          employee_id: null,
          customer_id: to.customer_id,
          ticket_id: to.ticket_id,
          batch_id: null,
          subject: "",
          text: withLink(to.text, link),
        },
        at,
      ),
    )
    .returning();
  // Not announced: the caller's write may still roll back. The kick runs after this turn (the
  // commit, normally); if it comes first the sender's next poll finds the row.
  setTimeout(deps.kick, 50);
  return row!.id;
}
