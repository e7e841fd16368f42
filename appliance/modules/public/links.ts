// Issue 35: a ticket's status links. A token is 144 random bits (24 base64url characters);
// only its SHA-256 is stored, so HQ's site copies and backups hold no live link. Each message
// mints a link of its own inside the write that queues it (the plain token exists only in the
// message); a manager's revoke ends every link of the ticket, and links end 90 days after
// the ticket was delivered. See docs/decisions/public-face.md.
import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { statusLinks } from "../../../db/schema";
import { addDays } from "../../domain/dates";
import { DONE_STATES } from "../../domain/states";
import type { Clock } from "../../platform/clock";
import { notFound } from "../../platform/errors";
import { audit } from "../audit/audit";
import { assertSameAgent, type EmployeeCaller } from "../auth/caller";
import { lastReached, ticketReads } from "../tickets/reads";

/** 18 bytes = 144 bits (≥ 128, the floor), 24 characters with no padding. */
export const TOKEN_BYTES = 18;
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{24}$/;
/** A link ends this many days after the ticket reached a delivered state. */
export const LINK_DAYS_AFTER_DELIVERY = 90;
/** The short path of a status page on the public address. */
export const STATUS_PAGE_PATH = "/s/";

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
export const newToken = () => randomBytes(TOKEN_BYTES).toString("base64url");

/** A status link's row, found by its token: what the public face may answer from. */
export type LiveLink = { ticket_id: number; agent_id: number };

export function createStatusLinks({
  db,
  clock,
  publicUrl,
  fallbackUrl = () => null,
}: {
  db: Db;
  clock: Clock;
  publicUrl: string | null;
  /** HQ's public address from its signed reference data, used when this box has none of its own (its env var wins). */
  fallbackUrl?: () => string | null;
}) {
  const own = publicUrl?.replace(/\/+$/, "") ?? null;
  const baseOf = () => own ?? fallbackUrl()?.replace(/\/+$/, "") ?? null;
  const tickets = ticketReads(db);
  return {
    /** Whether messages carry links (a public address is set). */
    enabled: () => baseOf() !== null,
    /**
     * Mints a link for this ticket in the caller's write (`q`: the transaction that queues the
     * message), and answers its text; null without a public address.
     */
    async mint(q: Pick<Db, "insert">, ticket: { id: number; agent_id: number }): Promise<string | null> {
      const base = baseOf();
      if (!base) return null;
      const token = newToken();
      await q
        .insert(statusLinks)
        .values({ token_hash: hashToken(token), ticket_id: ticket.id, agent_id: ticket.agent_id, created_at: clock.now().toISOString() });
      return `${base}${STATUS_PAGE_PATH}${token}`;
    },
    /** A link of the same length as a real one, for previews (which mint nothing). */
    sample: (): string | null => {
      const base = baseOf();
      return base ? `${base}${STATUS_PAGE_PATH}${"x".repeat(24)}` : null;
    },

    /**
     * The ticket a token opens, or null: unknown, malformed, revoked, or expired (90 days after
     * delivery) all answer null, so the caller cannot tell them apart.
     */
    async resolve(token: string, q: Db = db): Promise<LiveLink | null> {
      if (!TOKEN_PATTERN.test(token)) return null;
      const [row] = await q
        .select({ ticket_id: statusLinks.ticket_id, agent_id: statusLinks.agent_id, revoked_at: statusLinks.revoked_at })
        .from(statusLinks)
        .where(eq(statusLinks.token_hash, hashToken(token)));
      if (!row || row.revoked_at) return null;
      const t = await (q === db ? tickets : ticketReads(q)).ticket(row.ticket_id);
      if (!t) return null;
      if (DONE_STATES.includes(t.state)) {
        const delivered = await lastReached(q, t.id, DONE_STATES);
        // A delivered ticket without a logged delivery (an import) counts from the link's use now: no end is guessed.
        if (delivered && addDays(delivered.slice(0, 10), LINK_DAYS_AFTER_DELIVERY) < clock.now().toISOString().slice(0, 10)) return null;
      }
      return { ticket_id: row.ticket_id, agent_id: row.agent_id };
    },

    /** PUT /tickets/{id}/statusLink/revoke: ends every link of the ticket (the caller's shop's; HQ any). */
    async revoke(caller: EmployeeCaller, ticketId: number): Promise<{ ticket_id: number; revoked: number }> {
      const t = await tickets.ticket(ticketId);
      if (!t) throw notFound("Ticket");
      assertSameAgent(caller, t.agent_id, "Ticket");
      const at = clock.now().toISOString();
      return db.transaction(async (tx) => {
        const done = await tx
          .update(statusLinks)
          .set({ revoked_at: at })
          .where(and(eq(statusLinks.ticket_id, ticketId), isNull(statusLinks.revoked_at)))
          .returning({ id: statusLinks.id });
        await audit(tx, clock.now(), caller, "update", "ticket", ticketId, { status_links_revoked: done.length });
        return { ticket_id: ticketId, revoked: done.length };
      });
    },
  };
}
export type StatusLinks = ReturnType<typeof createStatusLinks>;
