/**
 * Litestream 0.3.13 (npm @flydotio/litestream), the replication engine that ships a box's
 * database to HQ: where its binary is, the configuration file it reads, and what its log
 * lines and Prometheus metrics say. Pure encoders and parsers; the process is run by
 * appliance/modules/hqlink/service.ts and scripts/restore-box.ts.
 */
import { createRequire } from "node:module";
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** The pinned binary, wherever the package manager put the package. */
export const LITESTREAM_BIN = join(dirname(createRequire(import.meta.url).resolve("@flydotio/litestream-linux-x64/package.json")), "litestream");

export interface ReplicaTarget {
  /** sftp://user@host[:port]/folder, s3://bucket/folder[?endpoint=http(s)://host[:port]] or file:///folder. */
  url: string;
  /** The SSH private key for sftp (Litestream 0.3 takes it only from a configuration file). */
  keyPath?: string | null;
}

/** How often Litestream looks at the WAL and ships it: the "last second" the dead-box bar allows to lose. */
export const MONITOR_INTERVAL = "250ms";
export const SYNC_INTERVAL = "500ms";

/** A YAML double-quoted scalar (JSON strings are valid YAML); the file is read with -no-expand-env. */
const q = (s: string) => JSON.stringify(s);

/** The replica's lines of the configuration (indented for a `replicas:` list). */
function replicaYaml(t: ReplicaTarget, extra: string[]): string[] {
  const u = new URL(t.url);
  const lines: string[] = [];
  if (u.protocol === "s3:" && u.searchParams.has("endpoint")) {
    // Litestream 0.3 reads an S3-compatible endpoint from the configuration, not the URL.
    lines.push("type: s3", `bucket: ${q(u.hostname)}`, `path: ${q(u.pathname.replace(/^\/+/, ""))}`);
    lines.push(`endpoint: ${q(u.searchParams.get("endpoint")!)}`, "region: us-east-1", "force-path-style: true");
  } else lines.push(`url: ${q(t.url)}`);
  if (t.keyPath) lines.push(`key-path: ${q(t.keyPath)}`);
  lines.push(...extra);
  return lines.map((l, i) => `${i === 0 ? "      - " : "        "}${l}`);
}

/**
 * The configuration for `litestream replicate -config <file> -no-expand-env`: one database,
 * one replica. Litestream checkpoints the WAL itself (PASSIVE from 1,000 pages or each
 * minute, RESTART from 10,000 pages; its defaults): the appliance's own checkpointer stands
 * aside while it runs (see README, "who checkpoints when").
 */
export function replicateConfig(o: { dbPath: string; target: ReplicaTarget; metricsAddr: string }): string {
  return [
    `addr: ${q(o.metricsAddr)}`,
    "dbs:",
    `  - path: ${q(o.dbPath)}`,
    `    monitor-interval: ${MONITOR_INTERVAL}`,
    "    replicas:",
    // A snapshot a day keeps a restore to one snapshot plus at most a day of WAL segments.
    ...replicaYaml(o.target, [`sync-interval: ${SYNC_INTERVAL}`, "snapshot-interval: 24h", "retention: 72h"]),
    "",
  ].join("\n");
}

/** A configuration naming only the replica, for `litestream restore|snapshots -config <file> <dbPath>`. */
export function replicaOnlyConfig(o: { dbPath: string; target: ReplicaTarget }): string {
  return ["dbs:", `  - path: ${q(o.dbPath)}`, "    replicas:", ...replicaYaml(o.target, []), ""].join("\n");
}

/** One of Litestream's log lines (`time=… level=… msg=… key=value…`, Go's slog text format). */
export interface LogLine {
  time: string | null;
  level: string;
  msg: string;
  attrs: Record<string, string>;
}

export function parseLogLine(line: string): LogLine | null {
  const attrs: Record<string, string> = {};
  const re = /(\w[\w.-]*)=("(?:[^"\\]|\\.)*"|\S*)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    const raw = m[2]!;
    attrs[m[1]!] = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
  }
  if (!attrs.level || attrs.msg === undefined) return null;
  const { time = null, level, msg, ...rest } = attrs;
  return { time, level, msg, attrs: rest };
}

/**
 * A position in Litestream's terms (its `Pos`): the generation (a new one starts with a full
 * snapshot whenever Litestream loses track of the WAL), the shadow WAL segment's index within
 * it, and the byte offset within that segment. Offsets of different indexes do not add up:
 * (3, 708672) is after (2, 4449632).
 */
export interface Position {
  generation: string;
  index: number;
  offset: number;
}

/** A position as Litestream logs it: `<generation>/<index in hex>:<offset>`. */
export function parsePosition(p: string | undefined): Position | null {
  const m = p ? /^([0-9a-f]+)\/([0-9a-f]+):(\d+)$/.exec(p) : null;
  return m ? { generation: m[1]!, index: Number.parseInt(m[2]!, 16), offset: Number(m[3]) } : null;
}

/** Orders two positions of one generation (negative: a is before b). */
export function comparePositions(a: Omit<Position, "generation">, b: Omit<Position, "generation">): number {
  return a.index - b.index || a.offset - b.offset;
}

/**
 * Where the replica is after an upload, from its log line: "snapshot written" holds the
 * snapshot's position; "wal segment written" logs where the upload *started* and `sz`, the
 * bytes it wrote from there (the 32-byte WAL header included when it started at 0), so the
 * replica ends at offset + sz (Litestream 0.3.13, replica.go syncWAL). Null for other lines.
 */
export function shippedPosition(l: LogLine): Position | null {
  const p = parsePosition(l.attrs.position);
  if (!p) return null;
  if (l.msg === "snapshot written") return p;
  if (l.msg !== "wal segment written") return null;
  const sz = Number(l.attrs.sz);
  return Number.isFinite(sz) ? { ...p, offset: p.offset + sz } : null;
}

/** The gauges of Litestream's Prometheus text (from `addr`'s /metrics). */
export interface Metrics {
  /** The newest shadow WAL segment's index. */
  shadowIndex: number | null;
  /**
   * The bytes of all the shadow WAL segments Litestream still keeps (it keeps the one before
   * the replica's): NOT an offset in the newest segment. Read as one, it never equals the
   * replica's offset again after the first segment change (the lag that never settled).
   */
  shadowBytes: number | null;
  /** What the replica has: its segment index and the offset in it (set only by an upload since Litestream started). */
  replica: { index: number; offset: number } | null;
  syncErrors: number;
}

export function parseMetrics(text: string): Metrics {
  const v: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const m = /^(litestream_[a-z_]+)(?:\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (m) v[m[1]!] = Number(m[2]);
  }
  const ri = v.litestream_replica_wal_index;
  const ro = v.litestream_replica_wal_offset;
  return {
    shadowIndex: v.litestream_shadow_wal_index ?? null,
    shadowBytes: v.litestream_shadow_wal_size ?? null,
    replica: ri !== undefined && ro !== undefined ? { index: ri, offset: ro } : null,
    syncErrors: v.litestream_sync_error_count ?? 0,
  };
}

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/**
 * The box's own newest position, read as Litestream reads it (db.go, DB.Pos): the generation
 * in `.<db>-litestream/generation`, the highest `<index>.wal` shadow segment of that
 * generation, and that segment's size cut down to whole frames (the page size is in the WAL
 * header). Null while Litestream has made no generation yet.
 */
export function shadowPosition(dbPath: string): Position | null {
  const meta = join(dirname(dbPath), `.${basename(dbPath)}-litestream`);
  try {
    const generation = readFileSync(join(meta, "generation"), "utf8").trim();
    if (!/^[0-9a-f]+$/.test(generation)) return null;
    const wal = join(meta, "generations", generation, "wal");
    const indexes = readdirSync(wal)
      .map((f) => /^([0-9a-f]{8})\.wal$/.exec(f)?.[1])
      .filter((x): x is string => !!x)
      .map((x) => Number.parseInt(x, 16));
    if (!indexes.length) return { generation, index: 0, offset: 0 };
    const index = Math.max(...indexes);
    const file = join(wal, `${index.toString(16).padStart(8, "0")}.wal`);
    const size = statSync(file).size;
    if (size < WAL_HEADER) return { generation, index, offset: 0 };
    const header = Buffer.alloc(4);
    const fd = openSync(file, "r");
    try {
      readSync(fd, header, 0, 4, 8);
    } finally {
      closeSync(fd);
    }
    const raw = header.readUInt32BE(0);
    const frame = FRAME_HEADER + (raw === 1 ? 65536 : raw);
    return { generation, index, offset: WAL_HEADER + Math.floor((size - WAL_HEADER) / frame) * frame };
  } catch {
    // No generation yet, or a segment removed between the listing and the read: next poll.
    return null;
  }
}

/** Litestream's error text in plain words for the shop (the raw text stays in the box's log). */
export function plainError(error: string): string {
  const e = error.toLowerCase();
  if (/unable to authenticate|permission denied \(publickey|handshake failed: ssh: no auth/.test(e)) return "HQ's server refused the key";
  if (/cannot read sftp key|ssh: no key found|cannot parse.*key|key path/.test(e))
    return "The key for HQ cannot be read: set it again on the Link to HQ screen";
  if (/no such host|server misbehaving/.test(e)) return "HQ's server name is not known (check the address, or the box's internet and DNS)";
  if (/connection refused/.test(e)) return "HQ's server is not answering (connection refused)";
  if (/i\/o timeout|no route to host|network is unreachable|deadline exceeded|connection reset|broken pipe|\beof\b/.test(e))
    return "HQ's server is not answering";
  if (/host key|knownhosts/.test(e)) return "HQ's server presented an unexpected host key";
  if (/permission denied|access denied|forbidden|accessdenied/.test(e)) return "HQ's storage refused to store the files (permission denied)";
  if (/no such bucket|nosuchbucket/.test(e)) return "HQ's bucket does not exist";
  if (/invalidaccesskeyid|signaturedoesnotmatch|credentials/.test(e)) return "HQ's storage refused the access keys";
  if (/no space|quota/.test(e)) return "HQ's storage is full";
  if (/database is locked|busy/.test(e)) return "The database was busy; Litestream will retry";
  return `Replication failed: ${error.slice(0, 200)}`;
}
