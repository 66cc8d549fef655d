/**
 * `deno task verify`: walks the hash chain of the store. Exit 0 and a count
 * when intact; exit 1 naming the first bad `seq` when not, or when there is
 * no store to verify (the command line itself is checked by `install/main.ts`).
 *
 * @module
 */

import { ChainBrokenError } from "../lib/chain.ts";
import { resolvePaths } from "../lib/paths.ts";
import { openStore } from "../lib/store.ts";

/** Runs `verify`; returns the exit code. */
export function runVerify(): number {
  let db: string;
  try {
    db = resolvePaths((name) => Deno.env.get(name)).db;
  } catch (error) {
    console.error(`cyberos-memory verify: ${(error as Error).message}`);
    return 1;
  }
  let store;
  try {
    store = openStore(db, { readOnly: true });
  } catch (error) {
    console.error(
      `cyberos-memory verify: cannot open ${db}: ${
        (error as Error).message
      }; start the daemon once or set CYBEROS_MEMORY_DB`,
    );
    return 1;
  }
  const started = performance.now();
  try {
    const rows = store.verify();
    const ms = performance.now() - started;
    console.log(`chain intact: ${rows} rows verified in ${ms.toFixed(0)} ms (${db})`);
    return 0;
  } catch (error) {
    if (error instanceof ChainBrokenError) {
      console.error(`cyberos-memory verify: ${error.message} (${db})`);
      return 1;
    }
    throw error;
  } finally {
    store.close();
  }
}
