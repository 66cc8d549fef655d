/**
 * Connections to the team store. The URL is parsed here and every option is
 * passed to `postgres` explicitly, so the driver reads no `PG*` variable but
 * the three it always consults (`PGAPPNAME`, `PGTARGETSESSIONATTRS`, and
 * `PGPASSWORD` when the URL has no password): `team`'s `--allow-env` names only
 * those (`POSTGRES_DRIVER_ENV_VARS` in `lib/permissions.ts`).
 *
 * @module
 */

import postgres from "postgres";

/** An open connection pool. */
export type Sql = postgres.Sql;
/** A pool or a transaction: what runs a query. */
export type Queryable = postgres.Sql | postgres.TransactionSql;

/** Where a team store URL points. */
export interface TeamUrl {
  /** Host name or address. */
  hostname: string;
  /** TCP port. */
  port: number;
  /** Login role. */
  user: string;
  /** Password ("" when none). */
  password: string;
  /** Database name. */
  database: string;
  /** `sslmode` from the query string, when given. */
  sslmode?: "disable" | "require" | "verify-full";
}

/**
 * Parses `postgres://user:password@host:port/database[?sslmode=…]`.
 *
 * @throws {TypeError} naming what is wrong (never the password).
 */
export function parseTeamUrl(text: string): TeamUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(
      "Cannot read the URL: give one like postgres://user:password@host:5432/database",
    );
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new TypeError(`Cannot read the URL: scheme "${url.protocol}" is not postgres:`);
  }
  if (!url.hostname || url.hostname.startsWith("%2F")) {
    throw new TypeError(
      "Cannot read the URL: it names no TCP host (Unix sockets are not supported)",
    );
  }
  if (url.hostname.includes(",")) {
    throw new TypeError("Cannot read the URL: it names several hosts; give one host:port");
  }
  if (!url.username) throw new TypeError("Cannot read the URL: it names no user");
  const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (!database) throw new TypeError("Cannot read the URL: it names no database");
  for (const key of url.searchParams.keys()) {
    if (key !== "sslmode") {
      throw new TypeError(
        `Cannot read the URL: parameter "${key}" is not supported (only sslmode)`,
      );
    }
  }
  const sslmode = url.searchParams.get("sslmode");
  if (sslmode !== null && !["disable", "require", "verify-full"].includes(sslmode)) {
    throw new TypeError(
      `Cannot read the URL: sslmode "${sslmode}" is not supported (disable, require, verify-full)`,
    );
  }
  return {
    hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port ? Number(url.port) : 5432,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database,
    ...(sslmode ? { sslmode: sslmode as NonNullable<TeamUrl["sslmode"]> } : {}),
  };
}

/** `host:port` for `--allow-net`. */
export function netTarget(url: TeamUrl): string {
  const host = url.hostname.includes(":") ? `[${url.hostname}]` : url.hostname;
  return `${host}:${url.port}`;
}

/** Options for {@linkcode connect}. */
export interface ConnectOptions {
  /**
   * Connections in the pool.
   *
   * @default {1}
   */
  max?: number;
  /**
   * Seconds to wait for a connection.
   *
   * @default {10}
   */
  connectTimeout?: number;
}

/** Opens a pool on `url` with every driver option given (see the module comment). */
export function connect(url: TeamUrl, options: ConnectOptions = {}): Sql {
  const { max = 1, connectTimeout = 10 } = options;
  return postgres({
    host: url.hostname,
    port: url.port,
    user: url.user,
    pass: url.password,
    database: url.database,
    ssl: url.sslmode === undefined || url.sslmode === "disable" ? false : url.sslmode,
    sslnegotiation: null,
    max,
    idle_timeout: 0,
    connect_timeout: connectTimeout,
    max_lifetime: null,
    max_pipeline: 100,
    backoff: (retries: number) => Math.min(2 ** retries / 10, 5),
    keep_alive: 60,
    prepare: false,
    debug: false,
    fetch_types: false,
    publications: "alltables",
    target_session_attrs: undefined,
    connection: { application_name: "cyberos-memory" },
    onnotice: () => {},
  } as postgres.Options<Record<string, never>>);
}
