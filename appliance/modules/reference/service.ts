import { createHash, type KeyObject, timingSafeEqual } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { boxSettings } from "../../../db/schema";
import type { Clock } from "../../platform/clock";
import { conflict, unauthorized } from "../../platform/errors";
import { audit } from "../audit/audit";
import type { Caller } from "../auth/caller";
import { type PublishResult, type ReferenceStatus, SignedSnapshot, SnapshotContent } from "./model";
import { ensureSigningKey, loadSigningKey, parsePublicKey, signBytes, verifyBytes } from "./signing";
import { type ReferenceTable, referenceTables } from "./tables";

/** A shop box's enrolment with HQ (IRONBOX_HQ_URL, IRONBOX_HQ_PUBLIC_KEY, IRONBOX_HQ_TOKEN). */
export interface Enrolment {
  url: string;
  publicKey: string;
  token: string;
}

export interface ReferenceDeps {
  db: Db;
  clock: Clock;
  dataDir: string;
  mode: "shop" | "hq";
  /** This box's enrolment with HQ (shop), or null. */
  enrolment: Enrolment | null;
  /** HQ: the token shop boxes present to fetch snapshots (IRONBOX_HQ_TOKEN), or null (nobody may). */
  peerToken: string | null;
  /**
   * Checks a presented token for a client address, with the auth module's lock-out (429 after
   * repeated wrong tokens from one address); throws when it is wrong or the address is locked.
   */
  tokenGate: (client: string, right: () => boolean) => Promise<void>;
  /** How often an enrolled shop looks for a newer snapshot. */
  syncEveryMs?: number;
  /** HQ: its public address (IRONBOX_PUBLIC_URL), signed into each snapshot for the shops' status links. */
  publicUrl?: string | null;
  log?: (m: string, e?: unknown) => void;
}

const KEY = {
  version: "reference.version",
  appliedAt: "reference.applied_at",
  lastCheckAt: "reference.last_check_at",
  lastError: "reference.last_error",
  /** HQ: the latest signed snapshot (JSON of SignedSnapshot plus the content hash). */
  published: "reference.published",
  /** Shop: HQ's public address, from the applied snapshot ("" when HQ has none). */
  publicUrl: "reference.public_url",
} as const;

/** Bigger answers than this are refused unread (a snapshot of the demo catalogue is a few kB). */
const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;
const MAX_CONTENT_BYTES = 512 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 20_000;
/** Bound parameters per INSERT (SQLite allows 32,766); smaller statements let requests in between. */
const PARAMS_PER_STATEMENT = 500;

type Row = (string | number | null)[];
const ident = (name: string) => sql.identifier(name);

/** JSON with object keys sorted at every level: the same data always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The database's own words (drizzle wraps them in "Failed query: <the statement>", too long and not for people). */
function databaseReason(e: unknown): string {
  let inner = e as Error;
  while (inner.cause instanceof Error) inner = inner.cause;
  return inner.message.split("\n")[0]!.slice(0, 200);
}

/** Why a snapshot was not applied; recorded as the status's last error, in plain words. */
export class SnapshotRefused extends Error {}

/** The body as text, stopped once it passes `max` bytes (an answer without a length may not end). */
async function readAtMost(res: Response, max: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    size += next.value.byteLength;
    if (size > max) {
      await reader!.cancel().catch(() => {});
      throw new SnapshotRefused("The snapshot is too large: refused");
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The version of HQ's reference data this box has applied, or 0. A box that runs HQ's data
 * does not seed the spec's ticket states at boot: HQ may have renamed or removed them.
 */
export async function appliedReferenceVersion(db: Db): Promise<number> {
  const row = await db.query.boxSettings.findFirst({ where: (s, { eq }) => eq(s.key, KEY.version) });
  return Number(row?.value ?? 0);
}

export function createReferenceService(deps: ReferenceDeps) {
  const { db, clock, dataDir, mode, enrolment } = deps;
  const log = deps.log ?? console.error;
  let hqKey: KeyObject | null = null;
  if (enrolment) hqKey = parsePublicKey(enrolment.publicKey);
  /** HQ's public address as last applied (shop); read once at start (`loadPublicUrl`), then kept by each apply. */
  let hqPublicUrl: string | null = null;

  async function getSetting(key: string): Promise<string | null> {
    const row = await db.query.boxSettings.findFirst({ where: (s, { eq }) => eq(s.key, key) });
    return row?.value ?? null;
  }
  const setSetting = (q: Pick<Db, "insert">, key: string, value: string) =>
    q.insert(boxSettings).values({ key, value }).onConflictDoUpdate({ target: boxSettings.key, set: { value } });

  const columnsOf = async (q: Pick<Db, "all">, table: string) =>
    (await q.all<{ name: string }>(sql`SELECT name FROM pragma_table_info(${table})`)).map((c) => c.name);

  /** HQ's reference tables as they are now. */
  async function readTables(): Promise<SnapshotContent["tables"]> {
    const out: SnapshotContent["tables"] = {};
    for (const t of referenceTables) {
      const columns = (await columnsOf(db, t.name)).filter((c) => !t.local.includes(c));
      const rows = await db.values<Row>(sql`SELECT ${sql.join(columns.map(ident), sql`, `)} FROM ${ident(t.name)} ORDER BY ${ident(t.key)}`);
      // libSQL rows are array-like objects: plain arrays for the JSON.
      out[t.name] = { columns, rows: rows.map((r) => columns.map((_, i) => r[i] ?? null)) };
    }
    return out;
  }

  async function published(): Promise<(SignedSnapshot & { hash: string }) | null> {
    const v = await getSetting(KEY.published);
    return v ? JSON.parse(v) : null;
  }

  /** Checks a signed snapshot and returns its content; throws SnapshotRefused with the reason. */
  function open(signed: SignedSnapshot, key: KeyObject): SnapshotContent {
    const bytes = Buffer.from(signed.payload, "base64");
    if (!verifyBytes(key, bytes, signed.signature)) throw new SnapshotRefused("The snapshot's signature does not match head quarters' key: refused");
    let content: SnapshotContent;
    try {
      content = SnapshotContent.parse(JSON.parse(gunzipSync(bytes, { maxOutputLength: MAX_CONTENT_BYTES }).toString("utf8")));
    } catch {
      throw new SnapshotRefused("The snapshot is signed but not readable by this version: refused");
    }
    if (content.version !== signed.version) throw new SnapshotRefused("The snapshot's version does not match its signed content: refused");
    for (const t of referenceTables) {
      const s = content.tables[t.name];
      if (!s) continue;
      if (!s.columns.includes(t.key)) throw new SnapshotRefused(`The snapshot's table ${t.name} has no ${t.key} column: refused`);
      if (s.rows.some((r) => r.length !== s.columns.length)) throw new SnapshotRefused(`The snapshot's table ${t.name} has malformed rows: refused`);
    }
    return content;
  }

  /** Rows of `t` that are not in `ids`: dropped when nothing uses them; still-used ones are hidden where the table can. */
  async function dropRemoved(tx: Pick<Db, "run">, t: ReferenceTable, ids: string) {
    const removed = sql`${ident(t.name)}.${ident(t.key)} NOT IN (SELECT value FROM json_each(${ids}))`;
    const unused = t.usedBy.map((r) => sql`NOT EXISTS (SELECT 1 FROM ${ident(r.table)} u WHERE u.${ident(r.column)} = ${ident(t.name)}.${ident(r.target)})`);
    await tx.run(sql`DELETE FROM ${ident(t.name)} WHERE ${sql.join([removed, ...unused], sql` AND `)}`);
    if (t.hideable) await tx.run(sql`UPDATE ${ident(t.name)} SET visible = 0 WHERE visible = 1 AND ${removed}`);
  }

  /**
   * Applies verified content in ONE transaction: HQ's rows with HQ's ids (upserted, so tickets
   * keep pointing at the same action, garment, modifier), and rows HQ removed dropped, or hidden
   * (visible = 0) or kept where the shop's records still use them. Foreign keys are checked
   * at commit (rows may refer to rows written later in the same snapshot). Statements are
   * bounded and the event loop gets a turn between them, so requests keep being served (their
   * writes wait for the commit).
   */
  async function apply(content: SnapshotContent, appliedAt: string) {
    await db.transaction(async (tx) => {
      const current = await tx
        .select()
        .from(boxSettings)
        .where(inArray(boxSettings.key, [KEY.version]));
      const applied = current[0] ? Number(current[0].value) : 0;
      if (content.version <= applied) throw new SnapshotRefused(`Snapshot ${content.version} is not newer than the applied ${applied}: refused`);
      await tx.run(sql`PRAGMA defer_foreign_keys = ON`);
      const present = referenceTables.filter((t) => content.tables[t.name]);
      const idsOf = (t: ReferenceTable) => {
        const s = content.tables[t.name]!;
        const at = s.columns.indexOf(t.key);
        return JSON.stringify(s.rows.map((r) => r[at]));
      };
      // Before the upserts, so a name HQ moved to another id is free; after them too, for rows
      // that only the old versions of upserted rows still used.
      for (const t of [...present].reverse()) await dropRemoved(tx, t, idsOf(t));
      for (const t of present) {
        const s = content.tables[t.name]!;
        const local = new Set(await columnsOf(tx, t.name));
        // Columns both sides know: a newer HQ may send more, an older one fewer (defaults apply).
        const keep = s.columns.map((c, i) => [c, i] as const).filter(([c]) => local.has(c) && !t.local.includes(c));
        const cols = sql.join(
          keep.map(([c]) => ident(c)),
          sql`, `,
        );
        const set = sql.join(
          keep.filter(([c]) => c !== t.key).map(([c]) => sql`${ident(c)} = excluded.${ident(c)}`),
          sql`, `,
        );
        const perStatement = Math.max(1, Math.floor(PARAMS_PER_STATEMENT / keep.length));
        for (let i = 0; i < s.rows.length; i += perStatement) {
          const values = s.rows.slice(i, i + perStatement).map(
            (r) =>
              sql`(${sql.join(
                keep.map(([, at]) => sql`${r[at]}`),
                sql`, `,
              )})`,
          );
          await tx.run(
            sql`INSERT INTO ${ident(t.name)} (${cols}) VALUES ${sql.join(values, sql`, `)} ON CONFLICT(${ident(t.key)}) DO ${keep.length > 1 ? sql`UPDATE SET ${set}` : sql`NOTHING`}`,
          );
          await new Promise((r) => setImmediate(r));
        }
      }
      for (const t of [...present].reverse()) await dropRemoved(tx, t, idsOf(t));
      await setSetting(tx, KEY.version, String(content.version));
      await setSetting(tx, KEY.appliedAt, appliedAt);
      await setSetting(tx, KEY.publicUrl, content.public_url ?? "");
    });
    hqPublicUrl = content.public_url ?? null;
  }

  let syncing: Promise<ReferenceStatus> | null = null;

  /** Fetches HQ's newest snapshot and applies it; failures are recorded, never thrown. */
  async function syncOnce(): Promise<void> {
    if (!enrolment || !hqKey) return;
    const at = clock.now().toISOString();
    let error: string | null = null;
    try {
      const applied = Number((await getSetting(KEY.version)) ?? 0);
      const url = new URL("/api/v1/reference/snapshot/latest", enrolment.url);
      url.searchParams.set("after", String(applied));
      let res: Response;
      try {
        res = await fetch(url, { headers: { authorization: `Bearer ${enrolment.token}` }, redirect: "error", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      } catch (e) {
        throw new SnapshotRefused(`Head quarters is not reachable (${(e as Error).name === "TimeoutError" ? "timed out" : "no connection"})`);
      }
      if (res.status === 204 || res.status === 304) return;
      if (res.status === 401) throw new SnapshotRefused("Head quarters refused this box's enrolment token");
      if (res.status === 421)
        throw new SnapshotRefused("Head quarters' box does not answer to the name in IRONBOX_HQ_URL: add that name to IRONBOX_ALLOWED_HOSTS on HQ's box");
      if (res.status !== 200) throw new SnapshotRefused(`Head quarters answered ${res.status}`);
      if (Number(res.headers.get("content-length") ?? 0) > MAX_SNAPSHOT_BYTES) throw new SnapshotRefused("The snapshot is too large: refused");
      const text = await readAtMost(res, MAX_SNAPSHOT_BYTES);
      const parsed = SignedSnapshot.safeParse((JSON.parse(text) as { data?: unknown }).data);
      if (!parsed.success) throw new SnapshotRefused("Head quarters' answer is not a snapshot");
      await receive(parsed.data, at);
    } catch (e) {
      error = e instanceof SnapshotRefused ? e.message : `The snapshot could not be applied: ${databaseReason(e)}`;
      if (!(e instanceof SnapshotRefused)) log("reference: apply failed", e);
    } finally {
      await db.transaction(async (tx) => {
        await setSetting(tx, KEY.lastCheckAt, at);
        await setSetting(tx, KEY.lastError, error ?? "");
      });
    }
  }

  /** Verifies and applies a signed snapshot (the fetcher's last step; tests feed it directly). */
  async function receive(signed: SignedSnapshot, at = clock.now().toISOString()): Promise<number> {
    if (!hqKey) throw new SnapshotRefused("This box is not enrolled with head quarters");
    const content = open(signed, hqKey);
    const started = performance.now();
    await apply(content, at);
    log(`reference: snapshot ${content.version} applied in ${Math.round(performance.now() - started)} ms`);
    return content.version;
  }

  async function status(): Promise<ReferenceStatus> {
    const [version, appliedAt, lastCheckAt, lastError, pub] = await Promise.all([
      getSetting(KEY.version),
      getSetting(KEY.appliedAt),
      getSetting(KEY.lastCheckAt),
      getSetting(KEY.lastError),
      mode === "hq" ? published() : null,
    ]);
    return {
      mode,
      managed: managed(),
      version: mode === "hq" ? (pub?.version ?? null) : version ? Number(version) : null,
      applied_at: mode === "hq" ? (pub?.created_at ?? null) : appliedAt,
      hq_url: enrolment ? enrolment.url : null,
      last_check_at: lastCheckAt,
      last_error: lastError || null,
      public_key: mode === "hq" ? (loadSigningKey(dataDir)?.publicText ?? null) : null,
    };
  }

  /** A shop box enrolled with HQ: HQ-owned data is read-only here (route.ts `hqOwned`). */
  function managed(): boolean {
    return mode === "shop" && enrolment !== null;
  }

  return {
    managed,
    status,
    receive,
    /** The public address status links use when the box has none of its own: HQ's own (HQ), or the one HQ signed (shop). */
    publicUrl: (): string | null => (mode === "hq" ? (deps.publicUrl ?? null) : hqPublicUrl),
    /** Shop: reads the applied snapshot's public address (once, at start). */
    async loadPublicUrl() {
      hqPublicUrl = (await getSetting(KEY.publicUrl)) || null;
    },

    /** HQ: signs the reference data as a new version (or answers the last one when nothing changed). */
    async publish(caller: Caller): Promise<PublishResult> {
      if (mode !== "hq") throw conflict("Only head quarters' box (IRONBOX_MODE=hq) publishes reference data");
      const key = ensureSigningKey(dataDir);
      const tables = await readTables();
      const rows = Object.fromEntries(Object.entries(tables).map(([n, t]) => [n, t.rows.length]));
      const public_url = mode === "hq" ? (deps.publicUrl ?? null) : null;
      // The address is hashed only when set, so an HQ without one keeps the hashes it had.
      const hash = createHash("sha256")
        .update(canonicalJson(public_url ? { tables, public_url } : tables))
        .digest("hex");
      const last = await published();
      if (last?.hash === hash) {
        const bytes = Buffer.from(last.payload, "base64").length;
        return { version: last.version, created_at: last.created_at, changed: false, rows, bytes, public_key: key.publicText };
      }
      const version = (last?.version ?? 0) + 1;
      const created_at = clock.now().toISOString();
      const payload = gzipSync(canonicalJson({ format: 1, version, created_at, tables, ...(public_url ? { public_url } : {}) } satisfies SnapshotContent));
      const signed: SignedSnapshot = { version, created_at, signature: signBytes(key, payload), payload: payload.toString("base64") };
      await db.transaction(async (tx) => {
        await setSetting(tx, KEY.published, JSON.stringify({ ...signed, hash }));
        await audit(tx, clock.now(), caller, "publish", "reference", version, { rows, bytes: payload.length });
      });
      return { version, created_at, changed: true, rows, bytes: payload.length, public_key: key.publicText };
    },

    /** HQ: the newest snapshot, or null when there is none newer than `after`. */
    async latest(authorization: string | null, client: string, after?: number): Promise<SignedSnapshot | null> {
      await this.checkPeer(authorization, client);
      const last = await published();
      if (!last || (after !== undefined && last.version <= after)) return null;
      return { version: last.version, created_at: last.created_at, signature: last.signature, payload: last.payload };
    },

    /** HQ: throws unless `authorization` carries the enrolment token (shared by every HQ -> shop download, e.g. bookings). */
    async checkPeer(authorization: string | null, client: string): Promise<void> {
      const m = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? "");
      if (mode !== "hq" || !deps.peerToken)
        throw conflict("This box does not serve reference data (it is not head quarters' box, or IRONBOX_HQ_TOKEN is unset)");
      // Digests of equal length: the comparison takes the same time whatever was sent, its length included.
      const digest = (t: string) => createHash("sha256").update(t).digest();
      // No token is no guess; a presented one counts toward this address's lock-out (issue 22).
      if (!m) throw unauthorized("Token: the enrolment token is missing or wrong");
      const token = deps.peerToken;
      await deps.tokenGate(client, () => timingSafeEqual(digest(m[1]!), digest(token)));
    },

    /** Shop: fetches now (one fetch at a time; a second caller waits for the running one). */
    sync(): Promise<ReferenceStatus> {
      if (!enrolment) return Promise.reject(conflict("This box is not enrolled with head quarters (IRONBOX_HQ_URL)"));
      syncing ??= syncOnce()
        .then(status)
        .finally(() => (syncing = null));
      return syncing;
    },

    /** Shop: looks for a newer snapshot now (in the background) and every `syncEveryMs`. Returns a stop function. */
    start(): () => void {
      if (!enrolment) return () => {};
      const kick = () => void this.sync().catch((e) => log("reference: sync failed", e));
      const first = setTimeout(kick, 0);
      const timer = setInterval(kick, deps.syncEveryMs ?? 5 * 60_000);
      return () => (clearTimeout(first), clearInterval(timer));
    },
  };
}

export type ReferenceService = ReturnType<typeof createReferenceService>;
