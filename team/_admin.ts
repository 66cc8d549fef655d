/**
 * What an administrator runs: `init` (schema, roles, rules) and `enroll` (a
 * machine's login, bound to the origin its verifier key names).
 *
 * @module
 */

import { netTarget, type Sql, type TeamUrl } from "./_connect.ts";
import { randomPassword, scramVerifier } from "./_scram.ts";
import { INIT_STATEMENTS, MACHINE_LOGIN_PREFIX, MACHINE_ROLE, quoteIdent } from "./_schema.ts";

/** Creates or updates the schema, roles and rules in one transaction. */
export async function initSchema(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    // Two inits at once would race on CREATE ROLE; one waits for the other.
    await tx`SELECT pg_advisory_xact_lock(hashtext('cyberos_memory init'))`;
    for (const statement of INIT_STATEMENTS) await tx.unsafe(statement);
  });
}

/** A machine to enroll. */
export interface EnrollInput {
  /** The origin (the verifier key's name). */
  origin: string;
  /** The verifier key as `deno task key` printed it. */
  vkey: string;
}

/** What `enroll` made. */
export interface Enrollment {
  /** The login role. */
  login: string;
  /** The URL the machine ships with (holds the password). */
  url: string;
  /** Whether the machine was enrolled before (its password is new now). */
  reissued: boolean;
}

/** The origin is enrolled already under another key. */
export class EnrollConflictError extends Error {
  /** Makes the error for `origin`. */
  constructor(origin: string) {
    super(
      `Cannot enroll origin "${origin}": it is enrolled with another key (a second store under the same name?)`,
    );
    this.name = "EnrollConflictError";
  }
}

/**
 * Registers a machine by its verifier key: a login with a fresh random
 * password (member of the machine role), bound to the key's origin. Enrolling
 * the same key again gives the same login a new password.
 *
 * @throws {EnrollConflictError} when the origin has another key.
 */
export async function enrollMachine(
  sql: Sql,
  input: EnrollInput,
  options: { adminUrl: TeamUrl },
): Promise<Enrollment> {
  const password = randomPassword();
  const verifier = await scramVerifier(password);
  const result = await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext('cyberos_memory enroll'))`;
    const [existing] = await tx<{ vkey: string; login: string }[]>`
      SELECT vkey, login FROM cyberos_memory.machines WHERE origin = ${input.origin}`;
    if (existing && existing.vkey !== input.vkey) throw new EnrollConflictError(input.origin);
    const login = existing?.login ?? MACHINE_LOGIN_PREFIX + randomHex(8);
    // DDL takes no parameters: the name is ours ([a-z0-9_]) and the verifier
    // is base64 with `$` and `:` only, checked before it is spliced in.
    if (
      !/^SCRAM-SHA-256\$[0-9]+:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/.test(verifier)
    ) {
      throw new Error(`Cannot enroll: unexpected verifier shape`);
    }
    if (existing) {
      await tx.unsafe(`ALTER ROLE ${quoteIdent(login)} PASSWORD '${verifier}'`);
    } else {
      await tx.unsafe(
        `CREATE ROLE ${quoteIdent(login)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION
           NOBYPASSRLS INHERIT CONNECTION LIMIT 8 PASSWORD '${verifier}'
           IN ROLE ${quoteIdent(MACHINE_ROLE)}`,
      );
      await tx`INSERT INTO cyberos_memory.machines (origin, vkey, login)
               VALUES (${input.origin}, ${input.vkey}, ${login})`;
    }
    return { login, reissued: existing !== undefined };
  });
  return { ...result, url: machineUrl(options.adminUrl, result.login, password) };
}

function machineUrl(admin: TeamUrl, login: string, password: string): string {
  const ssl = admin.sslmode ? `?sslmode=${admin.sslmode}` : "";
  return `postgres://${login}:${password}@${netTarget(admin)}/${
    encodeURIComponent(admin.database)
  }${ssl}`;
}

function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)))
    .map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
