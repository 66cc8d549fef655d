/**
 * What every reader and the writer of the store do the same way with
 * `node:sqlite`: open it read-only without creating it, prepare each SQL text
 * once, and ask whether a table exists (a store from an older version may
 * lack `meta` or `checkpoints` until its daemon runs once).
 *
 * @module
 */

import { DatabaseSync, type StatementSync } from "node:sqlite";

/**
 * Opens the database at `path` read-only, waiting up to 2 s for the writer.
 *
 * @throws {Deno.errors.NotFound} when there is no file (SQLite would create one).
 */
export function openReadOnlyDatabase(path: string): DatabaseSync {
  Deno.statSync(path);
  const db = new DatabaseSync(path, { readOnly: true });
  db.exec("PRAGMA busy_timeout = 2000");
  return db;
}

/** A database's statements, each SQL text prepared once. */
export class PreparedStatements {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  /** Prepares statements of `db` as they are first asked for. */
  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** The statement for `sql`, prepared on first use. */
  get(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** Whether the database has a table called `name`. */
  hasTable(name: string): boolean {
    return this.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(name) !== undefined;
  }

  /** Forgets the statements (before the database closes). */
  clear(): void {
    this.#statements.clear();
  }
}
