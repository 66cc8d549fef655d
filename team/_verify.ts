/**
 * `team verify`: re-verifies the team store's copy of every enrolled machine
 * with nothing but what the team store holds and the key each machine was
 * enrolled with:
 *
 * - the chain: `seq` runs 1, 2, 3… without a gap, each `prev_hash` links, each
 *   `hash` recomputes, the columns agree with the payload (`lib/chain.ts`);
 * - each checkpoint: its signature verifies with the enrolled key, it names
 *   the machine's origin and the tree size it is filed under, and its root is
 *   the RFC 6962 root of the first `size` rows' hashes;
 * - consistency: every checkpoint's root is recomputed from the one sequence
 *   of rows, so successive checkpoints are proved consistent (the older tree
 *   a prefix of the newer) by the rows themselves, and a checkpoint larger
 *   than the rows shipped is a failure.
 *
 * @module
 */

import { type ChainColumns, chainProblem, GENESIS_HASH } from "../lib/chain.ts";
import { openCheckpoint } from "../lib/checkpoint.ts";
import { bytesToHex, equalBytes, MerkleFrontier, rowLeafHash } from "../lib/merkle.ts";
import { parseVerifierKey, type VerifierKey } from "../lib/note.ts";
import type { Sql } from "./_connect.ts";

/** What verifying one machine found. */
export interface MachineReport {
  /** The machine's origin. */
  origin: string;
  /** Whether everything held. */
  ok: boolean;
  /** Rows checked (up to the failure). */
  rows: number;
  /** Checkpoints checked (up to the failure). */
  checkpoints: number;
  /** What failed, naming the `seq` or tree size. */
  failure?: string;
}

/** A row as the team store returns it: `seq` is a bigint, so it comes as text. */
type CentralRow = Omit<ChainColumns, "seq"> & { seq: string };

class MachineFailure extends Error {}

/** Verifies every enrolled machine, in origin order. */
export async function verifyTeam(
  sql: Sql,
  options: { onReport?: (report: MachineReport) => void } = {},
): Promise<MachineReport[]> {
  const machines = await sql<{ origin: string; vkey: string }[]>`
    SELECT origin, vkey FROM cyberos_memory.machines ORDER BY origin`;
  const reports: MachineReport[] = [];
  for (const machine of machines) {
    const report = await verifyMachine(sql, machine);
    options.onReport?.(report);
    reports.push(report);
  }
  return reports;
}

async function verifyMachine(
  sql: Sql,
  machine: { origin: string; vkey: string },
): Promise<MachineReport> {
  const { origin } = machine;
  const progress = { rows: 0, checkpoints: 0 };
  try {
    let key: VerifierKey;
    try {
      key = parseVerifierKey(machine.vkey);
    } catch (error) {
      throw new MachineFailure(`enrolled key: ${(error as Error).message}`);
    }
    const checkpoints = await openCheckpoints(sql, { origin, key });
    const frontier = new MerkleFrontier();
    let next = 0;
    const checkDue = () => {
      while (next < checkpoints.length && checkpoints[next]!.size === frontier.size) {
        const checkpoint = checkpoints[next]!;
        if (!equalBytes(checkpoint.root, frontier.root())) {
          throw new MachineFailure(
            `checkpoint of tree size ${checkpoint.size}: root ${
              bytesToHex(checkpoint.root)
            } is not the root of the first ${checkpoint.size} rows (${
              bytesToHex(frontier.root())
            })`,
          );
        }
        progress.checkpoints++;
        next++;
      }
    };
    checkDue();
    let prevHash = GENESIS_HASH;
    const cursor = sql<CentralRow[]>`
      SELECT seq::text AS seq, kind, session_id, cwd, captured_at_ns::text AS captured,
             payload, prev_hash, hash
      FROM cyberos_memory.rows WHERE origin = ${origin} ORDER BY rows.seq`.cursor(2000);
    for await (const rows of cursor) {
      for (const row of rows) {
        const seq = progress.rows + 1;
        checkRow(row, { seq, prevHash });
        prevHash = row.hash;
        frontier.appendLeafHash(rowLeafHash(row.hash));
        progress.rows = seq;
        checkDue();
      }
    }
    if (next < checkpoints.length) {
      throw new MachineFailure(
        `checkpoint of tree size ${
          checkpoints[next]!.size
        } covers more rows than the ${progress.rows} shipped`,
      );
    }
    return { origin, ok: true, ...progress };
  } catch (error) {
    if (!(error instanceof MachineFailure)) throw error;
    return { origin, ok: false, ...progress, failure: error.message };
  }
}

async function openCheckpoints(
  sql: Sql,
  options: { origin: string; key: VerifierKey },
): Promise<{ size: number; root: Uint8Array }[]> {
  const stored = await sql<{ tree_size: string; note: string }[]>`
    SELECT tree_size::text AS tree_size, note FROM cyberos_memory.checkpoints
    WHERE origin = ${options.origin} ORDER BY checkpoints.tree_size`;
  const opened = [];
  for (const { tree_size, note } of stored) {
    let checkpoint;
    try {
      checkpoint = await openCheckpoint(note, options.key);
    } catch (error) {
      throw new MachineFailure(`checkpoint of tree size ${tree_size}: ${(error as Error).message}`);
    }
    if (String(checkpoint.size) !== tree_size) {
      throw new MachineFailure(
        `checkpoint filed under tree size ${tree_size} says ${checkpoint.size}`,
      );
    }
    opened.push({ size: checkpoint.size, root: checkpoint.root });
  }
  return opened;
}

/** The row-level checks of `Store.verify`, on the team store's copy. */
function checkRow(row: CentralRow, expected: { seq: number; prevHash: string }): void {
  const { seq } = expected;
  if (Number(row.seq) !== seq) {
    throw new MachineFailure(`seq ${seq}: row is missing (next is seq ${row.seq})`);
  }
  const problem = chainProblem({ ...row, seq }, expected);
  if (problem !== undefined) throw new MachineFailure(`seq ${seq}: ${problem}`);
}
