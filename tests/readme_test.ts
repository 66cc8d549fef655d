/**
 * The README is what a new user meets first: it stays short, opens with the
 * two set-up commands, links only to files that exist, and its docs name
 * every row kind, field and hook outcome the code has.
 *
 * @module
 */

import assert from "node:assert/strict";
import { ROW_KINDS } from "../lib/kinds.ts";
import { OUTCOMES, WARNINGS } from "../lib/outcomes.ts";
import { lifecycleSpecOfKind } from "../lib/lifecycle.ts";
import { PAYLOAD_FIELDS } from "../lib/rows.ts";
import { ROOT } from "./_daemon.ts";

const README = await Deno.readTextFile(`${ROOT}/README.md`);
const ROWS_DOC = await Deno.readTextFile(`${ROOT}/docs/rows.md`);

Deno.test("README.md has at most 250 lines", () => {
  const lines = README.split("\n").length - (README.endsWith("\n") ? 1 : 0);
  assert.ok(lines <= 250, `README.md has ${lines} lines`);
});

Deno.test("README.md's first two command lines are the two set-up commands", () => {
  const commands = README.split("\n").filter((line) => /^\s*(npx|deno|\$) /.test(line));
  assert.deepEqual(commands.slice(0, 2), [
    "npx --yes deno@2.9.6 task start",
    "npx --yes deno@2.9.6 task test",
  ]);
  const firstBlock = /```sh\n([^]*?)```/.exec(README)?.[1];
  assert.equal(firstBlock, "npx --yes deno@2.9.6 task start\nnpx --yes deno@2.9.6 task test\n");
});

Deno.test("README.md and docs link only to files of the repository", async () => {
  for (const doc of ["README.md", "docs/rows.md", "bench/README.md"]) {
    const text = await Deno.readTextFile(`${ROOT}/${doc}`);
    const folder = doc.includes("/") ? doc.slice(0, doc.lastIndexOf("/") + 1) : "";
    for (const [, target] of text.matchAll(/\]\(([^)#]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      assert.ok(Deno.statSync(`${ROOT}/${folder}${target}`).isFile, `${doc} links to ${target}`);
    }
  }
});

Deno.test("README.md's troubleshooting names every WARN word the hook can print", () => {
  for (const word of [...OUTCOMES.filter((outcome) => outcome !== "ok"), ...WARNINGS]) {
    assert.ok(README.includes(`| \`${word}\``), `README.md does not explain ${word}`);
  }
});

/** The fields every lifecycle kind shares, documented once before their sections. */
const LIFECYCLE_SHARED = ROWS_DOC.slice(
  ROWS_DOC.indexOf("## Lifecycle and security events"),
  ROWS_DOC.indexOf("## `memory.claude_session_started`"),
);

Deno.test("docs/rows.md names every row kind and every field of each kind", () => {
  for (const kind of Object.values(ROW_KINDS)) {
    assert.ok(README.includes(`\`${kind}\``), `README.md does not name ${kind}`);
    const start = ROWS_DOC.indexOf(`## \`${kind}\``);
    assert.ok(start >= 0, `docs/rows.md has no section for ${kind}`);
    const end = ROWS_DOC.indexOf("\n## ", start + 1);
    const section = ROWS_DOC.slice(start, end < 0 ? undefined : end);
    const common = ["session_id", "trace_id", "captured_at_ns"];
    const shared = lifecycleSpecOfKind(kind) ? LIFECYCLE_SHARED : "";
    for (const field of PAYLOAD_FIELDS[kind]) {
      const documented = common.includes(field)
        ? ROWS_DOC.includes(`| \`${field}\``)
        : section.includes(`| \`${field}\``) || shared.includes(`| \`${field}\``);
      assert.ok(documented, `docs/rows.md does not describe ${kind}.${field}`);
    }
  }
});
