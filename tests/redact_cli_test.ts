/**
 * `redact/main.ts` as a process, run with no permissions at all: text mode,
 * the scorer's JSONL protocol, `--explain`, bad input; the dev corpora
 * through the command (100 % recall, no firm false positive); the spec's
 * ten examples and the e-mail allowlist default.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fileUrlToPath } from "../lib/file_url.ts";
import { formatScore, loadCorpus, runJsonlCommand, scoreOutputs } from "./redaction/score.ts";

const ROOT = fileUrlToPath(new URL("..", import.meta.url));
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

Deno.test("redact/main.ts --allow-email-domain (repeatable, install's spelling) keeps the operator's addresses", async () => {
  const result = await runRedact(
    ["--allow-email-domain", "acme.vn", "--allow-email-domain=corp.example"],
    "ops@acme.vn lan@mailbox.vn it@corp.example",
  );
  assert.equal(result.stdout, "ops@acme.vn <EMAIL> it@corp.example");
  const old = await runRedact(["--allow-email-domains", "acme.vn"], "ops@acme.vn");
  assert.equal(old.code, 2, "the old spelling is refused");
  const list = await runRedact(["--allow-email-domain", "acme.vn,b.org"], "ops@acme.vn");
  assert.equal(list.code, 2, "a comma list is refused, not taken as one odd domain");
  assert.match(list.stderr, /^cyberos-memory redact: --allow-email-domain needs one domain/);
});

Deno.test("redact/main.ts --jsonl exits 1 and names a line that is not {id,text}", async () => {
  const result = await runRedact(["--jsonl"], '{"id": 1}\n{"id":"x","text":"ok"}\n');
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '{"id":"x","text":"ok"}\n');
  assert.equal(
    result.stderr,
    'cyberos-memory redact: line 1: expected {"id","text"} strings\n',
  );
});

Deno.test("redact/main.ts rejects an unknown argument with exit 2", async () => {
  const result = await runRedact(["--nope"], "");
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    'cyberos-memory redact: unknown option "--nope"; see deno task redact --help\n',
  );
});

Deno.test("redact/main.ts --jsonl scores 100 % recall and no firm false positive on the dev corpora", async () => {
  for (const name of ["dev.jsonl", "dev_sessions.jsonl"]) {
    const cases = await loadCorpus(new URL(`redaction/corpus/${name}`, import.meta.url));
    const outputs = await runJsonlCommand(cases, [
      Deno.execPath(),
      "run",
      "-q",
      "--no-prompt",
      `${ROOT}redact/main.ts`,
      "--jsonl",
    ]);
    const score = scoreOutputs(cases, outputs);
    assert.equal(outputs.size, cases.length, name);
    assert.equal(score.recall, 1, formatScore(name, score, 10));
    assert.equal(score.firmChanged, 0, formatScore(name, score, 10));
  }
});

/** The spec's ten patterns, one example each, and the placeholder the spec names for it. */
const SPEC_EXAMPLES: Array<[string, string]> = [
  ["AKIAQ7RTX2M4ZK9WPL3N", "<AWS_KEY>"],
  [
    "aws_secret_access_key=Zk3+Qm9vTr2LwX8pYb4N/cH6sJd1FgA7eVu5RoKi",
    "aws_secret_access_key=<AWS_SECRET>",
  ],
  ["Authorization: Bearer q8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2", "Authorization: Bearer <REDACTED>"],
  ["ghp_Zq8Lm3Vx7Rt2Kw9Pn4Yb6Hc1Jd5Fs0Ga2Ue4", "<GH_PAT>"],
  ["sk-proj-Qm3Lz8Vx2Rt7Kw9Pn4Yb6Hc1T3BlbkFJd5Fs0Ga2Ue4Io7Qw3Er5Ty9Ui1", "<OPENAI_KEY>"],
  [
    "sk-ant-api03-Hs5Jd1Fg0Au4Ei6Oc9Qw2Zx7Cv3Bn8Ml1Kj5Hg9Fd2Sa6Pq0Wo4Ie8Ur3-XyZwAA",
    "<ANTHROPIC_KEY>",
  ],
  [
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTQyIn0.Tq7Vz3Lm9Rx2Kp8Wn4Yb5Hc1Jd6Fs0Ga2Ue7Io",
    "<JWT>",
  ],
  ["CCCD 001204012345", "CCCD <VN_CCCD>"],
  ["user@example.com", "<EMAIL>"],
  ["+84 912 345 678", "<PHONE>"],
];

Deno.test("redact/main.ts turns each of the spec's examples into exactly the spec's placeholder", async () => {
  const input = SPEC_EXAMPLES.map(([text]) => text).join("\n");
  const result = await runRedact([], input);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(result.stdout.split("\n"), SPEC_EXAMPLES.map(([, out]) => out));
});

Deno.test("redact/main.ts keeps the default allowed domain and --allow-email-domain replaces it", async () => {
  const text = "anh@cyberskill.world ops@acme.vn";
  assert.equal((await runRedact([], text)).stdout, "anh@cyberskill.world <EMAIL>");
  const replaced = await runRedact(["--allow-email-domain", "acme.vn"], text);
  assert.equal(replaced.stdout, "<EMAIL> ops@acme.vn");
});
