/**
 * Test and benchmark helpers for the team store: a machine's store filled
 * the way the daemon fills it (the store's own `append`, the daemon's origin
 * and key files, checkpoints signed over the Merkle tree of the rows), and
 * `team/main.ts` run as `deno task team` runs it.
 *
 * @module
 */

import { ROW_KINDS } from "../lib/kinds.ts";
import { openStore } from "../lib/store.ts";
import { MerkleFrontier, rowLeafHash } from "../lib/merkle.ts";
import { NoteSigner } from "../lib/note.ts";
import { signCheckpoint } from "../lib/checkpoint.ts";
import { teamRunArgs } from "../team/start.ts";
import { netTarget, parseTeamUrl } from "../team/_connect.ts";
import { ROOT } from "./_daemon.ts";

/** A machine: its store, origin and signer. */
export interface TestMachine {
  /** The store's path. */
  db: string;
  /** The log's origin. */
  origin: string;
  /** The verifier key (`deno task key`). */
  vkey: string;
  /** Signs this machine's checkpoints. */
  signer: NoteSigner;
}

/** Makes an empty store for a machine named `name` with a fresh key. */
export async function newMachine(dir: string, name: string): Promise<TestMachine> {
  const db = `${dir}/${name}/capture.db`;
  const origin = `cyberos-memory/${name}`;
  const signer = await NoteSigner.fromPrivateKey(origin, await NoteSigner.generatePrivateKey());
  const store = openStore(db);
  try {
    store.setMeta("origin", origin);
  } finally {
    store.close();
  }
  return { db, origin, vkey: signer.verifierKey, signer };
}

/** A tool-use payload numbered `index` (every seventh fails). */
export function toolPayload(index: number): Record<string, unknown> {
  const failed = index % 7 === 3;
  return {
    session_id: `5b0c7d1e-2f3a-4b5c-8d6e-${
      (Math.floor(index / 50)).toString(16).padStart(12, "0")
    }`,
    tool_name: index % 2 === 0 ? "Bash" : "Read",
    tool_args_hash: index.toString(16).padStart(64, "0"),
    outcome: failed ? "error" : "success",
    duration_ms: 100 + (index % 50),
    trace_id: "ef".repeat(16),
    captured_at_ns: 1_764_547_200_000_000_000 + index * 1_000_000_000,
    cwd: "/work/project",
    ...(failed ? { error: "Exit code 1" } : {}),
  };
}

/** Options for {@linkcode appendRows}. */
export interface AppendRowsOptions {
  /** Rows to add. */
  count: number;
  /**
   * Sign a checkpoint every this many rows and after the last one.
   *
   * @default {1000}
   */
  checkpointEvery?: number;
}

/**
 * Appends rows as the daemon does (the store's own `append`, group commits)
 * and signs checkpoints over them as the daemon does.
 */
export async function appendRows(machine: TestMachine, options: AppendRowsOptions): Promise<void> {
  const { count, checkpointEvery = 1000 } = options;
  const store = openStore(machine.db);
  try {
    const frontier = new MerkleFrontier();
    for (const hash of store.rowHashes()) frontier.appendLeafHash(rowLeafHash(hash));
    const start = store.count();
    for (let done = 0; done < count;) {
      const batch = Math.min(checkpointEvery - (frontier.size % checkpointEvery), count - done);
      store.transaction(() => {
        for (let i = 0; i < batch; i++) {
          const index = start + done + i;
          const row = store.append({
            frameId: `${machine.origin}-${index}`,
            kind: ROW_KINDS.toolUse,
            payload: toolPayload(index),
          });
          frontier.appendLeafHash(rowLeafHash(row.hash));
        }
      });
      done += batch;
      const root = frontier.root();
      const note = await signCheckpoint(
        { origin: machine.origin, size: frontier.size, root, extensions: [] },
        machine.signer,
      );
      store.transaction(() =>
        store.appendCheckpoint({
          size: frontier.size,
          root: Array.from(root, (byte) => byte.toString(16).padStart(2, "0")).join(""),
          note,
          signedAtMs: Date.now(),
        })
      );
    }
  } finally {
    store.close();
  }
}

/** What a `team` run printed and how it ended. */
export interface TeamRun {
  /** Exit code. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
}

/** Options for {@linkcode runTeam}. */
export interface RunTeamOptions {
  /** The URL whose `host:port` the run may reach. */
  url?: string;
  /** The store `ship` may read. */
  db?: string;
  /** The environment (`CYBEROS_MEMORY_TEAM_URL`). */
  env?: Record<string, string>;
}

/** Starts `team/main.ts` with the flags `deno task team` gives it. */
export function spawnTeam(args: string[], options: RunTeamOptions = {}): Deno.ChildProcess {
  const net = options.url ? netTarget(parseTeamUrl(options.url)) : undefined;
  return new Deno.Command(Deno.execPath(), {
    args: teamRunArgs({ ...(net ? { net } : {}), ...(options.db ? { db: options.db } : {}) }, args),
    cwd: ROOT,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...options.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Runs `team/main.ts` to the end. */
export async function runTeam(args: string[], options: RunTeamOptions = {}): Promise<TeamRun> {
  const output = await spawnTeam(args, options).output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

/** Runs `team ship` for `machine` against `url` (the machine's enrolled URL). */
export function ship(
  machine: { db: string },
  url: string,
  extra: string[] = [],
): Promise<TeamRun> {
  return runTeam(["ship", "--db", machine.db, ...extra], {
    url,
    db: machine.db,
    env: { CYBEROS_MEMORY_TEAM_URL: url },
  });
}
