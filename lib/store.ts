/**
 * The SQLite store: one append-only table of chained rows, in WAL mode, with
 * a single writer (the daemon). Readers open it read-only.
 *
 * Table `rows`: `seq` (from 1), `frame_id` (unique: a frame spooled and also
 * sent is stored once), `kind`, `session_id`, `cwd`, `captured_at_ns`,
 * `payload` (the JSON text, fields in DESIGN.md order), `prev_hash`, `hash`.
 * The chain is documented in `chain.ts`.
 *
 * Table `checkpoints`: the signed checkpoints the daemon made (`size`, the
 * Merkle `root` in hex, the signed `note`, `signed_at_ms`), see
 * `checkpoint.ts`. Table `meta`: values set once (the log's `origin`, its
 * `verifier_key`). All three tables are append-only by trigger.
 *
 * @module
 */

import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { openReadOnlyDatabase, PreparedStatements } from "./sqlite.ts";
import {
  ChainBrokenError,
  type ChainColumns,
  chainProblem,
  GENESIS_HASH,
  rowHash,
} from "./chain.ts";
import { isRowKind, ROW_KINDS, type RowKind, TASK_NOTIFICATION_SOURCE } from "./kinds.ts";
import type { SessionCounts, StoredRow } from "./rows.ts";
import { nsDigits } from "./json.ts";
import { dirname } from "./paths.ts";
import { assertSameFile, type FileIdentity, fileIdentity } from "./store_identity.ts";

/**
 * The triggers that refuse UPDATE and DELETE, with the text SQLite keeps of
 * each (`verify` compares it, so a trigger replaced by a no-op is caught).
 * The rows' two were created with the table and are listed here too.
 */
export const APPEND_ONLY_TRIGGERS: readonly { name: string; sql: string }[] = [
  ["rows", "rows", "UPDATE"],
  ["rows", "rows", "DELETE"],
  ["meta", "meta values", "UPDATE"],
  ["meta", "meta values", "DELETE"],
  ["checkpoints", "checkpoints", "UPDATE"],
  ["checkpoints", "checkpoints", "DELETE"],
].map(([table, what, operation]) => {
  const name = `${table}_no_${operation!.toLowerCase()}`;
  return {
    name,
    sql: `${name} BEFORE ${operation} ON ${table}
  BEGIN SELECT RAISE(ABORT, '${what} are append-only'); END`,
  };
});

const SCHEMA = `
CREATE TABLE IF NOT EXISTS rows (
  seq INTEGER PRIMARY KEY,
  frame_id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  session_id TEXT NOT NULL,
  cwd TEXT,
  captured_at_ns INTEGER NOT NULL,
  payload TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rows_by_session ON rows(session_id);
CREATE INDEX IF NOT EXISTS rows_by_cwd ON rows(cwd);
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS checkpoints (
  size INTEGER PRIMARY KEY,
  root TEXT NOT NULL,
  note TEXT NOT NULL,
  signed_at_ms INTEGER NOT NULL
);
${APPEND_ONLY_TRIGGERS.map((trigger) => `CREATE TRIGGER IF NOT EXISTS ${trigger.sql};`).join("\n")}
`;

/** Options for {@linkcode openStore}. */
export interface OpenStoreOptions {
  /**
   * Open for reading only (tail, status, verify).
   *
   * @default {false}
   */
  readOnly?: boolean;
}

/** A row to append: the completed payload and the frame it came from. */
export interface AppendInput {
  /** The frame id, stored once. */
  frameId: string;
  /** The row kind. */
  kind: RowKind;
  /** The completed payload. */
  payload: Record<string, unknown>;
}

/** See {@linkcode Store.frameState}. */
export type FrameState = "stored" | "absent" | "taken";

/** Filters for {@linkcode Store.lastRows}. */
export interface LastRowsOptions {
  /** How many rows at most. */
  limit: number;
  /** Only this session's rows. */
  sessionId?: string;
  /** Only rows whose `cwd` is this folder or inside it. */
  cwdWithin?: string;
  /** Only rows of this kind. */
  kind?: string;
  /** Only rows captured at or after this time, ns since the epoch. */
  sinceNs?: bigint;
  /** Only rows after this `seq` (for following the store). */
  afterSeq?: number;
}

/** Meta keys. */
export const META_KEYS = {
  /** The log's origin: `cyberos-memory/<random id>`, chosen at first start. */
  origin: "origin",
  /** The verifier key of the key that signs this store's checkpoints. */
  verifierKey: "verifier_key",
} as const;

/** A signed checkpoint as the store keeps it. */
export interface StoredCheckpoint {
  /** The tree size (rows 1..size). */
  size: number;
  /** The Merkle root, lowercase hex. */
  root: string;
  /** The signed checkpoint note. */
  note: string;
  /** When it was signed, milliseconds since the epoch. */
  signedAtMs: number;
}

/** What {@linkcode Store.checkTriggers} found wrong with one trigger. */
export interface TriggerProblem {
  /** The trigger's name. */
  name: string;
  /** `missing`, or `altered` when its SQL is not ours. */
  problem: "missing" | "altered";
}

interface RawRow {
  seq: number;
  kind: string;
  payload: string;
  prev_hash: string;
  hash: string;
}

/**
 * Sessions whose counts the store keeps up to date as it appends. Counting a
 * session in SQL reads every one of its rows (8,000 rows: 30 ms, while the
 * daemon reads no socket); after the first Stop of a session each append
 * adds to its tally instead. Past this many sessions the oldest is forgotten
 * and counted again when its next Stop comes.
 */
const MAX_TALLIED_SESSIONS = 4096;

/** An open store. */
export class Store {
  readonly #db: DatabaseSync;
  readonly #statements: PreparedStatements;
  readonly #tallies = new Map<string, SessionCounts>();
  #tip: { seq: number; hash: string };

  readonly #writer: boolean;
  readonly #identity: FileIdentity | undefined;

  /**
   * Wraps an open database; use {@linkcode openStore}. Only the writer keeps
   * session tallies: a reader would not see the writer's appends. A writer
   * given the file's `identity` refuses to commit once the path names
   * another file.
   */
  constructor(db: DatabaseSync, options: { writer: boolean; identity?: FileIdentity }) {
    this.#db = db;
    this.#statements = new PreparedStatements(db);
    this.#writer = options.writer;
    this.#identity = options.identity;
    this.#tip = this.#readTip();
  }

  /**
   * Runs `work` in one write transaction (a group commit); rolls back on
   * error and rethrows that error.
   *
   * @throws {StoreReplacedError} before anything is written when the store's
   * file was deleted or replaced since it was opened.
   */
  transaction<T>(work: () => T): T {
    this.assertSameFile();
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const result = work();
      this.#db.exec("COMMIT");
      return result;
    } catch (error) {
      // SQLite rolls back by itself on some errors (a full disk): a second
      // ROLLBACK would fail and hide the real error behind its own.
      if (this.#db.isTransaction) this.#db.exec("ROLLBACK");
      this.#tip = this.#readTip();
      // The tallies counted rows that are gone now.
      this.#tallies.clear();
      throw error;
    }
  }

  /**
   * Whether a frame is stored already (`stored`), not (`absent`), or its id
   * sits on a row of other content (`taken`). A row is this frame's only when
   * it also has the frame's kind, session and capture time: those columns are
   * bound to the chain (verify checks them against the hashed payload), the
   * `frame_id` column is not, so an id someone wrote onto another row must
   * not make the daemon drop the frame.
   */
  frameState(frame: { id: string; kind: string; payload: Record<string, unknown> }): FrameState {
    const row = this.#statements.get(
      "SELECT kind, session_id, CAST(captured_at_ns AS TEXT) AS captured FROM rows WHERE frame_id = ?",
    ).get(frame.id) as { kind: string; session_id: string; captured: string } | undefined;
    if (row === undefined) return "absent";
    const same = row.kind === frame.kind && row.session_id === frame.payload.session_id &&
      row.captured === nsDigits(Number(frame.payload.captured_at_ns));
    return same ? "stored" : "taken";
  }

  /**
   * Checks that the store's path still names the file this writer opened.
   *
   * @throws {StoreReplacedError} when it was deleted or replaced.
   */
  assertSameFile(): void {
    if (this.#identity !== undefined) assertSameFile(this.#identity);
  }

  /** Appends one row at the chain's tip; call inside {@linkcode transaction}. */
  append(input: AppendInput): StoredRow {
    const seq = this.#tip.seq + 1;
    const prevHash = this.#tip.hash;
    const hash = rowHash(prevHash, { seq, kind: input.kind, payload: input.payload });
    const payload = input.payload;
    this.#statements.get(
      `INSERT INTO rows (seq, frame_id, kind, session_id, cwd, captured_at_ns, payload, prev_hash, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      seq,
      input.frameId,
      input.kind,
      String(payload.session_id),
      typeof payload.cwd === "string" ? payload.cwd : null,
      BigInt(nsDigits(Number(payload.captured_at_ns))),
      JSON.stringify(payload),
      prevHash,
      hash,
    );
    this.#tip = { seq, hash };
    this.#tally(input.kind, payload);
    return { seq, kind: input.kind, payload, prev_hash: prevHash, hash };
  }

  #tally(kind: RowKind, payload: Record<string, unknown>): void {
    const tally = this.#tallies.get(String(payload.session_id));
    if (tally === undefined) return;
    if (kind === ROW_KINDS.prompt && payload.prompt_source !== TASK_NOTIFICATION_SOURCE) {
      tally.promptCount++;
    }
    if (kind === ROW_KINDS.toolUse) tally.toolUseCount++;
    const captured = Number(payload.captured_at_ns);
    if (tally.firstCapturedAtNs === undefined || captured < tally.firstCapturedAtNs) {
      tally.firstCapturedAtNs = captured;
    }
  }

  /** What the store knows of a session so far, for a Stop row. */
  sessionCounts(sessionId: string): SessionCounts {
    if (!this.#writer) return this.#countSession(sessionId);
    let tally = this.#tallies.get(sessionId);
    if (tally === undefined) {
      tally = this.#countSession(sessionId);
      if (this.#tallies.size >= MAX_TALLIED_SESSIONS) {
        this.#tallies.delete(this.#tallies.keys().next().value!);
      }
      this.#tallies.set(sessionId, tally);
    }
    return { ...tally };
  }

  #countSession(sessionId: string): SessionCounts {
    const row = this.#statements.get(
      `SELECT
         COALESCE(SUM(kind = ? AND json_extract(payload, '$.prompt_source') IS NOT ?), 0) AS prompts,
         COALESCE(SUM(kind = ?), 0) AS tools,
         CAST(MIN(captured_at_ns) AS TEXT) AS first
       FROM rows WHERE session_id = ?`,
    ).get(ROW_KINDS.prompt, TASK_NOTIFICATION_SOURCE, ROW_KINDS.toolUse, sessionId) as {
      prompts: number;
      tools: number;
      first: string | null;
    };
    return {
      promptCount: Number(row.prompts),
      toolUseCount: Number(row.tools),
      firstCapturedAtNs: row.first === null ? undefined : Number(row.first),
    };
  }

  /** The newest rows matching the filters, oldest first. */
  lastRows(options: LastRowsOptions): StoredRow[] {
    const { where, params } = rowFilters(options);
    const sql = `SELECT seq, kind, payload, prev_hash, hash FROM rows
      ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY seq DESC LIMIT ?`;
    const rows = this.#db.prepare(sql).all(...params, options.limit) as unknown as RawRow[];
    return rows.reverse().map(toStoredRow);
  }

  /** The oldest rows matching the filters (after `afterSeq`, say), oldest first. */
  firstRows(options: LastRowsOptions): StoredRow[] {
    const { where, params } = rowFilters(options);
    const sql = `SELECT seq, kind, payload, prev_hash, hash FROM rows
      ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY seq LIMIT ?`;
    const rows = this.#db.prepare(sql).all(...params, options.limit) as unknown as RawRow[];
    return rows.map(toStoredRow);
  }

  /** The distinct session ids starting with `prefix`, at most `limit` of them. */
  sessionIdsStartingWith(prefix: string, limit: number): string[] {
    const rows = this.#db.prepare(
      "SELECT DISTINCT session_id FROM rows WHERE substr(session_id, 1, ?) = ? LIMIT ?",
    ).all(prefix.length, prefix, limit) as unknown as { session_id: string }[];
    return rows.map((row) => row.session_id);
  }

  /** How many rows the store holds now (readers see other processes' commits). */
  count(): number {
    const row = this.#statements.get("SELECT COALESCE(MAX(seq), 0) AS n FROM rows").get() as {
      n: number;
    };
    return Number(row.n);
  }

  /**
   * Walks the whole chain and checks every link, hash and column.
   *
   * @returns how many rows were checked.
   * @throws {ChainBrokenError} naming the first bad `seq`.
   */
  verify(): number {
    const statement = this.#db.prepare(
      `SELECT seq, kind, session_id, cwd, CAST(captured_at_ns AS TEXT) AS captured, payload,
              prev_hash, hash FROM rows ORDER BY seq`,
    );
    let expectedSeq = 1;
    let prevHash = GENESIS_HASH;
    for (const raw of statement.iterate()) {
      const row = raw as unknown as ChainColumns;
      const problem = chainProblem(row, { seq: expectedSeq, prevHash });
      if (problem !== undefined) throw new ChainBrokenError(expectedSeq, problem);
      prevHash = row.hash;
      expectedSeq++;
    }
    return expectedSeq - 1;
  }

  /** The chain hashes of rows `fromSeq`.., in seq order (for the Merkle tree). */
  *rowHashes(options: { fromSeq?: number } = {}): Generator<string> {
    const { fromSeq = 1 } = options;
    const statement = this.#db.prepare("SELECT hash FROM rows WHERE seq >= ? ORDER BY seq");
    for (const row of statement.iterate(fromSeq)) yield (row as { hash: string }).hash;
  }

  /** A meta value, or undefined when unset (or the store predates meta). */
  meta(key: string): string | undefined {
    if (!this.#statements.hasTable("meta")) return undefined;
    const row = this.#statements.get("SELECT value FROM meta WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  /** Sets a meta value once; a second set of the same key throws. */
  setMeta(key: string, value: string): void {
    this.#statements.get("INSERT INTO meta (key, value) VALUES (?, ?)").run(key, value);
  }

  /** Keeps a signed checkpoint; one per tree size. */
  appendCheckpoint(checkpoint: StoredCheckpoint): void {
    this.#statements.get(
      "INSERT INTO checkpoints (size, root, note, signed_at_ms) VALUES (?, ?, ?, ?)",
    ).run(checkpoint.size, checkpoint.root, checkpoint.note, checkpoint.signedAtMs);
  }

  /** The checkpoint of the largest tree, if any. */
  latestCheckpoint(): StoredCheckpoint | undefined {
    return this.checkpoints({ latestOnly: true })[0];
  }

  /** The stored checkpoints by tree size (or the latest only). */
  checkpoints(options: { latestOnly?: boolean } = {}): StoredCheckpoint[] {
    return readCheckpoints(this.#statements, options);
  }

  /** The append-only triggers that are missing or not ours (none when intact). */
  checkTriggers(): TriggerProblem[] {
    const present = new Map(
      (this.#db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").all() as {
        name: string;
        sql: string;
      }[]).map((row) => [row.name, normalizeSql(row.sql)]),
    );
    const problems: TriggerProblem[] = [];
    for (const trigger of APPEND_ONLY_TRIGGERS) {
      const sql = present.get(trigger.name);
      if (sql === undefined) problems.push({ name: trigger.name, problem: "missing" });
      else if (sql !== normalizeSql(`CREATE TRIGGER ${trigger.sql}`)) {
        problems.push({ name: trigger.name, problem: "altered" });
      }
    }
    return problems;
  }

  /** Closes the database (a checkpoint keeps the WAL small). */
  close(): void {
    this.#statements.clear();
    this.#db.close();
  }

  #readTip(): { seq: number; hash: string } {
    const row = this.#db.prepare("SELECT seq, hash FROM rows ORDER BY seq DESC LIMIT 1").get() as
      | { seq: number; hash: string }
      | undefined;
    return row ? { seq: Number(row.seq), hash: row.hash } : { seq: 0, hash: GENESIS_HASH };
  }
}

/**
 * The checkpoints of the database behind `statements` by tree size (or the
 * latest only); none for a store from before checkpoints.
 */
export function readCheckpoints(
  statements: PreparedStatements,
  options: { latestOnly?: boolean } = {},
): StoredCheckpoint[] {
  if (!statements.hasTable("checkpoints")) return [];
  const sql = options.latestOnly
    ? "SELECT * FROM checkpoints ORDER BY size DESC LIMIT 1"
    : "SELECT * FROM checkpoints ORDER BY size";
  const rows = statements.get(sql).all() as {
    size: number;
    root: string;
    note: string;
    signed_at_ms: number;
  }[];
  return rows.map((row) => ({
    size: Number(row.size),
    root: row.root,
    note: row.note,
    signedAtMs: Number(row.signed_at_ms),
  }));
}

/**
 * Opens (and for writers creates) the store at `path`.
 *
 * @throws {Deno.errors.NotFound} for a reader when there is no store yet.
 */
export function openStore(path: string, options: OpenStoreOptions = {}): Store {
  const { readOnly = false } = options;
  if (readOnly) {
    return new Store(openReadOnlyDatabase(path), { writer: false });
  }
  createPrivateFile(path);
  const identity = fileIdentity(path);
  const db = new DatabaseSync(path);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = FULL");
  db.exec("PRAGMA busy_timeout = 5000");
  // Sorts and temporary tables stay in memory: no temp file outside the store's own paths.
  db.exec("PRAGMA temp_store = MEMORY");
  db.exec(SCHEMA);
  // SQLite gives -wal and -shm the store's mode; ones left by an older version are narrowed here.
  for (const sibling of [`${path}-wal`, `${path}-shm`]) chmodIfPresent(sibling, 0o600);
  return new Store(db, { writer: true, identity });
}

/**
 * Creates the store file 0600 whatever the umask (its folder 0700 when it is
 * missing), or narrows an existing one to 0600, before SQLite opens it: SQLite
 * then gives its `-wal` and `-shm` files the same mode.
 *
 * @throws {TypeError} when the path is a symlink or not a regular file.
 */
function createPrivateFile(path: string): void {
  try {
    const info = Deno.lstatSync(path);
    if (!info.isFile) {
      throw new TypeError(`Cannot open the store: ${path} is a symlink or not a regular file`);
    }
    Deno.chmodSync(path, 0o600);
    return;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  try {
    Deno.writeFileSync(path, new Uint8Array(), { createNew: true, mode: 0o600 });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    // The folder is missing. The daemon, granted only the store's own paths,
    // cannot make it (its launcher does); a tool with a wider grant can.
    const folder = dirname(path);
    Deno.mkdirSync(folder, { recursive: true, mode: 0o700 });
    Deno.chmodSync(folder, 0o700);
    Deno.writeFileSync(path, new Uint8Array(), { createNew: true, mode: 0o600 });
  }
  Deno.chmodSync(path, 0o600);
}

function chmodIfPresent(path: string, mode: number): void {
  try {
    Deno.chmodSync(path, mode);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

function rowFilters(options: LastRowsOptions): { where: string[]; params: SQLInputValue[] } {
  const { sessionId, cwdWithin, kind, sinceNs, afterSeq } = options;
  const where: string[] = [];
  const params: SQLInputValue[] = [];
  if (sessionId !== undefined) {
    where.push("session_id = ?");
    params.push(sessionId);
  }
  if (cwdWithin !== undefined) {
    const base = cwdWithin.endsWith("/") ? cwdWithin.slice(0, -1) : cwdWithin;
    where.push("(cwd = ? OR substr(cwd, 1, ?) = ?)");
    params.push(base, base.length + 1, `${base}/`);
  }
  if (kind !== undefined) {
    where.push("kind = ?");
    params.push(kind);
  }
  if (sinceNs !== undefined) {
    where.push("captured_at_ns >= ?");
    params.push(sinceNs);
  }
  if (afterSeq !== undefined) {
    where.push("seq > ?");
    params.push(afterSeq);
  }
  return { where, params };
}

function normalizeSql(sql: string): string {
  return sql.replace(/\s+/g, " ").trim();
}

function toStoredRow(raw: RawRow): StoredRow {
  if (!isRowKind(raw.kind)) throw new TypeError(`Unknown row kind in store: ${raw.kind}`);
  return {
    seq: Number(raw.seq),
    kind: raw.kind,
    payload: JSON.parse(raw.payload),
    prev_hash: raw.prev_hash,
    hash: raw.hash,
  };
}
