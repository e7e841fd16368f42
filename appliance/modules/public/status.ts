// Issue 35: what a status link shows. The ticket's state in words, its garments, the van's
// day, the balance and the shop's phone, read from the database the link was found in (the
// box's own, or at HQ a shop's restored copy): nothing else about the customer.
import type { Db } from "../../../db/client";
import { displayDate } from "../../domain/format";
import { stateSaying } from "../../domain/messageTemplate";
import { balanceDue, toEuros } from "../../domain/money";
import { agentReads } from "../agents/reads";
import { garmentNames } from "../catalogue/reads";
import { ticketForStatus, ticketReads } from "../tickets/reads";
import type { LiveLink } from "./links";
import type { PublicStatus } from "./model";

const stop = (on: boolean, day: string | null) => (on && day ? { day, shown: displayDate(day) } : null);

export async function publicStatus(db: Db, link: LiveLink): Promise<PublicStatus | null> {
  const t = await ticketForStatus(db, link.ticket_id);
  if (!t) return null;
  const [shop, state, names] = await Promise.all([
    agentReads(db).shop(t.agent_id),
    ticketReads(db).state(t.state),
    garmentNames(
      db,
      t.items.map((i) => i.garment_sub_category_id),
    ),
  ]);
  // Lines of the same garment are one row with their quantities added ("Shirt × 5").
  const garments = new Map<string, number>();
  for (const i of t.items) {
    const name = names.get(i.garment_sub_category_id) ?? "Garment";
    garments.set(name, (garments.get(name) ?? 0) + i.quantity);
  }
  return {
    ticket: t.id,
    state: stateSaying(t.state, state?.is_locality_delivery) || "being written at the counter",
    garments: [...garments].map(([name, quantity]) => ({ name, quantity })),
    pickup: stop(t.pickup_from_client, t.pickup_date),
    delivery: stop(t.delivery_to_client, t.delivery_date),
    balance: toEuros(balanceDue(t.total, t.total_paid)),
    shop: { name: shop?.name ?? "", phone: shop ? shop.landline || shop.mobile : "" },
  };
}
