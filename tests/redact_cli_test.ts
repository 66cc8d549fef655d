/**
 * `redact/main.ts` as a process, run with no permissions at all: text mode,
 * the scorer's JSONL protocol, `--explain`, bad input; and the scorer on the
 * dev corpus with the thresholds of issue 3.
 *
 * @module
 */

import assert from "node:assert/strict";

const ROOT = new URL("..", import.meta.url).pathname;
const SCORER = new URL("../../shared/redaction/score.ts", import.meta.url).pathname;
const CORPUS = new URL("../../shared/redaction/corpus-dev.jsonl", import.meta.url).pathname;
const AWS = "AKIAQ7RTX2M4ZK9WPL3N";

async function runRedact(
  args: string[],
  stdin: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "--no-prompt", "redact/main.ts", ...args],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const out = await child.output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test("redact/main.ts redacts stdin to stdout with no permissions", async () => {
  const result = await runRedact([], `key ${AWS}\nissue #12345\n`);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "key <AWS_KEY>\nissue #12345\n");
  assert.equal(result.stderr, "");
});

Deno.test("redact/main.ts --jsonl answers one {id,text} line per input line", async () => {
  const input = [
    JSON.stringify({ id: "a", text: `key ${AWS}` }),
    JSON.stringify({ id: "b", text: "mail lan@mailbox.vn" }),
    "",
  ].join("\n");
  const result = await runRedact(["--jsonl"], input);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(result.stdout.trim().split("\n").map((l) => JSON.parse(l)), [
    { id: "a", text: "key <AWS_KEY>" },
    { id: "b", text: "mail <EMAIL>" },
  ]);
});

Deno.test("redact/main.ts --explain lists matches and rejections on stderr", async () => {
  const result = await runRedact(["--explain"], `k ${AWS} AKIAIOSFODNN7EXAMPLE`);
  assert.equal(result.code, 0);
  assert.equal(result.stdout, "k <AWS_KEY> AKIAIOSFODNN7EXAMPLE");
  assert.equal(
    result.stderr,
    "match aws_access_key 2-22 <AWS_KEY>\n" +
      "rejected aws_access_key 23-43: template words\n",
  );
});

Deno.test("redact/main.ts --allow-email-domains keeps the operator's addresses", async () => {
  const result = await runRedact(
    ["--allow-email-domains", "acme.vn"],
    "ops@acme.vn lan@mailbox.vn",
  );
  assert.equal(result.stdout, "ops@acme.vn <EMAIL>");
});

Deno.test("redact/main.ts --jsonl exits 1 and names a line that is not {id,text}", async () => {
  const result = await runRedact(["--jsonl"], '{"id": 1}\n{"id":"x","text":"ok"}\n');
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '{"id":"x","text":"ok"}\n');
  assert.equal(result.stderr, 'line 1: Cannot redact: expected {"id","text"} strings\n');
});

Deno.test("redact/main.ts rejects an unknown argument with exit 2", async () => {
  const result = await runRedact(["--nope"], "");
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^Cannot parse arguments: unknown argument --nope\n/);
});

Deno.test("score.ts on corpus-dev.jsonl meets the issue 3 thresholds", async () => {
  const dir = await Deno.makeTempDir({ prefix: "redact_score_" });
  try {
    const json = `${dir}/score.json`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-run",
        "--allow-write",
        SCORER,
        "--corpus",
        CORPUS,
        "--json",
        json,
        "--",
        Deno.execPath(),
        "run",
        "-q",
        "--no-prompt",
        "redact/main.ts",
        "--jsonl",
      ],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const score = JSON.parse(await Deno.readTextFile(json));
    assert.equal(score.missing_outputs, 0);
    assert.equal(score.run_errors, 0);
    assert.ok(score.recall_exact >= 0.97, `exact recall ${score.recall_exact}`);
    assert.ok(score.recall_strict >= 0.95, `strict recall ${score.recall_strict}`);
    assert.ok(score.fp_rate_firm <= 0.02, `firm FP ${score.fp_rate_firm}`);
    assert.ok(score.context_kept >= 0.95, `context kept ${score.context_kept}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
