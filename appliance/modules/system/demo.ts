// The demo loader (IRONBOX_DEMO=1): writes the demo content of ./demoData.ts into an empty
// database, with passwords and PINs hashed by the auth module and every ticket priced by the
// pricing engine.
import { and, count, eq, inArray } from "drizzle-orm";
import { parseDiscount } from "../../domain/money";
import { effectivePrice, itemTotals, type PriceRecord, ticketTotal } from "../../domain/pricing";
import { getBoxSecret, hashPassword, hashPin } from "../auth/secrets";
import { createPlaceService } from "../places/service";
import { recordPayment } from "../payments/service";
import type { Db } from "../../../db/client";
import {
  actionGarmentSubCategories,
  actions,
  agents,
  configurations,
  customerPreferences,
  customers,
  employees,
  garmentCategories,
  garmentSubCategories,
  itemLogStates,
  localities,
  modifiers,
  pickupDeliveries,
  preferences,
  streets,
  ticketLogStates,
  ticketSubCategories,
  ticketSubCategoryActions,
  ticketSubCategoryModifiers,
  tickets,
} from "../../../db/schema";
import { seedTicketStates, type Tx } from "../../../db/seed/states";
import {
  type ActionKey,
  ACTIONS,
  CATEGORIES,
  DAY_MS,
  DELIVERY_CHARGE,
  DEMO_SEED,
  DEMO_TICKET_STATES,
  EMAIL_DOMAINS,
  EMPLOYEES,
  FEMALE_NAMES,
  isoDay,
  isSortedState,
  LOCALITIES,
  MALE_NAMES,
  type ModDef,
  MODIFIER_TYPES,
  MODIFIERS,
  type ModType,
  MONTHS,
  OCCUPATIONS,
  PEAK_MONTHS,
  pickTitle,
  PICKUP_CHARGE,
  PREFERENCES,
  type Price,
  prng,
  splitName,
  statePath,
  SURNAMES,
} from "./demoData";

/**
 * Loads the demo data (idempotent: does nothing once any customer exists). Reuses an existing
 * HQ agent, e.g. the one first-run setup created, instead of adding the "hq" agent.
 */
export async function seedDemo(db: Db, clock?: { now(): Date }): Promise<void> {
  await seedTicketStates(db);
  if (await hasCustomers(db)) return;
  const now = (clock ?? { now: () => new Date() }).now();
  // Outside the transaction: getBoxSecret may write with the pool, and argon2 is slow.
  const secret = await getBoxSecret(db);
  const [hqHash, shopHash1, shopHash2] = await Promise.all([hashPassword("hq-demo-2026"), hashPassword("shop-demo-2026"), hashPassword("shop-demo-2026")]);

  await db.transaction(async (tx) => {
    if (await hasCustomers(tx)) return;
    const r = prng(DEMO_SEED);
    const at = (msAgo: number) => new Date(now.getTime() - msAgo).toISOString();

    // --- places --------------------------------------------------------------------------
    const locNames = Object.keys(LOCALITIES);
    await tx
      .insert(localities)
      .values(locNames.map((name) => ({ name })))
      .onConflictDoNothing({ target: localities.name });
    const locRows = await tx.select().from(localities).where(inArray(localities.name, locNames));
    const locId = new Map(locRows.map((l) => [l.name, l.id]));
    const streetIds = new Map<string, number[]>();
    for (const [loc, names] of Object.entries(LOCALITIES)) {
      const lid = locId.get(loc)!;
      const have = await tx.select().from(streets).where(eq(streets.locality_id, lid));
      const missing = names.filter((n) => !have.some((s) => s.name === n));
      if (missing.length) await tx.insert(streets).values(missing.map((name) => ({ locality_id: lid, name })));
      const all = await tx.select().from(streets).where(eq(streets.locality_id, lid));
      streetIds.set(
        loc,
        names.map((n) => all.find((s) => s.name === n)!.id),
      );
    }
    // Issue 22: addresses go through the places service, as the API writes them: the street
    // checked against its locality and the owning shop set (an address without an owner is
    // HQ's, so a shop's staff could not open their own customers' addresses).
    const places = createPlaceService({ db, clock: clock ?? { now: () => now } });
    const addAddress = (loc: string, owner: number, name = "") =>
      places.saveAddress(tx, { name, number: String(r.int(1, 180)), locality_id: locId.get(loc)!, street_id: r.pick(streetIds.get(loc)!) }, null, owner);

    await tx
      .insert(preferences)
      .values(PREFERENCES.map((name) => ({ name })))
      .onConflictDoNothing({ target: preferences.name });
    const prefIds = (await tx.select().from(preferences).where(inArray(preferences.name, PREFERENCES))).map((p) => p.id);

    // --- agents ----------------------------------------------------------------------------
    const agentCreated = at(400 * DAY_MS);
    const existingHq = await tx.query.agents.findFirst({ where: eq(agents.is_hq, true), orderBy: agents.id });
    const ensureAgent = async (user_name: string, locality: string, values: Omit<typeof agents.$inferInsert, "user_name">) => {
      const found = await tx.query.agents.findFirst({ where: eq(agents.user_name, user_name) });
      if (found) return found.id;
      // As the agents service does: the shop first, then its premises, owned by it.
      const [a] = await tx
        .insert(agents)
        .values({ ...values, user_name, created_at: agentCreated })
        .returning({ id: agents.id });
      const address_id = await addAddress(locality, a!.id, user_name === "hq" ? "Ironbox House" : "");
      await tx.update(agents).set({ address_id }).where(eq(agents.id, a!.id));
      return a!.id;
    };
    const agentIds = {
      hq:
        existingHq?.id ??
        (await ensureAgent("hq", "San Gwann", {
          name: "Ironbox HQ",
          type: "HQ",
          is_hq: true,
          password_hash: hqHash,
          landline: "21441234",
          mobile: "79441234",
          contact_person: "Maria Camilleri",
          email_address: "hq@ironbox.mt",
        })),
      birkirkara: await ensureAgent("birkirkara", "Birkirkara", {
        name: "Ironbox Birkirkara",
        password_hash: shopHash1,
        landline: "21487766",
        mobile: "79487766",
        commission: 10,
        contact_person: "Claire Zammit",
        email_address: "birkirkara@ironbox.mt",
      }),
      mosta: await ensureAgent("mosta", "Mosta", {
        name: "Ironbox Mosta",
        password_hash: shopHash2,
        landline: "21415588",
        mobile: "99415588",
        commission: 12,
        contact_person: "Sarah Azzopardi",
        email_address: "mosta@ironbox.mt",
      }),
    };

    // --- employees (skip a PIN the agent already uses: employees_agent_pin_uq) --------------
    for (const e of EMPLOYEES) {
      const agentId = agentIds[e.agent];
      const pin_hash = hashPin(secret, agentId, e.pin);
      const clash = await tx.query.employees.findFirst({ where: and(eq(employees.agent_id, agentId), eq(employees.pin_hash, pin_hash)) });
      if (clash) continue;
      await tx.insert(employees).values({
        agent_id: agentId,
        full_name: e.full_name,
        role: e.role,
        pin_hash,
        hq: e.hq ?? false,
        mobile: `79${String(r.int(0, 999999)).padStart(6, "0")}`,
        localities: (e.localities ?? []).map((l) => locId.get(l)!).join(","),
        created_at: agentCreated,
      });
    }
    const staff = await tx
      .select()
      .from(employees)
      .where(inArray(employees.agent_id, Object.values(agentIds)));
    if (staff.length === 0) throw new Error("demo seed: no employee to stamp tickets with");
    const counterStaff = (agentId: number) => {
      const own = staff.filter((e) => e.agent_id === agentId);
      const desk = own.filter((e) => e.role !== "driver");
      return desk.length ? desk : own.length ? own : staff;
    };
    const driverOf = (agentId: number) => staff.find((e) => e.agent_id === agentId && e.role === "driver") ?? staff.find((e) => e.role === "driver");

    // --- catalogue ---------------------------------------------------------------------------
    const actionIds = {} as Record<ActionKey, number>;
    const actionNames = {} as Record<ActionKey, string>;
    for (const a of ACTIONS) {
      const [row] = await tx
        .insert(actions)
        .values({ name: a.name, up_charge: a.up_charge, is_percentage_of: a.pctOf ? actionIds[a.pctOf] : null })
        .returning({ id: actions.id });
      actionIds[a.key] = row!.id;
      actionNames[a.key] = a.name;
    }

    interface Garment {
      id: number;
      name: string;
      pieces: string;
      allowQty: boolean;
      /** Priced actions of this garment, the category's default first. */
      prices: { key: ActionKey; actionId: number; name: string; cents: number }[];
    }
    const garments: Garment[] = [];
    for (const [ci, c] of CATEGORIES.entries()) {
      const [cat] = await tx
        .insert(garmentCategories)
        .values({ type: c.type, name: c.name, order: ci + 1, default_action_id: actionIds[c.def] })
        .returning({ id: garmentCategories.id });
      for (const [gi, g] of c.garments.entries()) {
        const [sub] = await tx
          .insert(garmentSubCategories)
          .values({
            garment_category_id: cat!.id,
            name: g.name,
            pieces: g.pieces ?? "",
            show_choose_pieces: g.choose ?? false,
            allow_quantity: g.qty ?? false,
            images_required: g.images ?? false,
            order: gi + 1,
          })
          .returning({ id: garmentSubCategories.id });
        // Flat prices first, so percentage rows can point at them.
        const entries = Object.entries(g.prices) as [ActionKey, Price][];
        entries.sort((a, b) => Number(Array.isArray(a[1])) - Number(Array.isArray(b[1])));
        const rowIds = new Map<ActionKey, number>();
        const byId = new Map<number, PriceRecord>();
        for (const [key, price] of entries) {
          const pctOf = Array.isArray(price) ? rowIds.get(price[0]) : undefined;
          if (Array.isArray(price) && pctOf === undefined) throw new Error(`${g.name}: ${key} is a percentage of an unpriced action`);
          const values = {
            garment_sub_category_id: sub!.id,
            action_id: actionIds[key],
            price: Array.isArray(price) ? price[1] : price,
            is_percentage_of: pctOf ?? null,
          };
          const [row] = await tx.insert(actionGarmentSubCategories).values(values).returning({ id: actionGarmentSubCategories.id });
          rowIds.set(key, row!.id);
          byId.set(row!.id, { id: row!.id, ...values });
        }
        const prices = [...rowIds].map(([key, id]) => ({ key, actionId: actionIds[key], name: actionNames[key], cents: effectivePrice(id, byId) }));
        prices.sort((a, b) => Number(b.key === c.def) - Number(a.key === c.def));
        garments.push({ id: sub!.id, name: g.name, pieces: g.pieces ?? "", allowQty: g.qty ?? false, prices });
      }
    }

    interface Mod {
      id: number;
      type: ModType;
      name: string;
      up_charge: number;
      is_percentage: boolean;
    }
    const mods: Record<ModType, Mod[]> = { COLOR: [], DESIGN: [], MATERIAL: [], STAIN: [], BRAND: [], TAILOR: [], EXPRESS: [] };
    const insertMod = async (type: ModType, d: ModDef, order: number, parent_id: number) => {
      const values = { type, name: d.name, image: d.image ?? null, up_charge: d.up ?? 0, is_percentage: d.pct ?? false, order, parent_id };
      const [row] = await tx.insert(modifiers).values(values).returning({ id: modifiers.id });
      mods[type].push({ id: row!.id, type, name: d.name, up_charge: values.up_charge, is_percentage: values.is_percentage });
      for (const [i, child] of (d.children ?? []).entries()) await insertMod(type, child, i + 1, row!.id);
    };
    for (const type of MODIFIER_TYPES) for (const [i, d] of MODIFIERS[type].entries()) await insertMod(type, d, i + 1, 0);

    await tx.insert(configurations).values(
      MONTHS.flatMap((month) => {
        const busy = PEAK_MONTHS.has(month);
        return [
          { month, action_id: actionIds.DC, amounts: busy ? "0,50,50,50,50,50,25" : "0,40,40,40,40,40,20" },
          { month, action_id: actionIds.L, amounts: busy ? "0,80,80,80,80,80,40" : "0,60,60,60,60,60,30" },
        ];
      }),
    );
    // Rounds: Mon/Thu centre, Tue/Fri north, Wed/Sat coast and south. Sunday: none.
    const rounds = [
      ["Birkirkara", "Balzan", "Attard", "San Gwann", "Msida", "Hamrun", "Qormi", "Zebbug"],
      ["Mosta", "Naxxar"],
      ["Sliema", "St. Julian's", "Valletta", "Zabbar"],
    ].map((names) => names.map((n) => locId.get(n)!).join(";"));
    await tx.insert(pickupDeliveries).values(
      (["PEAK", "OFFSEASON"] as const).flatMap((season) =>
        [1, 2, 3, 4, 5, 6].map((day) => ({
          season,
          // OFFSEASON has no range: the fallback that always applies.
          from: season === "PEAK" ? "06-01" : null,
          to: season === "PEAK" ? "09-30" : null,
          day_of_week: day,
          quantity: (season === "PEAK" ? 30 : 20) / (day === 6 ? 2 : 1),
          localities: rounds[(day - 1) % 3]!,
        })),
      ),
    );

    // --- customers ---------------------------------------------------------------------------
    const shopArea: Record<keyof typeof agentIds, string[]> = {
      hq: locNames,
      birkirkara: ["Birkirkara", "Balzan", "Attard", "San Gwann", "Msida"],
      mosta: ["Mosta", "Naxxar"],
    };
    const people: { id: number; agentId: number; addressId: number; name: string; discount: number }[] = [];
    for (let i = 0; i < 60; i++) {
      const shop = (["hq", "hq", "birkirkara", "mosta"] as const)[i % 4]!;
      const male = r.chance(0.5);
      const first = r.pick(male ? MALE_NAMES : FEMALE_NAMES);
      const last = r.pick(SURNAMES);
      const full_name = `${first} ${last}`;
      const discount = i % 15 === 7 ? 10 : 0; // whole percent
      const addressId = await addAddress(r.pick(shopArea[shop]), agentIds[shop]);
      const [c] = await tx
        .insert(customers)
        .values({
          agent_id: agentIds[shop],
          title: pickTitle(r, male),
          full_name,
          ...splitName(full_name),
          address_id: addressId,
          mobile: `${r.chance(0.6) ? "79" : "99"}${String(r.int(0, 999999)).padStart(6, "0")}`,
          landline: r.chance(0.4) ? `21${String(r.int(0, 999999)).padStart(6, "0")}` : "",
          email_address: r.chance(0.6) ? `${first}.${last}${r.int(1, 99)}@${r.pick(EMAIL_DOMAINS)}`.toLowerCase() : "",
          date_of_birth: r.chance(0.3) ? isoDay(new Date(Date.UTC(r.int(1945, 2004), r.int(0, 11), r.int(1, 28)))) : null,
          id_card: r.chance(0.5) ? `${r.int(1000, 999999)}M` : "",
          discount,
          occupation: r.pick(OCCUPATIONS),
          comments: i % 9 === 4 ? "Prefers delivery after 5pm" : "",
          created_at: at(r.int(90, 700) * DAY_MS),
        })
        .returning({ id: customers.id });
      people.push({ id: c!.id, agentId: agentIds[shop], addressId, name: full_name, discount });
      if (r.chance(0.35)) {
        const chosen = [...new Set([r.pick(prefIds), r.pick(prefIds)])];
        await tx.insert(customerPreferences).values(chosen.map((preference_id) => ({ customer_id: c!.id, preference_id })));
      }
    }

    // --- tickets -----------------------------------------------------------------------------
    const plans = DEMO_TICKET_STATES.map((state, i) => {
      const pickedUp = state === "AWAITING PICKUP" || state === "PICKED UP" || r.chance(0.4);
      const path = statePath(state, pickedUp);
      // Further along the path means older; at most 80% of the age is spent moving between states.
      const ageMs = (path.length * 1.2 + r.next() * 5) * DAY_MS;
      const created = now.getTime() - ageMs;
      const stepMs = (ageMs * 0.8) / path.length;
      const times = path.map((_, k) => new Date(created + k * stepMs + (k ? r.int(0, 3600_000) : 0)));
      return { i, state, pickedUp, path, created: new Date(created), times };
    }).sort((a, b) => a.created.getTime() - b.created.getTime());

    for (const p of plans) {
      const customer = r.pick(people);
      const desk = r.pick(counterStaff(customer.agentId));
      const driver = driverOf(customer.agentId);
      const delivered = ["OUT FOR DELIVERY", "B Kara", "Mosta", "San Gwann"].includes(p.state);
      const deliverToClient = delivered || r.chance(0.4);
      const confirmed = p.state !== "CREATED";
      const fullyPaid = ["DELIVERED AND PAID", "CLOSED"].includes(p.state) || (p.state === "DELIVERED" && p.i % 2 === 0);
      const partlyPaid = confirmed && !fullyPaid && p.state !== "DELIVERED NOT PAID" && p.i % 4 === 1;
      const withExpress = p.i % 6 === 2;

      const items = [] as {
        row: Omit<typeof ticketSubCategories.$inferInsert, "ticket_id">;
        acts: Omit<typeof ticketSubCategoryActions.$inferInsert, "ticket_sub_category_id">[];
        mods: Mod[];
      }[];
      const nItems = r.int(1, 5);
      for (let k = 0; k < nItems; k++) {
        const g = r.pick(garments);
        const qty = g.allowQty ? r.int(1, 6) : 1;
        const chosen = [g.prices[0]!];
        const extra = g.prices.filter((x) => x !== chosen[0]);
        if (extra.length && r.chance(0.3)) chosen.push(r.pick(extra));
        // The item carries the quantity; each action is done once per garment (the pricing
        // engine multiplies action price × action quantity × item quantity).
        const acts = chosen.map((a) => ({ action_id: a.actionId, name: a.name, price: a.cents, quantity: 1 }));
        const itemMods: Mod[] = [];
        if (r.chance(0.5)) itemMods.push(r.pick(mods.COLOR));
        if (r.chance(0.2)) itemMods.push(r.pick(mods.STAIN));
        if (r.chance(0.15)) itemMods.push(r.pick(mods.MATERIAL));
        if (r.chance(0.08)) itemMods.push(r.pick(mods.TAILOR));
        if (withExpress && k === 0) itemMods.push(r.pick(mods.EXPRESS));
        // The seed sets no item, garment or ticket discounts (all "PERCENTAGE 0"); some customers have one.
        const priced = itemTotals({
          actions: acts,
          quantity: qty,
          modifiers: itemMods,
          discounts: { item: 0, garment: 0, customer: parseDiscount(customer.discount), ticket: 0 },
        });
        const color = itemMods.find((m) => m.type === "COLOR");
        const sorted = isSortedState(p.state);
        const processAt = p.path.indexOf("IN PROGRESS");
        items.push({
          acts,
          mods: itemMods,
          row: {
            garment_sub_category_id: g.id,
            description: color ? `${color.name} ${g.name}` : g.name,
            quantity: qty,
            state: p.state,
            pieces: g.pieces,
            sorted,
            sorted_items: sorted ? g.pieces : "",
            has_express: itemMods.some((m) => m.type === "EXPRESS"),
            location: ["AWAITING DELIVERY", "B Kara", "Mosta", "San Gwann"].includes(p.state) ? `Rack ${"ABCD"[k % 4]}${r.int(1, 12)}` : "",
            comments: r.chance(0.1) ? "Customer points out a loose button" : "",
            total: priced.total,
            pre_discount_total: priced.pre_discount_total,
            total_paid: 0,
            process_date: processAt >= 0 ? p.times[processAt]!.toISOString() : null,
            created_at: p.created.toISOString(),
          },
        });
      }
      // A partial payment settles the first item; a full one settles everything. The amounts
      // become payment rows below (their trigger keeps total_paid), cash or card by turns.
      const itemPaid = items.map((it, k) => (fullyPaid || (partlyPaid && k === 0) ? it.row.total! : 0));
      const pickup_charge = p.pickedUp ? PICKUP_CHARGE : 0;
      const delivery_charge = deliverToClient ? DELIVERY_CHARGE : 0;
      const total = ticketTotal(
        items.map((it) => it.row.total!),
        pickup_charge,
        delivery_charge,
      );
      const itemsPaid = itemPaid.reduce((s, c) => s + c, 0);
      const paidAt = new Date(p.created.getTime() + 5 * 60_000);
      const payment = { agent_id: customer.agentId, employee_id: desk.id, tender: p.i % 3 === 0 ? ("card" as const) : ("cash" as const), at: paidAt };

      const [t] = await tx
        .insert(tickets)
        .values({
          agent_id: customer.agentId,
          employee_id: desk.id,
          customer_id: customer.id,
          pickup_date: isoDay(new Date(p.created.getTime() + (p.pickedUp ? DAY_MS : 0))),
          delivery_date: isoDay(new Date(p.created.getTime() + 7 * DAY_MS)),
          pickup_comment: p.pickedUp && p.i % 5 === 0 ? "Ring the bell twice" : "",
          delivery_comment: deliverToClient && p.i % 7 === 3 ? "Leave with the neighbour" : "",
          pickup_from_client: p.pickedUp,
          delivery_to_client: deliverToClient,
          pickup_address_id: p.pickedUp ? customer.addressId : null,
          delivery_address_id: deliverToClient ? customer.addressId : null,
          has_express_item: items.some((it) => it.row.has_express),
          state: p.state,
          total,
          total_paid: 0,
          pickup_charge,
          delivery_charge,
          confirmed_at: confirmed ? new Date(p.created.getTime() + 5 * 60_000).toISOString() : null,
          created_at: p.created.toISOString(),
        })
        .returning({ id: tickets.id });

      const byWhom = (state: string) => (state === "PICKED UP" || state === "OUT FOR DELIVERY" ? (driver ?? desk) : desk).id;
      await tx.insert(ticketLogStates).values(
        p.path.map((state, k) => ({
          ticket_id: t!.id,
          state,
          logged_at: p.times[k]!.toISOString(),
          log: k === 0 ? "Ticket created" : `State changed to ${state}`,
          employee_id: byWhom(state),
          agent_id: customer.agentId,
        })),
      );
      for (const [k, it] of items.entries()) {
        const [item] = await tx
          .insert(ticketSubCategories)
          .values({ ...it.row, ticket_id: t!.id })
          .returning({ id: ticketSubCategories.id });
        if (itemPaid[k]! > 0) await recordPayment(tx, { ...payment, ticket_id: t!.id, item_id: item!.id, amount: itemPaid[k]! });
        await tx.insert(ticketSubCategoryActions).values(it.acts.map((a) => ({ ...a, ticket_sub_category_id: item!.id })));
        if (it.mods.length) {
          await tx
            .insert(ticketSubCategoryModifiers)
            .values(it.mods.map((m) => ({ ticket_sub_category_id: item!.id, modifier_id: m.id, modifier_type: m.type })));
        }
        await tx.insert(itemLogStates).values(
          p.path.map((state, k) => ({
            ticket_sub_category_id: item!.id,
            state,
            logged_at: p.times[k]!.toISOString(),
            log: it.row.description!,
            employee_id: byWhom(state),
          })),
        );
      }
      // A full payment also covers the pickup and delivery charges.
      if (fullyPaid && total > itemsPaid) await recordPayment(tx, { ...payment, ticket_id: t!.id, item_id: null, amount: total - itemsPaid });
    }
  });
}

async function hasCustomers(db: Db | Tx) {
  const [row] = await db.select({ n: count() }).from(customers);
  return (row?.n ?? 0) > 0;
}
