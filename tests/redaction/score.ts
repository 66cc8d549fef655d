/**
 * Scores a redactor on a labelled corpus: one JSON object a line,
 * `{"id", "text", "secrets": [{"type", "value"}], "kind"}`. A case with
 * secrets is a positive: every listed value must be gone from the output. A
 * case without is a negative: the output must equal the text byte for byte.
 * Negatives whose kind starts `negp:` are policy negatives (a stricter
 * redactor may change them) and are counted apart from the firm ones.
 *
 * As a command it scores `redactText` in-process, or a redactor command that
 * speaks `redact --jsonl` (after `--`):
 *
 * ```
 * deno run --allow-read tests/redaction/score.ts tests/redaction/corpus/dev.jsonl [--show N]
 * deno run --allow-read --allow-run tests/redaction/score.ts CORPUS -- deno task redact --jsonl
 * ```
 *
 * @module
 */

import { redactText } from "../../lib/redact/mod.ts";

/** One labelled secret: its type and the exact substring that must go. */
export interface LabelledSecret {
  /** The secret's type (`aws_access_key`, `password`, `email`, …). */
  type: string;
  /** The exact text that must not survive. */
  value: string;
}

/** One corpus case. */
export interface CorpusCase {
  /** Unique id. */
  id: string;
  /** The text to redact. */
  text: string;
  /** Every secret in it; empty for a negative. */
  secrets: LabelledSecret[];
  /** What kind of text this is; `neg:`/`negp:` for firm and policy negatives. */
  kind?: string;
}

/** One thing that went wrong on one case. */
export interface Failure {
  /** The case id. */
  id: string;
  /** `leak` (a secret survived), `tail` (its end did, see {@linkcode tailLeft}) or `fp` (a negative changed). */
  what: "leak" | "tail" | "fp";
  /** The leaked secret's type, or the negative's kind. */
  detail: string;
  /** The redactor's output. */
  output: string;
}

/** What {@linkcode scoreOutputs} measured. */
export interface Score {
  /** Labelled secrets in the positives. */
  secrets: number;
  /** Of them, the ones gone from the output. */
  removed: number;
  /** `removed / secrets`. */
  recall: number;
  /** Of the removed, the ones whose end is still in the output ({@linkcode tailLeft}). */
  tailsLeft: number;
  /** Firm negatives, and how many changed. */
  firmNegatives: number;
  /** Firm negatives that came back changed. */
  firmChanged: number;
  /** `firmChanged / firmNegatives`. */
  firmFpRate: number;
  /** Policy negatives. */
  policyNegatives: number;
  /** Policy negatives that came back changed. */
  policyChanged: number;
  /** Share of the positives' other words (4+ letters or digits) still in the output. */
  contextKept: number;
  /** Recall per secret type: `[removed, total]`. */
  perType: Record<string, [number, number]>;
  /** Every leak and false positive. */
  failures: Failure[];
}

/**
 * The development corpora of `tests/redaction/corpus/`: what the rules are
 * tuned on, asserted at 100 % recall, no tail left and no firm false positive.
 */
export const DEV_CORPORA: readonly string[] = [
  "dev.jsonl",
  "dev_sessions.jsonl",
  "dev_providers.jsonl",
  "dev_scanner_shapes.jsonl",
];

/** Parses a corpus file's text, naming the line of a bad case. */
export function parseCorpus(text: string, name: string): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const value = JSON.parse(line) as CorpusCase;
    if (typeof value.id !== "string" || typeof value.text !== "string") {
      throw new Error(`${name} line ${index + 1}: a case needs string id and text`);
    }
    if (!Array.isArray(value.secrets)) {
      throw new Error(`${name} line ${index + 1}: a case needs a secrets array`);
    }
    for (const secret of value.secrets) {
      if (!value.text.includes(secret.value)) {
        throw new Error(`${name} line ${index + 1}: secret ${secret.type} is not in the text`);
      }
    }
    cases.push(value);
  }
  return cases;
}

/** Reads and parses one corpus file. */
export async function loadCorpus(path: string | URL): Promise<CorpusCase[]> {
  return parseCorpus(await Deno.readTextFile(path), String(path));
}

function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}]{4,}/gu) ?? [];
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

/**
 * Whether the output still holds the end of a secret of 12 or more
 * characters (its last third, 6 at least) more often than the input held it
 * outside the secret: a redaction that stopped short, at a `#` or a `:` in
 * the value. The whole value is gone, so recall counts it; the tail is a
 * leak all the same.
 */
export function tailLeft(input: string, output: string, secret: string): boolean {
  if (secret.length < 12) return false;
  const tail = secret.slice(-Math.max(6, Math.ceil(secret.length / 3)));
  const elsewhere = occurrences(input, tail) - occurrences(input, secret);
  return occurrences(output, tail) > elsewhere;
}

/** Scores the outputs (by case id) of a redactor on `cases`. */
export function scoreOutputs(
  cases: readonly CorpusCase[],
  outputs: ReadonlyMap<string, string>,
): Score {
  const score: Score = {
    secrets: 0,
    removed: 0,
    recall: 1,
    tailsLeft: 0,
    firmNegatives: 0,
    firmChanged: 0,
    firmFpRate: 0,
    policyNegatives: 0,
    policyChanged: 0,
    contextKept: 1,
    perType: {},
    failures: [],
  };
  let positives = 0;
  let keptSum = 0;
  for (const c of cases) {
    const output = outputs.get(c.id) ?? "";
    if (c.secrets.length === 0) {
      const policy = (c.kind ?? "").startsWith("negp:");
      const changed = output !== c.text;
      if (policy) {
        score.policyNegatives++;
        if (changed) score.policyChanged++;
      } else {
        score.firmNegatives++;
        if (changed) score.firmChanged++;
      }
      if (changed) score.failures.push({ id: c.id, what: "fp", detail: c.kind ?? "", output });
      continue;
    }
    positives++;
    for (const secret of c.secrets) {
      const tally = score.perType[secret.type] ??= [0, 0];
      tally[1]++;
      score.secrets++;
      if (output.includes(secret.value)) {
        score.failures.push({ id: c.id, what: "leak", detail: secret.type, output });
      } else {
        tally[0]++;
        score.removed++;
        if (tailLeft(c.text, output, secret.value)) {
          score.tailsLeft++;
          score.failures.push({ id: c.id, what: "tail", detail: secret.type, output });
        }
      }
    }
    let rest = c.text;
    for (const secret of c.secrets) rest = rest.split(secret.value).join(" ");
    const words = wordsOf(rest);
    keptSum += words.length === 0
      ? 1
      : words.filter((word) => output.includes(word)).length / words.length;
  }
  score.recall = score.secrets === 0 ? 1 : score.removed / score.secrets;
  score.firmFpRate = score.firmNegatives === 0 ? 0 : score.firmChanged / score.firmNegatives;
  score.contextKept = positives === 0 ? 1 : keptSum / positives;
  return score;
}

/** Scores `redactText` (with its default options) in-process. */
export function scoreRedactText(cases: readonly CorpusCase[]): Score {
  return scoreOutputs(cases, new Map(cases.map((c) => [c.id, redactText(c.text).text])));
}

/** Runs a `redact --jsonl` command once over every case and reads its outputs by id. */
export async function runJsonlCommand(
  cases: readonly CorpusCase[],
  command: readonly string[],
): Promise<Map<string, string>> {
  const [program, ...args] = command;
  if (program === undefined) throw new Error("score: no command given");
  const child = new Deno.Command(program, {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const input = cases.map((c) => JSON.stringify({ id: c.id, text: c.text })).join("\n") + "\n";
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(input));
  await writer.close();
  const { stdout } = await child.output();
  const outputs = new Map<string, string>();
  for (const line of new TextDecoder().decode(stdout).split("\n")) {
    if (line.trim() === "") continue;
    const { id, text } = JSON.parse(line) as { id: string; text: string };
    outputs.set(id, text);
  }
  return outputs;
}

/** One screen of text about a score. */
export function formatScore(name: string, score: Score, show = 0): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const lines = [
    `${name}: recall ${pct(score.recall)} (${score.removed}/${score.secrets}), ` +
    `tails left ${score.tailsLeft}, ` +
    `firm FP ${pct(score.firmFpRate)} (${score.firmChanged}/${score.firmNegatives}), ` +
    `policy FP ${score.policyChanged}/${score.policyNegatives}, ` +
    `context kept ${pct(score.contextKept)}`,
  ];
  const missed = Object.entries(score.perType).filter(([, [r, t]]) => r < t);
  if (missed.length > 0) {
    lines.push(`  missed by type: ${missed.map(([t, [r, n]]) => `${t} ${r}/${n}`).join(", ")}`);
  }
  for (const f of score.failures.slice(0, show)) {
    lines.push(`  ${f.id} ${f.what} ${f.detail}: ${JSON.stringify(f.output.slice(0, 300))}`);
  }
  return lines.join("\n");
}

if (import.meta.main) {
  const separator = Deno.args.indexOf("--");
  const own = separator < 0 ? Deno.args : Deno.args.slice(0, separator);
  const command = separator < 0 ? [] : Deno.args.slice(separator + 1);
  const showAt = own.indexOf("--show");
  const show = showAt < 0 ? 0 : Number(own[showAt + 1]);
  const files = own.filter((arg, i) => arg !== "--show" && own[i - 1] !== "--show");
  if (files.length === 0 || own.includes("--help") || own.includes("-h")) {
    console.log("usage: score.ts CORPUS.jsonl... [--show N] [-- redact command --jsonl]");
    Deno.exit(files.length === 0 && !own.includes("--help") && !own.includes("-h") ? 2 : 0);
  }
  for (const file of files) {
    const cases = await loadCorpus(file);
    const score = command.length === 0
      ? scoreRedactText(cases)
      : scoreOutputs(cases, await runJsonlCommand(cases, command));
    console.log(formatScore(file, score, show));
  }
}
