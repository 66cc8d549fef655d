/**
 * The spec conformance table stays true to the acceptance tests: one test per
 * criterion and MUST, one row of `docs/conformance.md` each, and a row says
 * "departed" exactly where its test's name ends `(departure)`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { ROOT } from "./_daemon.ts";

/** Every criterion of the spec: 24 acceptance criteria and eight MUSTs. */
const CRITERIA = [
  ...Array.from({ length: 24 }, (_, i) => `AC ${i + 1}`),
  ...Array.from({ length: 8 }, (_, i) => `MUST ${i + 1}`),
];

/** The acceptance tests' names, from the files that hold them. */
async function acceptanceTestNames(): Promise<string[]> {
  const names: string[] = [];
  for (const entry of Deno.readDirSync(`${ROOT}/tests`)) {
    if (!/^acceptance.*_test\.ts$/.test(entry.name)) continue;
    const source = await Deno.readTextFile(`${ROOT}/tests/${entry.name}`);
    for (const [, , name] of source.matchAll(/(["'`])((?:AC|MUST) \d+: .*?)\1/g)) {
      names.push(name!);
    }
  }
  return names;
}

Deno.test("each of the spec's criteria is exactly one acceptance test", async () => {
  const names = await acceptanceTestNames();
  for (const criterion of CRITERIA) {
    const tests = names.filter((name) => name.startsWith(`${criterion}: `));
    assert.equal(tests.length, 1, `${criterion}: ${tests.length} tests`);
  }
  assert.equal(names.length, CRITERIA.length, names.join("\n"));
});

Deno.test("docs/conformance.md has a row per criterion, departed exactly where the test says so", async () => {
  const doc = await Deno.readTextFile(`${ROOT}/docs/conformance.md`);
  const names = await acceptanceTestNames();
  for (const criterion of CRITERIA) {
    const row = doc.split("\n").find((line) => new RegExp(`^\\| ${criterion} +\\|`).test(line));
    assert.ok(row, `docs/conformance.md has no row for ${criterion}`);
    const status = row.split("|").at(-2)!.trim();
    const test = names.find((name) => name.startsWith(`${criterion}: `))!;
    assert.equal(
      status.startsWith("departed"),
      test.endsWith(" (departure)"),
      `${criterion}: ${test}`,
    );
  }
  const readme = await Deno.readTextFile(`${ROOT}/README.md`);
  assert.ok(readme.includes("](docs/conformance.md)"), "README.md links to docs/conformance.md");
});
