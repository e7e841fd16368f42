/** What the ticket and item routes share: query parsers and the wire's tender and approval. */
import { z } from "zod";
import { toCents } from "../../domain/money";
import type { PayMethod } from "../money/model";

export const bool = z.enum(["true", "false"]).transform((v) => v === "true");
/** The tender of a pay route's query; cash handed over is in euros on the wire. */
export const payWith = (q: { method?: PayMethod; tendered?: number }) => ({
  tender: q.method ?? "cash",
  tendered: q.tendered === undefined ? null : toCents(q.tendered),
});
/** Who approves, for the services: the PIN (if any) and the tablet it was typed on. */
export const approvalOf = (body: { approval?: { pin: string } }, client: string) => ({ pin: body.approval?.pin, client });
