// Status message templates: one per ticket state (the default text until HQ saves one), each
// optionally sent by itself when a ticket reaches its state (issue 25). HQ's reference data:
// HQ staff write them (the route says so), shops receive them with the reference snapshot.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { messageTemplates } from "../../../db/schema";
import { defaultTemplate } from "../../domain/messageTemplate";
import { smsParts } from "../../domain/sms";
import type { Clock } from "../../platform/clock";
import { notFound } from "../../platform/errors";
import { audit } from "../audit/audit";
import type { EmployeeCaller } from "../auth/caller";
import type { TicketReads } from "../tickets/reads";
import { refuseUnknownPlaceholders, statusText } from "./compose";
import type { MessageTemplate, Preview } from "./model";
import type { TicketContexts } from "./status";

export function createTemplates({ db, clock, tickets, contexts }: { db: Db; clock: Clock; tickets: TicketReads; contexts: TicketContexts }) {
  return {
    /** The text a state's status message is written from, and whether it goes by itself. */
    async forState(stateId: number | undefined, stateName: string): Promise<{ text: string; auto_send: boolean }> {
      if (stateId) {
        const t = await db.query.messageTemplates.findFirst({ where: eq(messageTemplates.state_id, stateId) });
        if (t) return { text: t.text, auto_send: t.auto_send };
      }
      return { text: defaultTemplate(stateName), auto_send: false };
    },

    /** The states whose message goes by itself, by state name, with their text. */
    async autoSendTexts(): Promise<Map<string, string>> {
      const rows = await db.select().from(messageTemplates).where(eq(messageTemplates.auto_send, true));
      if (!rows.length) return new Map();
      const names = new Map((await tickets.states()).map((s) => [s.id, s.name]));
      return new Map(rows.filter((r) => names.has(r.state_id)).map((r) => [names.get(r.state_id)!, r.text]));
    },

    /** Every ticket state with its status message (the default text until an admin saves one). */
    async list(): Promise<MessageTemplate[]> {
      const [states, saved] = await Promise.all([tickets.states(), db.select().from(messageTemplates)]);
      const byState = new Map(saved.map((t) => [t.state_id, t]));
      return states.map((s) => {
        const t = byState.get(s.id);
        return {
          state_id: s.id,
          state: s.name,
          text: t?.text ?? defaultTemplate(s.name),
          is_default: !t,
          auto_send: t?.auto_send ?? false,
          updated_at: t?.updated_at ?? null,
          updated_by: t?.updated_by ?? null,
        };
      });
    },

    /** Saves a state's text; `auto_send` left out keeps what was set. */
    async save(caller: EmployeeCaller, stateId: number, text: string, autoSend?: boolean): Promise<MessageTemplate> {
      const state = await tickets.stateById(stateId);
      if (!state) throw notFound("Ticket state");
      refuseUnknownPlaceholders(text);
      const at = clock.now().toISOString();
      const set = { text, updated_at: at, updated_by: caller.employee.id, ...(autoSend === undefined ? {} : { auto_send: autoSend }) };
      const row = await db.transaction(async (tx) => {
        const [r] = await tx
          .insert(messageTemplates)
          .values({ state_id: stateId, ...set })
          .onConflictDoUpdate({ target: messageTemplates.state_id, set })
          .returning();
        await audit(tx, clock.now(), caller, "update", "message_template", stateId, { state: state.name, auto_send: r!.auto_send });
        return r!;
      });
      return { state_id: stateId, state: state.name, text, is_default: false, auto_send: row.auto_send, updated_at: at, updated_by: caller.employee.id };
    },

    /** The template rendered for a real ticket, and its cost as an SMS. */
    async preview(caller: EmployeeCaller, text: string, ticketId: number): Promise<Preview> {
      refuseUnknownPlaceholders(text);
      const ctx = await contexts.forCaller(caller, ticketId);
      const rendered = statusText(text, ctx.values);
      const { encoding, parts, length } = smsParts(rendered);
      return { text: rendered, sms: { encoding, parts, length } };
    },
  };
}
export type Templates = ReturnType<typeof createTemplates>;
