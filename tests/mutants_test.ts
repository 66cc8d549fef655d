/**
 * Keeps `tests/mutants/mutants.ts` in step with the code: every mutant's
 * search text occurs exactly once in its file (so it still plants a bug),
 * its replacement differs, its test files exist, and the seven survivors of
 * issue 25 are in the CI subset.
 *
 * @module
 */

import assert from "node:assert/strict";
import { MUTANTS } from "./mutants/mutants.ts";
import { ROOT } from "./_daemon.ts";

const ISSUE_25_SURVIVORS = [
  "hook-raw-on-redaction-failure",
  "draft-tool-input-unredacted",
  "ingest-delete-before-commit",
  "verify-ignores-seq-gap",
  "verify-no-column-check",
  "frame-limit-256-mib",
  "frame-limit-decoder-gte",
];

Deno.test("every mutant applies exactly once and names test files that exist", async () => {
  assert.equal(new Set(MUTANTS.map((m) => m.id)).size, MUTANTS.length, "ids are unique");
  const stale: string[] = [];
  for (const mutant of MUTANTS) {
    const text = await Deno.readTextFile(`${ROOT}/${mutant.file}`);
    const found = text.split(mutant.search).length - 1;
    if (found !== 1) stale.push(`${mutant.id}: search text found ${found} times in ${mutant.file}`);
    assert.notEqual(mutant.search, mutant.replace, mutant.id);
    assert.ok(mutant.tests.length > 0, mutant.id);
    for (const test of mutant.tests) assert.ok(Deno.statSync(`${ROOT}/${test}`).isFile, test);
  }
  assert.deepEqual(stale, [], "fix these mutants to plant their bug in the code as it is now");
});

Deno.test("the seven survivors of issue 25 are mutants in the CI subset", () => {
  for (const id of ISSUE_25_SURVIVORS) {
    assert.equal(MUTANTS.find((m) => m.id === id)?.quick, true, id);
  }
});
