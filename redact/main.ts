/**
 * `deno task redact`: the redactor as a filter, with no permissions at all.
 *
 * - default: text on stdin, redacted text on stdout;
 * - `--jsonl`: one `{"id","text"}` object a line in, the same out (the
 *   scorer's protocol);
 * - `--explain`: also list every match (rule id, offsets) and every rejected
 *   candidate with its reason on stderr, for reviewers;
 * - `--allow-email-domains a.com,b.org`: keep addresses at these domains.
 *
 * Exit codes: 0 done, 1 some JSONL lines were not `{"id","text"}`, 2 usage.
 *
 * @module
 */

import { explainText, type RedactOptions, redactText } from "../lib/redact/mod.ts";

const USAGE = "usage: redact [--jsonl] [--explain] [--allow-email-domains a.com,b.org] < input";

interface Args {
  jsonl: boolean;
  explain: boolean;
  options: RedactOptions;
}

function parseArgs(argv: readonly string[]): Args | string {
  const args: Args = { jsonl: false, explain: false, options: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--jsonl") args.jsonl = true;
    else if (arg === "--explain") args.explain = true;
    else if (arg === "--allow-email-domains" && argv[i + 1] !== undefined) {
      args.options = { allowEmailDomains: argv[++i]!.split(",").filter((d) => d !== "") };
    } else if (arg?.startsWith("--allow-email-domains=")) {
      const list = arg.slice("--allow-email-domains=".length);
      args.options = { allowEmailDomains: list.split(",").filter((d) => d !== "") };
    } else return `Cannot parse arguments: unknown argument ${arg}`;
  }
  return args;
}

function explainTo(lines: string[], label: string, text: string, options: RedactOptions): void {
  const { matches, rejected } = explainText(text, options);
  for (const m of matches) {
    lines.push(`${label}match ${m.ruleId} ${m.start}-${m.end} ${m.placeholder}`);
  }
  for (const r of rejected) {
    lines.push(`${label}rejected ${r.ruleId} ${r.start}-${r.end}: ${r.reason}`);
  }
}

async function main(): Promise<number> {
  const args = parseArgs(Deno.args);
  if (typeof args === "string") {
    console.error(`${args}\n${USAGE}`);
    return 2;
  }
  const input = await new Response(Deno.stdin.readable).text();
  const encoder = new TextEncoder();
  const notes: string[] = [];
  let bad = 0;
  let out: string;
  if (!args.jsonl) {
    out = redactText(input, args.options).text;
    if (args.explain) explainTo(notes, "", input, args.options);
  } else {
    const lines: string[] = [];
    for (const [n, line] of input.split("\n").entries()) {
      if (line.trim() === "") continue;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        record = undefined;
      }
      const { id, text } = (record ?? {}) as { id?: unknown; text?: unknown };
      if (typeof id !== "string" || typeof text !== "string") {
        notes.push(`line ${n + 1}: Cannot redact: expected {"id","text"} strings`);
        bad++;
        continue;
      }
      lines.push(JSON.stringify({ id, text: redactText(text, args.options).text }));
      if (args.explain) explainTo(notes, `${id} `, text, args.options);
    }
    out = lines.length > 0 ? lines.join("\n") + "\n" : "";
  }
  await writeAll(Deno.stdout, encoder.encode(out));
  if (notes.length > 0) await writeAll(Deno.stderr, encoder.encode(notes.join("\n") + "\n"));
  return bad > 0 ? 1 : 0;
}

async function writeAll(
  sink: { write(p: Uint8Array): Promise<number> },
  bytes: Uint8Array,
): Promise<void> {
  let at = 0;
  while (at < bytes.length) at += await sink.write(bytes.subarray(at));
}

Deno.exit(await main());
