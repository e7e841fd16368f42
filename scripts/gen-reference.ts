/**
 * Builds QUALITY.md's reference data set ("ten years of a busy shop") into <dataDir>/ironbox.db.
 *
 *   bun scripts/gen-reference.ts <dataDir> [--customers 50000] [--tickets 500000] [--items 2000000]
 *       [--logs 3000000] [--seed 20261122] [--now 2026-11-22T00:00:00Z] [--force]
 *
 * The counts are totals and include the demo rows. Same seed and --now give the same content
 * (the box secret, and so PIN and password hashes, differ per run). --now defaults to today,
 * midnight UTC, so benchmarks see a current week.
 *
 * Schema and catalogue go through the app's own path (migrations, seedTicketStates, seedDemo);
 * the big tables are then bulk-loaded with bun:sqlite, which is much faster than libSQL for this.
 */
import { Database as Sqlite, type Statement } from "bun:sqlite";
import { existsSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { and, count, eq } from "drizzle-orm";
import { businessDay } from "../appliance/domain/dates";
import { parseDiscount } from "../appliance/domain/money";
import { effectivePrice, itemTotals, type PriceRecord, ticketTotal } from "../appliance/domain/pricing";
import { getBoxSecret, hashPassword, hashPin } from "../appliance/modules/auth/secrets";
import { migrateDatabase, openDatabase } from "../db/client";
import { REBUILD_CUSTOMER_STATS } from "../db/maintenance";
import { addresses, agents, employees, localities, streets } from "../db/schema";
import {
  DAY_MS,
  EMAIL_DOMAINS,
  FEMALE_NAMES,
  isoDay,
  isProcessedState,
  isSortedState,
  MALE_NAMES,
  OCCUPATIONS,
  pickTitle,
  type Prng,
  prng,
  SURNAMES,
  splitName,
  statePath,
} from "../appliance/modules/system/demoData";
import { seedDemo } from "../appliance/modules/system/demo";
import { seedTicketStates } from "../db/seed/states";

export interface RefOptions {
  dataDir: string;
  customers: number;
  tickets: number;
  items: number;
  /** Item state logs (ticket logs come on top: one or two per ticket). */
  logs: number;
  seed: number;
  now: Date;
  /** Replace an existing ironbox.db. */
  force?: boolean;
  log?: (line: string) => void;
}

/** The tables the generator fills (the rest come from the demo seed). */
export const GENERATED_TABLES = [
  "customers",
  "addresses",
  "tickets",
  "ticket_sub_categories",
  "ticket_sub_category_actions",
  "ticket_sub_category_modifiers",
  "item_log_states",
  "ticket_log_states",
];

export const DEFAULTS = { customers: 50_000, tickets: 500_000, items: 2_000_000, logs: 3_000_000, seed: 20261122 };
const YEARS = 10;
const TARGET_AGENTS = 5;
const TARGET_EMPLOYEES = 20;

const EXTRA_AGENTS = [
  { user_name: "sliema", name: "Ironbox Sliema", locality: "Sliema", landline: "21334455", mobile: "79334455" },
  { user_name: "qormi", name: "Ironbox Qormi", locality: "Qormi", landline: "21446677", mobile: "99446677" },
];
const EXTRA_EMPLOYEES: { agent: string; full_name: string; role: "admin" | "manager" | "employee" | "driver"; pin: string }[] = [
  { agent: "sliema", full_name: "Rebecca Cassar", role: "admin", pin: "1212" },
  { agent: "sliema", full_name: "Kurt Pace", role: "employee", pin: "1313" },
  { agent: "sliema", full_name: "Ryan Mifsud", role: "driver", pin: "1414" },
  { agent: "qormi", full_name: "Francesca Sammut", role: "manager", pin: "1515" },
  { agent: "qormi", full_name: "Clayton Debono", role: "employee", pin: "1616" },
  { agent: "qormi", full_name: "Nicholas Agius", role: "driver", pin: "1717" },
  { agent: "hq", full_name: "Elaine Fenech", role: "employee", pin: "2323" },
  { agent: "hq", full_name: "George Bonnici", role: "driver", pin: "2424" },
  { agent: "birkirkara", full_name: "Stephanie Xuereb", role: "employee", pin: "5656" },
  { agent: "birkirkara", full_name: "Alan Schembri", role: "driver", pin: "5757" },
  { agent: "mosta", full_name: "Christine Muscat", role: "employee", pin: "7878" },
  { agent: "mosta", full_name: "Saviour Mizzi", role: "employee", pin: "7979" },
];

/** Busy garments come up more often; the rest weigh 1. */
const GARMENT_WEIGHTS: Record<string, number> = {
  Shirt: 8,
  Trousers: 5,
  "Suit 2pc": 4,
  "T-Shirt": 3,
  Dress: 3,
  Jacket: 3,
  Blouse: 3,
  "Bed Sheet": 2,
  Skirt: 2,
  Coat: 2,
};

/** Which state a ticket of a given age is in now: old tickets are closed, recent ones in flight. */
const STATE_BY_AGE: { maxDays: number; states: [string, number][] }[] = [
  {
    maxDays: 1,
    states: [
      ["CREATED", 20],
      ["AWAITING PICKUP", 25],
      ["PICKED UP", 20],
      ["MARKED", 35],
    ],
  },
  {
    maxDays: 3,
    states: [
      ["PICKED UP", 10],
      ["MARKED", 25],
      ["TECNOWASH", 10],
      ["IN PROGRESS", 55],
    ],
  },
  {
    maxDays: 7,
    states: [
      ["IN PROGRESS", 30],
      ["AWAITING DELIVERY", 40],
      ["OUT FOR DELIVERY", 15],
      ["B Kara", 5],
      ["Mosta", 5],
      ["San Gwann", 5],
    ],
  },
  {
    maxDays: 30,
    states: [
      ["AWAITING DELIVERY", 10],
      ["DELIVERED", 20],
      ["DELIVERED AND PAID", 40],
      ["DELIVERED NOT PAID", 5],
      ["CLOSED", 25],
    ],
  },
  {
    maxDays: Infinity,
    states: [
      ["CLOSED", 930],
      ["DELIVERED AND PAID", 40],
      ["DELIVERED NOT PAID", 15],
      ["DELIVERED", 15],
    ],
  },
];

const MOBILE_PREFIXES = ["79", "99", "77", "98", "96", "95"];
/** Roughly the average path length (closed tickets), to weigh logs per item by path length. */
const MEAN_PATH = 7.5;
const PICKUP_CHARGE = 300;
const DELIVERY_CHARGE = 300;

export function parseArgs(argv: string[]): RefOptions {
  const [dataDir, ...rest] = argv;
  if (!dataDir || dataDir.startsWith("--"))
    throw new Error("usage: bun scripts/gen-reference.ts <dataDir> [--customers N] [--tickets N] [--items N] [--logs N] [--seed N] [--now ISO] [--force]");
  const today = new Date();
  const o: RefOptions = { dataDir: resolve(dataDir), ...DEFAULTS, now: new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate())) };
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i]!;
    if (flag === "--force") {
      o.force = true;
      continue;
    }
    const value = rest[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === "--now") {
      o.now = new Date(value);
      if (Number.isNaN(o.now.getTime())) throw new Error(`--now: not a date: ${value}`);
      continue;
    }
    const key = flag.replace(/^--/, "") as keyof typeof DEFAULTS;
    if (!(key in DEFAULTS)) throw new Error(`unknown option ${flag}`);
    const n = Number(value.replaceAll("_", ""));
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${flag}: not a whole number: ${value}`);
    o[key] = n;
  }
  return o;
}

export async function generateReference(o: RefOptions): Promise<{ path: string; counts: Record<string, number>; ms: number; bytes: number }> {
  const log = o.log ?? ((l: string) => console.log(l));
  const started = performance.now();
  const path = join(o.dataDir, "ironbox.db");
  if (existsSync(path)) {
    if (!o.force) throw new Error(`${path} exists; pass --force to replace it`);
    for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  }

  // --- 1. schema, ticket states, demo catalogue, agents and staff via the app's own code ------
  const database = await openDatabase(`file:${path}`);
  try {
    await migrateDatabase(database);
    await seedTicketStates(database.db);
    await seedDemo(database.db, { now: () => o.now });
    await addReferenceStaff(database.db, o.now);
  } finally {
    database.close();
  }
  log(`schema + demo seed: ${Math.round(performance.now() - started)} ms`);

  // --- 2. bulk load -----------------------------------------------------------------------------
  const sq = new Sqlite(path);
  try {
    // A throw-away build: no journal and no fsync. WAL comes back on at the end.
    sq.run("PRAGMA journal_mode=OFF");
    sq.run("PRAGMA synchronous=OFF");
    sq.run("PRAGMA foreign_keys=ON");
    sq.run("PRAGMA cache_size=-1048576");
    sq.run("PRAGMA threads=2");
    sq.run("PRAGMA temp_store=MEMORY");
    // Building the secondary indexes once at the end is faster than maintaining them per row.
    const big = GENERATED_TABLES;
    const indexes = sq
      .query(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${big.map(() => "?").join(",")})`)
      .all(...big) as { name: string; sql: string }[];
    for (const ix of indexes) sq.run(`DROP INDEX "${ix.name}"`);
    // The customer_stats triggers look tickets up by customer, which without the dropped
    // indexes is a scan per row: drop them too and rebuild the table once at the end.
    // What was paid is written as payment rows, as the box writes it: payments_keep_totals
    // stays and raises each item's and ticket's total_paid from 0 (issue 31). The guards of
    // 0014 (a total_paid must equal its rows) sum the rows per write, so they wait for the
    // end and the whole-database check (payments/check.ts) stands in for them.
    const triggers = sq
      .query(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('tickets', 'ticket_sub_categories', 'payments') AND name <> 'payments_keep_totals'",
      )
      .all() as {
      name: string;
      sql: string;
    }[];
    for (const tr of triggers) sq.run(`DROP TRIGGER "${tr.name}"`);
    bulkLoad(sq, o, log);
    const ixStart = performance.now();
    for (const ix of indexes) sq.run(ix.sql);
    log(`${indexes.length} indexes rebuilt: ${Math.round(performance.now() - ixStart)} ms`);
    const trStart = performance.now();
    sq.run("BEGIN");
    sq.exec(REBUILD_CUSTOMER_STATS);
    for (const tr of triggers) sq.run(tr.sql);
    sq.run("COMMIT");
    log(`customer statistics rebuilt, ${triggers.length} triggers restored: ${Math.round(performance.now() - trStart)} ms`);
    sq.run("PRAGMA journal_mode=WAL");
    sq.run("PRAGMA wal_checkpoint(TRUNCATE)");
    const counts: Record<string, number> = {};
    for (const t of [
      "agents",
      "employees",
      "customers",
      "addresses",
      "tickets",
      "ticket_sub_categories",
      "ticket_sub_category_actions",
      "ticket_sub_category_modifiers",
      "item_log_states",
      "ticket_log_states",
    ]) {
      counts[t] = (sq.query(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    }
    const ms = performance.now() - started;
    const bytes = statSync(path).size;
    return { path, counts, ms, bytes };
  } finally {
    sq.close();
  }
}

/** The reference set has 5 agents and 20 employees; the demo brings 3 and 8. */
async function addReferenceStaff(db: Awaited<ReturnType<typeof openDatabase>>["db"], now: Date) {
  const secret = await getBoxSecret(db);
  const created_at = new Date(now.getTime() - 3000 * DAY_MS).toISOString();
  const [{ n: agentCount } = { n: 0 }] = await db.select({ n: count() }).from(agents);
  const toAdd = EXTRA_AGENTS.slice(0, Math.max(0, TARGET_AGENTS - agentCount));
  const hashes = await Promise.all(toAdd.map(() => hashPassword("shop-demo-2026")));
  for (const [i, a] of toAdd.entries()) {
    if (await db.query.agents.findFirst({ where: eq(agents.user_name, a.user_name) })) continue;
    const loc = (await db.query.localities.findFirst({ where: eq(localities.name, a.locality) }))!;
    const street = (await db.query.streets.findFirst({ where: eq(streets.locality_id, loc.id) }))!;
    const [addr] = await db
      .insert(addresses)
      .values({ number: String(10 + i), locality_id: loc.id, street_id: street.id })
      .returning();
    await db.insert(agents).values({
      name: a.name,
      user_name: a.user_name,
      password_hash: hashes[i],
      landline: a.landline,
      mobile: a.mobile,
      address_id: addr!.id,
      commission: 10,
      email_address: `${a.user_name}@ironbox.mt`,
      created_at,
    });
  }
  const agentId = async (user: string) =>
    user === "hq"
      ? (await db.query.agents.findFirst({ where: eq(agents.is_hq, true), orderBy: agents.id }))?.id
      : (await db.query.agents.findFirst({ where: eq(agents.user_name, user) }))?.id;
  for (const e of EXTRA_EMPLOYEES) {
    const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(employees);
    if (n >= TARGET_EMPLOYEES) break;
    const id = await agentId(e.agent);
    if (id === undefined) continue;
    const pin_hash = hashPin(secret, id, e.pin);
    if (await db.query.employees.findFirst({ where: and(eq(employees.agent_id, id), eq(employees.pin_hash, pin_hash)) })) continue;
    await db.insert(employees).values({ agent_id: id, full_name: e.full_name, role: e.role, pin_hash, created_at });
  }
}

/**
 * Buffers rows and writes them with one prepared multi-row INSERT per batch. Flushing a table
 * flushes its parents first, so foreign keys stay checkable row by row.
 */
class Bulk {
  private buf: (string | number | null)[] = [];
  private rows = 0;
  private readonly many: Statement;
  private readonly one: Statement;
  readonly batch: number;
  written = 0;
  constructor(
    db: Sqlite,
    readonly table: string,
    readonly cols: readonly string[],
    private readonly parents: Bulk[] = [],
  ) {
    // Stay well under SQLite's 32766 bound parameters per statement.
    this.batch = Math.max(1, Math.floor(8000 / cols.length));
    const tuple = `(${cols.map(() => "?").join(",")})`;
    const head = `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(",")}) VALUES `;
    this.many = db.prepare(head + Array(this.batch).fill(tuple).join(","));
    this.one = db.prepare(head + tuple);
  }
  add(...values: (string | number | null)[]) {
    for (const v of values) this.buf.push(v);
    if (++this.rows === this.batch) this.flush();
  }
  flush() {
    for (const p of this.parents) p.flush();
    if (this.rows === this.batch) this.many.run(this.buf as never);
    else for (let i = 0; i < this.rows; i++) this.one.run(this.buf.slice(i * this.cols.length, (i + 1) * this.cols.length) as never);
    this.written += this.rows;
    this.buf = [];
    this.rows = 0;
  }
}

/** Splits `total` over `n` draws: each draw gets about total/n, exactly `total` in the end. */
function spreader(total: number, n: number, r: Prng, min: number, max: number) {
  let left = total;
  let draws = n;
  return (weight = 1) => {
    const avg = (left / draws) * weight;
    let k = Math.floor(avg) + (r.next() < avg - Math.floor(avg) ? 1 : 0);
    // Keep what is left feasible for the draws after this one.
    const lo = Math.max(min, left - (draws - 1) * max);
    const hi = Math.min(max, left - (draws - 1) * min);
    k = Math.max(lo, Math.min(hi, k));
    left -= k;
    draws--;
    return k;
  };
}

function bulkLoad(sq: Sqlite, o: RefOptions, log: (l: string) => void) {
  const r = prng(o.seed);
  const now = o.now.getTime();
  const span = YEARS * 365.25 * DAY_MS;
  const start = now - span;
  const all = <T>(sql: string) => sq.query(sql).all() as T[];
  const one = <T>(sql: string) => sq.query(sql).get() as T;
  const maxId = (t: string) => one<{ m: number | null }>(`SELECT max(id) AS m FROM ${t}`).m ?? 0;
  const countOf = (t: string) => one<{ n: number }>(`SELECT count(*) AS n FROM ${t}`).n;

  // --- what the seed left: catalogue, places, agents, staff ---------------------------------
  const garmentRows = all<{ id: number; name: string; pieces: string; allow_quantity: number; discount: string; default_action_id: number }>(
    `SELECT g.id, g.name, g.pieces, g.allow_quantity, g.discount, c.default_action_id FROM garment_sub_categories g JOIN garment_categories c ON c.id = g.garment_category_id ORDER BY g.id`,
  );
  const agsc = all<PriceRecord & { name: string }>(
    `SELECT x.id, x.garment_sub_category_id, x.action_id, x.price, x.is_percentage_of, a.name FROM action_garment_sub_categories x JOIN actions a ON a.id = x.action_id ORDER BY x.id`,
  );
  const byId = new Map(agsc.map((x) => [x.id, x]));
  const garments = garmentRows.map((g) => {
    const prices = agsc
      .filter((x) => x.garment_sub_category_id === g.id)
      .map((x) => ({ actionId: x.action_id, name: x.name, cents: effectivePrice(x.id, byId) }));
    prices.sort((a, b) => Number(b.actionId === g.default_action_id) - Number(a.actionId === g.default_action_id));
    return { ...g, prices, discountPercent: parseDiscount(g.discount), weight: GARMENT_WEIGHTS[g.name] ?? 1 };
  });
  if (garments.length === 0 || garments.some((g) => g.prices.length === 0)) throw new Error("catalogue missing or unpriced garment");
  const weightSum = garments.reduce((s, g) => s + g.weight, 0);
  const pickGarment = () => {
    let x = r.next() * weightSum;
    for (const g of garments) if ((x -= g.weight) < 0) return g;
    return garments[garments.length - 1]!;
  };
  const modRows = all<{ id: number; type: string; name: string; up_charge: number; is_percentage: number }>(
    `SELECT id, type, name, up_charge, is_percentage FROM modifiers ORDER BY id`,
  );
  type Mod = { id: number; type: string; name: string; up_charge: number; is_percentage: boolean };
  const mods = (type: string): Mod[] => modRows.filter((m) => m.type === type).map((m) => ({ ...m, is_percentage: m.is_percentage === 1 }));
  const MODS = {
    COLOR: mods("COLOR"),
    STAIN: mods("STAIN"),
    MATERIAL: mods("MATERIAL"),
    BRAND: mods("BRAND"),
    TAILOR: mods("TAILOR"),
    DESIGN: mods("DESIGN"),
    EXPRESS: mods("EXPRESS"),
  };
  const places = all<{ locality_id: number; street_id: number }>(`SELECT locality_id, id AS street_id FROM streets ORDER BY id`);
  const prefIds = all<{ id: number }>(`SELECT id FROM preferences ORDER BY id`).map((p) => p.id);
  const agentIds = all<{ id: number }>(`SELECT id FROM agents ORDER BY id`).map((a) => a.id);
  const hqId = (one<{ id: number } | null>(`SELECT id FROM agents WHERE is_hq = 1 ORDER BY id LIMIT 1`) ?? { id: agentIds[0]! }).id;
  const shops = agentIds.filter((a) => a !== hqId);
  const staff = all<{ id: number; agent_id: number; role: string }>(`SELECT id, agent_id, role FROM employees ORDER BY id`);
  const deskOf = new Map(
    agentIds.map((a) => {
      const own = staff.filter((e) => e.agent_id === a && e.role !== "driver");
      return [a, own.length ? own : staff];
    }),
  );
  const driverOf = new Map(agentIds.map((a) => [a, staff.find((e) => e.agent_id === a && e.role === "driver") ?? staff.find((e) => e.role === "driver")]));

  // Each table lists its parent, which is flushed before it (see Bulk).
  const addressesT = new Bulk(sq, "addresses", ["id", "name", "number", "locality_id", "street_id"]);
  const customersT = new Bulk(
    sq,
    "customers",
    [
      "id",
      "agent_id",
      "title",
      "full_name",
      "first_name",
      "last_name",
      "address_id",
      "mobile",
      "landline",
      "email_address",
      "date_of_birth",
      "id_card",
      "discount",
      "occupation",
      "comments",
      "created_at",
    ],
    [addressesT],
  );
  const ticketsT = new Bulk(
    sq,
    "tickets",
    [
      "id",
      "agent_id",
      "employee_id",
      "customer_id",
      "pickup_date",
      "delivery_date",
      "delivery_to_client",
      "pickup_from_client",
      "has_express_item",
      "state",
      "total",
      "total_paid",
      "delivery_charge",
      "pickup_charge",
      "delivery_address_id",
      "pickup_address_id",
      "confirmed_at",
      "created_at",
    ],
    [customersT],
  );
  const itemsT = new Bulk(
    sq,
    "ticket_sub_categories",
    [
      "id",
      "ticket_id",
      "garment_sub_category_id",
      "description",
      "quantity",
      "state",
      "location",
      "pieces",
      "sorted_items",
      "sorted",
      "has_express",
      "total",
      "pre_discount_total",
      "total_paid",
      "process_date",
      "created_at",
    ],
    [ticketsT],
  );
  const T = {
    addresses: addressesT,
    customers: customersT,
    prefs: new Bulk(sq, "customer_preferences", ["customer_id", "preference_id"], [customersT]),
    tickets: ticketsT,
    items: itemsT,
    actions: new Bulk(sq, "ticket_sub_category_actions", ["ticket_sub_category_id", "action_id", "name", "quantity", "price"], [itemsT]),
    modifiers: new Bulk(sq, "ticket_sub_category_modifiers", ["ticket_sub_category_id", "modifier_id", "modifier_type"], [itemsT]),
    itemLogs: new Bulk(sq, "item_log_states", ["ticket_sub_category_id", "state", "logged_at", "log", "employee_id"], [itemsT]),
    ticketLogs: new Bulk(sq, "ticket_log_states", ["ticket_id", "state", "logged_at", "log", "employee_id", "agent_id"], [ticketsT]),
    payments: new Bulk(
      sq,
      "payments",
      ["ticket_id", "ticket_sub_category_id", "agent_id", "employee_id", "amount", "tender", "taken_at", "till_day"],
      [itemsT],
    ),
  };
  const flushAll = () => {
    for (const t of Object.values(T)) t.flush();
  };

  // Progress, committing every ~second so memory and the page cache stay bounded.
  let phaseStart = performance.now();
  let lastReport = phaseStart;
  let rowsAtStart = 0;
  const rowsWritten = () => Object.values(T).reduce((s, t) => s + t.written, 0);
  const progress = (what: string, done: number, of: number, force = false) => {
    const t = performance.now();
    if (!force && t - lastReport < 1000) return;
    flushAll();
    sq.run("COMMIT");
    sq.run("BEGIN");
    lastReport = t;
    const rows = rowsWritten() - rowsAtStart;
    log(
      `${what}: ${done.toLocaleString("en")}/${of.toLocaleString("en")}  ${rows.toLocaleString("en")} rows, ${Math.round(rows / ((t - phaseStart) / 1000)).toLocaleString("en")} rows/s`,
    );
  };
  const phase = () => {
    phaseStart = performance.now();
    rowsAtStart = rowsWritten();
  };

  sq.run("BEGIN");

  // --- customers -------------------------------------------------------------------------------
  const baseCustomers = countOf("customers");
  const nCustomers = Math.max(0, o.customers - baseCustomers);
  const firstCustomerId = maxId("customers") + 1;
  let addressId = maxId("addresses");
  const custAgent = new Int32Array(nCustomers);
  const custAddress = new Int32Array(nCustomers);
  const custDiscount = new Uint8Array(nCustomers);
  phase();
  for (let i = 0; i < nCustomers; i++) {
    // HQ serves 40% of customers, the shops share the rest.
    const agent = shops.length === 0 || r.chance(0.4) ? hqId : shops[i % shops.length]!;
    const place = r.pick(places);
    T.addresses.add(++addressId, "", String(r.int(1, 250)), place.locality_id, place.street_id);
    const male = r.chance(0.5);
    const first = r.pick(male ? MALE_NAMES : FEMALE_NAMES);
    const last = r.pick(SURNAMES);
    const full = `${first} ${last}`;
    const { first_name, last_name } = splitName(full);
    const id = firstCustomerId + i;
    custDiscount[i] = i % 40 === 7 ? 10 : 0; // whole percent
    // Unique mobiles: a stride coprime with 10^6 walks every number of a prefix once.
    const mobile = MOBILE_PREFIXES[i % MOBILE_PREFIXES.length]! + String((Math.floor(i / MOBILE_PREFIXES.length) * 7919 + 123457) % 1_000_000).padStart(6, "0");
    T.customers.add(
      id,
      agent,
      pickTitle(r, male),
      full,
      first_name,
      last_name,
      addressId,
      mobile,
      r.chance(0.4) ? `21${String(r.int(0, 999999)).padStart(6, "0")}` : "",
      r.chance(0.6) ? `${first}.${last}${i % 997}@${r.pick(EMAIL_DOMAINS)}`.toLowerCase() : "",
      r.chance(0.3) ? isoDay(new Date(Date.UTC(r.int(1940, 2006), r.int(0, 11), r.int(1, 28)))) : null,
      r.chance(0.5) ? `${String((i * 7919 + 4242) % 1_000_000).padStart(6, "0")}M` : "",
      custDiscount[i]!,
      r.pick(OCCUPATIONS),
      i % 50 === 3 ? "Prefers delivery after 5pm" : "",
      // Customers join over the first 90% of the ten years, in id order.
      new Date(start + (i / Math.max(1, nCustomers)) * span * 0.9).toISOString(),
    );
    if (r.chance(0.2)) T.prefs.add(id, r.pick(prefIds));
    custAgent[i] = agent;
    custAddress[i] = addressId;
    progress("customers", i + 1, nCustomers);
  }
  progress("customers", nCustomers, nCustomers, true);

  // --- tickets, items, actions, modifiers, logs --------------------------------------------------
  const nTickets = Math.max(0, o.tickets - countOf("tickets"));
  const nItems = Math.max(0, o.items - countOf("ticket_sub_categories"));
  const nLogs = Math.max(0, o.logs - countOf("item_log_states"));
  if (nTickets > 0 && nCustomers === 0) throw new Error("tickets need generated customers (raise --customers)");
  if (nItems < nTickets) throw new Error(`--items (${o.items}) must be at least --tickets (${o.tickets}): every ticket has an item`);
  const itemsPerTicket = spreader(nItems, nTickets, r, 1, 12);
  const logsPerItem = spreader(nLogs, nItems, r, nLogs >= nItems ? 1 : 0, 16);
  let ticketId = maxId("tickets");
  let itemId = maxId("ticket_sub_categories");
  phase();
  for (let j = 0; j < nTickets; j++) {
    const created = start + ((j + r.next()) / nTickets) * span;
    const ageDays = (now - created) / DAY_MS;
    const table = STATE_BY_AGE.find((s) => ageDays <= s.maxDays)!.states;
    const state = weighted(r, table);
    const pickedUp = state === "AWAITING PICKUP" || state === "PICKED UP" || r.chance(0.25);
    const deliverToClient = ["OUT FOR DELIVERY", "B Kara", "Mosta", "San Gwann"].includes(state) || r.chance(0.3);
    const path = statePath(state, pickedUp);
    // About a day and a half per state, squeezed into the ticket's age for recent tickets.
    const stepMs = Math.min((now - created) * 0.8, path.length * 1.5 * DAY_MS) / path.length;
    const times = path.map((_, k) => created + k * stepMs);
    const confirmed = state !== "CREATED";
    const fullyPaid = state === "CLOSED" || state === "DELIVERED AND PAID" || (state === "DELIVERED" && r.chance(0.5));
    const partlyPaid = confirmed && !fullyPaid && state !== "DELIVERED NOT PAID" && r.chance(0.15);

    // Customers who had joined by then; earlier ones have had more time to come back.
    const joined = Math.min(nCustomers, Math.floor((nCustomers * (created - start)) / (span * 0.9)) + 1);
    const c = Math.floor(r.next() * joined);
    const agent = custAgent[c]!;
    const desk = r.pick(deskOf.get(agent)!).id;
    const driver = driverOf.get(agent)?.id ?? desk;
    const byWhom = (s: string) => (s === "PICKED UP" || s === "OUT FOR DELIVERY" ? driver : desk);
    const id = ++ticketId;
    const processIdx = path.indexOf("IN PROGRESS");
    const processDate = processIdx >= 0 && isProcessedState(state) ? new Date(times[processIdx]!).toISOString() : null;
    const createdIso = new Date(created).toISOString();
    const sorted = isSortedState(state);
    const located = state === "AWAITING DELIVERY" || state === "B Kara" || state === "Mosta" || state === "San Gwann";

    // Children are built first (the ticket's total is their sum) and written after the ticket,
    // because a flush writes parents before children.
    type Row = (string | number | null)[];
    const items: Row[] = [];
    const acts: Row[] = [];
    const itemMods: Row[] = [];
    const itemLogs: Row[] = [];
    const itemTotalsCents: number[] = [];
    const paidItems: [number, number][] = [];
    let itemsPaid = 0;
    let express = false;
    const n = itemsPerTicket();
    for (let k = 0; k < n; k++) {
      const g = pickGarment();
      const qty = g.allow_quantity ? r.int(1, 6) : 1;
      const iid = ++itemId;
      const main = g.prices[0]!;
      // The item carries the quantity (the pricing engine multiplies action × item quantity).
      const priced: { price: number; quantity: number }[] = [{ price: main.cents, quantity: 1 }];
      acts.push([iid, main.actionId, main.name, 1, main.cents]);
      if (g.prices.length > 1 && r.chance(0.25)) {
        const extra = g.prices[1 + Math.floor(r.next() * (g.prices.length - 1))]!;
        acts.push([iid, extra.actionId, extra.name, 1, extra.cents]);
        priced.push({ price: extra.cents, quantity: 1 });
      }
      const chosenMods: Mod[] = [];
      let color = "";
      let itemExpress = false;
      const addMod = (m: Mod) => {
        itemMods.push([iid, m.id, m.type]);
        chosenMods.push(m);
      };
      if (r.chance(0.4)) {
        const m = r.pick(MODS.COLOR);
        color = m.name;
        addMod(m);
      }
      if (r.chance(0.1)) addMod(r.pick(MODS.STAIN));
      if (r.chance(0.05)) addMod(r.pick(MODS.MATERIAL));
      if (r.chance(0.03)) addMod(r.pick(MODS.BRAND));
      if (r.chance(0.02)) addMod(r.pick(MODS.TAILOR));
      if (r.chance(0.02)) addMod(r.pick(MODS.DESIGN));
      if (r.chance(0.03)) {
        addMod(r.pick(MODS.EXPRESS));
        itemExpress = express = true;
      }
      const { total, pre_discount_total } = itemTotals({
        actions: priced,
        quantity: qty,
        modifiers: chosenMods,
        discounts: { item: 0, garment: g.discountPercent, customer: custDiscount[c]!, ticket: 0 },
      });
      const paid = fullyPaid || (partlyPaid && k === 0) ? total : 0;
      itemTotalsCents.push(total);
      itemsPaid += paid;
      if (paid > 0) paidItems.push([iid, paid]);
      const description = color ? `${color} ${g.name}` : g.name;
      items.push([
        iid,
        id,
        g.id,
        description,
        qty,
        state,
        located ? `Rack ${"ABCD"[k % 4]}${1 + (iid % 12)}` : "",
        g.pieces,
        sorted ? g.pieces : "",
        sorted ? 1 : 0,
        itemExpress ? 1 : 0,
        total,
        pre_discount_total,
        0, // total_paid: the payment rows below raise it
        processDate,
        createdIso,
      ]);

      // Item logs: the last `want` states of the path (longer paths get more); past the path's
      // length the final state was re-scanned, a minute apart.
      const want = logsPerItem(path.length / MEAN_PATH);
      const skip = Math.max(0, path.length - want);
      for (let l = 0; l < want; l++) {
        const p = Math.min(skip + l, path.length - 1);
        const repeat = skip + l - p;
        const at = Math.min(now, times[p]! + k * 7000 + repeat * 60_000);
        itemLogs.push([iid, path[p]!, new Date(at).toISOString(), description, byWhom(path[p]!)]);
      }
    }
    const pickup_charge = pickedUp ? PICKUP_CHARGE : 0;
    const delivery_charge = deliverToClient ? DELIVERY_CHARGE : 0;
    const total = ticketTotal(itemTotalsCents, pickup_charge, delivery_charge);
    T.tickets.add(
      id,
      agent,
      desk,
      firstCustomerId + c,
      isoDay(new Date(created + (pickedUp ? DAY_MS : 0))),
      isoDay(new Date(created + 7 * DAY_MS)),
      deliverToClient ? 1 : 0,
      pickedUp ? 1 : 0,
      express ? 1 : 0,
      state,
      total,
      0, // total_paid: the payment rows below raise it
      delivery_charge,
      pickup_charge,
      deliverToClient ? custAddress[c]! : null,
      pickedUp ? custAddress[c]! : null,
      confirmed ? new Date(created + 5 * 60_000).toISOString() : null,
      createdIso,
    );
    for (const row of items) T.items.add(...row);
    for (const row of acts) T.actions.add(...row);
    for (const row of itemMods) T.modifiers.add(...row);
    for (const row of itemLogs) T.itemLogs.add(...row);
    // One row per paid item and one for the rest of a ticket paid in full (its charges), taken
    // at the counter when the ticket was confirmed, as the ledger's steps write them.
    const rest = fullyPaid ? total - itemsPaid : 0;
    if (paidItems.length || rest > 0) {
      const takenAt = new Date(created + (confirmed ? 5 * 60_000 : 0));
      const payment = (item: number | null, amount: number) =>
        T.payments.add(id, item, agent, desk, amount, "other", takenAt.toISOString(), businessDay(takenAt));
      for (const [item, amount] of paidItems) payment(item, amount);
      if (rest > 0) payment(null, rest);
    }
    T.ticketLogs.add(id, "CREATED", createdIso, "Ticket created", desk, agent);
    if (path.length > 1) T.ticketLogs.add(id, state, new Date(times[times.length - 1]!).toISOString(), `State changed to ${state}`, byWhom(state), agent);
    progress("tickets", j + 1, nTickets);
  }
  progress("tickets", nTickets, nTickets, true);
  sq.run("COMMIT");
}

function weighted(r: Prng, table: [string, number][]): string {
  const sum = table.reduce((s, [, w]) => s + w, 0);
  let x = r.next() * sum;
  for (const [v, w] of table) if ((x -= w) < 0) return v;
  return table[table.length - 1]![0];
}

if (import.meta.main) {
  try {
    const o = parseArgs(process.argv.slice(2));
    console.log(
      `gen-reference: ${o.dataDir} customers=${o.customers} tickets=${o.tickets} items=${o.items} logs=${o.logs} seed=${o.seed} now=${o.now.toISOString()}`,
    );
    const res = await generateReference(o);
    for (const [t, n] of Object.entries(res.counts)) console.log(`  ${t.padEnd(32)} ${n.toLocaleString("en").padStart(12)}`);
    console.log(`done in ${(res.ms / 1000).toFixed(1)} s: ${res.path} ${(res.bytes / 1048576).toFixed(0)} MiB`);
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
