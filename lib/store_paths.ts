/**
 * Every path that belongs to one store, named after the store's file: the
 * daemon's read and write grants list exactly these, never the store's folder
 * (`CYBEROS_MEMORY_DB=~/c.db` must not open all of `$HOME` to it).
 *
 * @module
 */

/** Where frames the store cannot take are kept: `<store>.quarantine/`. */
export function quarantineDirOf(db: string): string {
  return `${db}.quarantine`;
}

/**
 * The store's own paths: the file, SQLite's `-wal`, `-shm` and `-journal`,
 * the store lock (`.lock`), the checkpoint signing key (`.signing.key`) and
 * the quarantine folder. SQLite's temporary files stay in memory
 * (`PRAGMA temp_store = MEMORY`), so they need no grant.
 */
export function storeOwnPaths(db: string): string[] {
  return [
    db,
    `${db}-wal`,
    `${db}-shm`,
    `${db}-journal`,
    `${db}.lock`,
    `${db}.signing.key`,
    quarantineDirOf(db),
  ];
}
