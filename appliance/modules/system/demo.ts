// The demo loader (IRONBOX_DEMO=1): writes the demo content of ./demoData.ts into an empty
// database: the reference data here (places, agents and staff with passwords and PINs hashed by
// the auth module, the catalogue), then the customers and tickets through the counter's own
// services (./demoCounter.ts).
import { and, count, eq, inArray } from "drizzle-orm";
import { getBoxSecret, hashPassword, hashPin } from "../auth/secrets";
import { createPlaceService } from "../places/service";
import type { Db } from "../../../db/client";
import {
  actionGarmentSubCategories,
  actions,
  agents,
  configurations,
  customers,
  employees,
  garmentCategories,
  garmentSubCategories,
  localities,
  modifiers,
  pickupDeliveries,
  preferences,
  streets,
} from "../../../db/schema";
import { seedTicketStates, type Tx } from "../../../db/seed/states";
import {
  type ActionKey,
  ACTIONS,
  CATEGORIES,
  DAY_MS,
  DEMO_SEED,
  EMPLOYEES,
  LOCALITIES,
  type ModDef,
  MODIFIER_TYPES,
  MODIFIERS,
  type ModType,
  MONTHS,
  PEAK_MONTHS,
  PREFERENCES,
  type Price,
  prng,
} from "./demoData";
import { type DemoGarment, type DemoModifier, seedCounter } from "./demoCounter";

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
    // --- catalogue ---------------------------------------------------------------------------
    const actionIds = {} as Record<ActionKey, number>;
    for (const a of ACTIONS) {
      const [row] = await tx
        .insert(actions)
        .values({ name: a.name, up_charge: a.up_charge, is_percentage_of: a.pctOf ? actionIds[a.pctOf] : null })
        .returning({ id: actions.id });
      actionIds[a.key] = row!.id;
    }

    const garments: DemoGarment[] = [];
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
        }
        // The garment's priced actions, its category's default first (what the counter adds).
        const keys = [...rowIds.keys()].sort((a, b) => Number(b === c.def) - Number(a === c.def));
        garments.push({ id: sub!.id, name: g.name, pieces: g.pieces ?? "", allowQty: g.qty ?? false, actionIds: keys.map((k) => actionIds[k]) });
      }
    }

    const mods: Record<ModType, DemoModifier[]> = { COLOR: [], DESIGN: [], MATERIAL: [], STAIN: [], BRAND: [], TAILOR: [], EXPRESS: [] };
    const insertMod = async (type: ModType, d: ModDef, order: number, parent_id: number) => {
      const values = { type, name: d.name, image: d.image ?? null, up_charge: d.up ?? 0, is_percentage: d.pct ?? false, order, parent_id };
      const [row] = await tx.insert(modifiers).values(values).returning({ id: modifiers.id });
      mods[type].push({ id: row!.id, type, name: d.name });
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

    // --- customers and tickets, as the counter makes them ----------------------------------
    const agentRows = await tx
      .select()
      .from(agents)
      .where(inArray(agents.id, Object.values(agentIds)));
    const agentOf = (id: number) => {
      const a = agentRows.find((x) => x.id === id)!;
      return { id: a.id, name: a.name, is_hq: a.is_hq };
    };
    await seedCounter(tx as unknown as Db, {
      now,
      r,
      agents: { hq: agentOf(agentIds.hq), birkirkara: agentOf(agentIds.birkirkara), mosta: agentOf(agentIds.mosta) },
      staff: staff.map((e) => ({ id: e.id, agent_id: e.agent_id, full_name: e.full_name, role: e.role, hq: e.hq })),
      locId,
      streetIds,
      prefIds,
      garments,
      mods,
    });
  });
}

async function hasCustomers(db: Db | Tx) {
  const [row] = await db.select({ n: count() }).from(customers);
  return (row?.n ?? 0) > 0;
}
