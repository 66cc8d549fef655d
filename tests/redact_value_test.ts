/**
 * `redactValue` and `redactLines` (lib/redact/mod.ts): the keys and short
 * one-line strings of a tool's input share one pass, and come out as each
 * would alone, counted once per place they stand.
 *
 * @module
 */

import assert from "node:assert/strict";
import { redactLines, redactText, redactValue, SECRET_KEY_PLACEHOLDER } from "../lib/redact/mod.ts";

const GITHUB = "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5";
const AWS = "AKIAZ7QXJ3KD5MNB2PLW";

Deno.test({
  name:
    "redactValue: short strings come out as alone, each place counted, a long or multi-line one too",
  permissions: "none",
  fn() {
    const command = `git push https://x-access-token:${GITHUB}@github.com/acme/api.git`;
    const script = `export AWS_ACCESS_KEY_ID=${AWS}\naws s3 ls`;
    const long = `${"a quiet line of text ".repeat(60)}${AWS}`;
    const input = {
      command,
      description: "Push the branch",
      again: [command],
      script,
      long,
    };
    const result = redactValue(input);
    const value = result.value as Record<string, unknown>;
    assert.equal(value.command, redactText(command).text);
    assert.deepEqual(value.again, [redactText(command).text]);
    assert.equal(value.description, "Push the branch");
    assert.equal(value.script, redactText(script).text);
    assert.equal(value.long, redactText(long).text);
    assert.ok(!JSON.stringify(value).includes(GITHUB) && !JSON.stringify(value).includes(AWS));
    const alone = [command, command, script, long].map((t) => redactText(t));
    assert.equal(result.matchCount, alone.reduce((sum, r) => sum + r.matchCount, 0));
  },
});

Deno.test({
  name:
    "redactValue: a short string under a secret's key is replaced whole and counted once, as that",
  permissions: "none",
  fn() {
    const result = redactValue({
      password: `pw ${AWS}`,
      env: { name: "DB_PASSWORD", value: "x9" },
    });
    assert.deepEqual(result.value, {
      password: SECRET_KEY_PLACEHOLDER,
      env: { name: "DB_PASSWORD", value: SECRET_KEY_PLACEHOLDER },
    });
    assert.deepEqual(result.counts, { secret_key_name: 2 });
  },
});

Deno.test({
  name:
    "redactLines: each text as redactText leaves it, in one pass or, with a line break, one each",
  permissions: "none",
  fn() {
    const texts = [`key ${AWS}`, "plain", `token=${GITHUB}`, ""];
    const joined = redactLines(texts);
    assert.deepEqual(joined.texts, texts.map((t) => redactText(t).text));
    assert.equal(joined.matchCount, 2);
    const broken = redactLines([...texts, "two\nlines"]);
    assert.deepEqual(broken.texts, [...texts, "two\nlines"].map((t) => redactText(t).text));
  },
});

Deno.test({
  name:
    "redactValue: a secret found in one string is gone where a key holds it too, glued to a word",
  permissions: "none",
  fn() {
    // Alone, `note_ghp_…` is no token (a word character before `ghp_`); beside the
    // command that holds it, it is that token said again.
    assert.equal(redactText(`note_${GITHUB}`).matchCount, 0);
    const command = `git push https://x-access-token:${GITHUB}@github.com/acme/api.git`;
    const result = redactValue({ command, [`note_${GITHUB}`]: 1 });
    assert.ok(!JSON.stringify(result.value).includes(GITHUB));
    assert.deepEqual(result.counts, { github_pat: 2 });
  },
});
