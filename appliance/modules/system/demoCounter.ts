// The demo's customers and tickets (IRONBOX_DEMO=1), made the way the counter makes them: every
// row through the service functions the API calls (customers with their homes and preferences,
// tickets, items priced by the engine, confirmation, payments, state changes with their logs),
// on a clock set to each step's moment. So every invariant the API keeps holds for demo data:
// addresses owned by the customer's shop, totals equal to their items, total_paid equal to the
// payment rows, a log row for each change (issue 22).
import type { Db } from "../../../db/client";
import type { EmployeeCaller } from "../auth/caller";
import { createApprovalService } from "../approval/service";
import { createCustomerService } from "../customers/service";
import { createStorageRules } from "../images/storage";
import type { Tender } from "../money/model";
import { seedBooks } from "./demoBooks";
import { createPlaceService } from "../places/service";
import { createSchedulingService } from "../scheduling/service";
import { createItemService, pieceList } from "../tickets/items";
import { createTicketService } from "../tickets/service";
import { createSignatureStore } from "../tickets/signatures";
import {
  DAY_MS,
  DELIVERY_CHARGE,
  DEMO_TICKET_STATES,
  EMAIL_DOMAINS,
  FEMALE_NAMES,
  isoDay,
  MALE_NAMES,
  type ModType,
  OCCUPATIONS,
  PICKUP_CHARGE,
  pickTitle,
  type Prng,
  statePath,
  SURNAMES,
} from "./demoData";

export type ShopKey = "hq" | "birkirkara" | "mosta";
/** A priced garment of the demo catalogue, its category's default action first. */
export interface DemoGarment {
  id: number;
  name: string;
  pieces: string;
  allowQty: boolean;
  actionIds: number[];
}
export interface DemoModifier {
  id: number;
  type: ModType;
  name: string;
}
/** What the reference part of the demo (./demo.ts) made, for the counter part to use. */
export interface CounterSeed {
  now: Date;
  r: Prng;
  agents: Record<ShopKey, { id: number; name: string; is_hq: boolean }>;
  staff: { id: number; agent_id: number; full_name: string; role: EmployeeCaller["employee"]["role"]; hq: boolean }[];
  locId: Map<string, number>;
  streetIds: Map<string, number[]>;
  prefIds: number[];
  garments: DemoGarment[];
  mods: Record<ModType, DemoModifier[]>;
}

/**
 * A desk clerk booking a van stop on a day its round does not cover needs a manager's approval,
 * as at the counter: the demo's shop manager gives it (no PIN is checked, the audit row names them).
 */
const APPROVED = { pin: "demo", client: "demo" };

/**
 * Makes the demo's 60 customers and its tickets through the services, on `db` (the demo's
 * transaction: the services' own transactions become savepoints, so the demo loads whole or not
 * at all, and without a disk flush per step).
 */
export async function seedCounter(db: Db, s: CounterSeed): Promise<void> {
  const { r } = s;
  let at = s.now;
  const clock = { now: () => at };
  const managerRow = (agentId: number) =>
    s.staff.find((e) => e.agent_id === agentId && (e.role === "manager" || e.role === "admin")) ?? s.staff.find((e) => e.agent_id === agentId)!;
  const approvals = createApprovalService({ db, clock, verifyApproverPin: async (agentId) => managerRow(agentId) });
  const places = createPlaceService({ db, clock });
  // No demo change is signed: the store is never asked to hold bytes.
  const rules = createStorageRules({ dataDir: ".", limits: { quotaBytes: 0, minFreeBytes: 0, minFreeShare: 0 }, space: async () => ({ free: 0, total: 0 }) });
  const signatures = createSignatureStore({ db, rules, otherBytes: async () => 0 });
  const customers = createCustomerService({ db, clock, places, approvals });
  const tickets = createTicketService({ db, clock, approvals, places, scheduling: createSchedulingService({ db, clock }), signatures });
  const items = createItemService({ db, clock, approvals, signatures });

  const callerOf = (e: CounterSeed["staff"][number]): EmployeeCaller => {
    const agent = Object.values(s.agents).find((a) => a.id === e.agent_id)!;
    return { kind: "employee", jti: "demo", agent, employee: { id: e.id, full_name: e.full_name, role: e.role, hq: e.hq } };
  };
  const own = (agentId: number) => s.staff.filter((e) => e.agent_id === agentId);
  const counterStaff = (agentId: number) => {
    const desk = own(agentId).filter((e) => e.role !== "driver");
    return (desk.length ? desk : own(agentId)).map(callerOf);
  };
  const managerOf = (agentId: number) => callerOf(managerRow(agentId));
  const driverOf = (agentId: number) => {
    const d = own(agentId).find((e) => e.role === "driver");
    return d ? callerOf(d) : null;
  };

  // --- customers -----------------------------------------------------------------------------
  const shopArea: Record<ShopKey, string[]> = {
    hq: [...s.locId.keys()],
    birkirkara: ["Birkirkara", "Balzan", "Attard", "San Gwann", "Msida"],
    mosta: ["Mosta", "Naxxar"],
  };
  const people: { id: number; agentId: number }[] = [];
  for (let i = 0; i < 60; i++) {
    const shop = (["hq", "hq", "birkirkara", "mosta"] as const)[i % 4]!;
    const agentId = s.agents[shop].id;
    const male = r.chance(0.5);
    const first = r.pick(male ? MALE_NAMES : FEMALE_NAMES);
    const last = r.pick(SURNAMES);
    const loc = r.pick(shopArea[shop]);
    const address = { name: "", number: String(r.int(1, 180)), locality_id: s.locId.get(loc)!, street_id: r.pick(s.streetIds.get(loc)!) };
    const mobile = `${r.chance(0.6) ? "79" : "99"}${String(r.int(0, 999999)).padStart(6, "0")}`;
    const landline = r.chance(0.4) ? `21${String(r.int(0, 999999)).padStart(6, "0")}` : "";
    const email_address = r.chance(0.6) ? `${first}.${last}${r.int(1, 99)}@${r.pick(EMAIL_DOMAINS)}`.toLowerCase() : "";
    const date_of_birth = r.chance(0.3) ? isoDay(new Date(Date.UTC(r.int(1945, 2004), r.int(0, 11), r.int(1, 28)))) : null;
    const id_card = r.chance(0.5) ? `${r.int(1000, 999999)}M` : "";
    const occupation = r.pick(OCCUPATIONS);
    at = new Date(s.now.getTime() - r.int(90, 700) * DAY_MS);
    const preferences = r.chance(0.35) ? [...new Set([r.pick(s.prefIds), r.pick(s.prefIds)])] : undefined;
    const c = await customers.create(
      managerOf(agentId),
      {
        title: pickTitle(r, male) as never,
        full_name: `${first} ${last}`,
        address,
        mobile,
        landline,
        email_address,
        date_of_birth,
        id_card,
        discount: i % 15 === 7 ? 10 : 0,
        occupation,
        comments: i % 9 === 4 ? "Prefers delivery after 5pm" : "",
        preferences,
      },
      APPROVED,
    );
    people.push({ id: c.id, agentId });
  }

  // --- tickets -------------------------------------------------------------------------------
  const plans = DEMO_TICKET_STATES.map((state, i) => {
    const pickedUp = state === "AWAITING PICKUP" || state === "PICKED UP" || r.chance(0.4);
    const path = statePath(state, pickedUp);
    // Further along the path means older; at most 80% of the age is spent moving between states.
    const ageMs = (path.length * 1.2 + r.next() * 5) * DAY_MS;
    const created = s.now.getTime() - ageMs;
    const stepMs = (ageMs * 0.8) / path.length;
    const times = path.map((_, k) => new Date(created + k * stepMs + (k ? r.int(0, 3600_000) : 0)));
    return { i, state, pickedUp, path, created: new Date(created), times };
  }).sort((a, b) => a.created.getTime() - b.created.getTime());

  for (const p of plans) {
    const customer = r.pick(people);
    const desk = r.pick(counterStaff(customer.agentId));
    const driver = driverOf(customer.agentId) ?? desk;
    const delivered = ["OUT FOR DELIVERY", "B Kara", "Mosta", "San Gwann"].includes(p.state);
    const deliverToClient = delivered || r.chance(0.4);
    const fullyPaid = ["DELIVERED AND PAID", "CLOSED"].includes(p.state) || (p.state === "DELIVERED" && p.i % 2 === 0);
    const partlyPaid = p.state !== "CREATED" && !fullyPaid && p.state !== "DELIVERED NOT PAID" && p.i % 4 === 1;
    const withExpress = p.i % 6 === 2;

    at = p.created;
    const t = await tickets.create(
      desk,
      {
        customer_id: customer.id,
        pickup_date: isoDay(new Date(p.created.getTime() + (p.pickedUp ? DAY_MS : 0))),
        delivery_date: isoDay(new Date(p.created.getTime() + 7 * DAY_MS)),
        pickup_comment: p.pickedUp && p.i % 5 === 0 ? "Ring the bell twice" : "",
        delivery_comment: deliverToClient && p.i % 7 === 3 ? "Leave with the neighbour" : "",
        pickup_from_client: p.pickedUp,
        delivery_to_client: deliverToClient,
        pickup_charge: p.pickedUp ? PICKUP_CHARGE : 0,
        delivery_charge: deliverToClient ? DELIVERY_CHARGE : 0,
      },
      APPROVED,
    );
    const lines: { id: number; pieces: string[] }[] = [];
    const nItems = r.int(1, 5);
    for (let k = 0; k < nItems; k++) {
      const g = r.pick(s.garments);
      const actions = [g.actionIds[0]!];
      const extra = g.actionIds.slice(1);
      if (extra.length && r.chance(0.3)) actions.push(r.pick(extra));
      const chosen: DemoModifier[] = [];
      if (r.chance(0.5)) chosen.push(r.pick(s.mods.COLOR));
      if (r.chance(0.2)) chosen.push(r.pick(s.mods.STAIN));
      if (r.chance(0.15)) chosen.push(r.pick(s.mods.MATERIAL));
      if (r.chance(0.08)) chosen.push(r.pick(s.mods.TAILOR));
      if (withExpress && k === 0) chosen.push(r.pick(s.mods.EXPRESS));
      const color = chosen.find((m) => m.type === "COLOR");
      const [item] = await items.add(
        desk,
        {
          ticket_id: t.id,
          garment_sub_category_id: g.id,
          description: color ? `${color.name} ${g.name}` : g.name,
          quantity: g.allowQty ? r.int(1, 6) : 1,
          comments: r.chance(0.1) ? "Customer points out a loose button" : "",
          actions,
          modifiers: [...new Set(chosen.map((m) => m.id))],
        },
        1,
      );
      lines.push({ id: item!.id, pieces: pieceList(item!.pieces, item!.description) });
    }
    if (p.state === "CREATED") continue;

    // Confirmed five minutes on, and paid then: in full, or the first line (cash or card by turns).
    at = new Date(p.created.getTime() + 5 * 60_000);
    await tickets.confirm(desk, t.id);
    const pay = { tender: (p.i % 3 === 0 ? "card" : "cash") as Tender };
    if (fullyPaid) await tickets.payInFull(desk, t.id, pay);
    else if (partlyPaid) await items.pay(desk, lines[0]!.id, 0, true, pay);

    const confirmedAs = p.pickedUp ? "AWAITING PICKUP" : "";
    for (const [k, state] of p.path.entries()) {
      if (k === 0 || state === confirmedAs) continue;
      at = p.times[k]!;
      const who = state === "PICKED UP" || state === "OUT FOR DELIVERY" ? driver : desk;
      await tickets.changeState(who, { Ids: [t.id], State: state });
      // What the plant does at these steps: sorts and labels the pieces, processes, racks.
      if (state === "MARKED") for (const l of lines) for (const piece of l.pieces) await items.toggleSorted(desk, l.id, piece);
      if (state === "IN PROGRESS") for (const l of lines) await items.setProcessDate(desk, l.id, at.toISOString());
      if (state === "AWAITING DELIVERY" && ["AWAITING DELIVERY", "B Kara", "Mosta", "San Gwann"].includes(p.state))
        for (const [n, l] of lines.entries()) await items.update(desk, l.id, { location: `Rack ${"ABCD"[n % 4]}${r.int(1, 12)}` }, APPROVED);
    }
  }

  // --- the books (issue 34): a hotel's account and a deposit at Mosta --------------------------
  const mosta = s.agents.mosta.id;
  const [a, b, c] = people.filter((p) => p.agentId === mosta).map((p) => p.id);
  await seedBooks(db, {
    now: s.now,
    setAt: (d) => {
      at = d;
    },
    clock,
    approvals,
    tickets,
    items,
    manager: managerOf(mosta),
    desk: counterStaff(mosta)[0]!,
    customers: [a!, b!, c!],
    garments: s.garments,
  });
}
