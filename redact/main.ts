/**
 * `deno task redact`: the redactor as a filter, with no permissions at all.
 *
 * - default: text on stdin, redacted text on stdout;
 * - `--jsonl`: one `{"id","text"}` object a line in, the same out (the
 *   scorer's protocol);
 * - `--explain`: also list every match (rule id, offsets) and every rejected
 *   candidate with its reason on stderr, for reviewers;
 * - `--allow-email-domain D` (repeatable, as for `install` and the hook):
 *   keep addresses at these domains.
 *
 * Exit codes: 0 done, 1 some JSONL lines were not `{"id","text"}`, 2 usage.
 *
 * @module
 */

import { explainText, type RedactOptions, redactText } from "../lib/redact/mod.ts";
import {
  allowedEmailDomains,
  type CommandLine,
  type CommandSpec,
  EXIT,
  runCommand,
} from "../lib/cli.ts";

const REDACT_SPEC: CommandSpec = {
  command: "redact",
  usage: `usage: deno task redact [--jsonl] [--explain] [--allow-email-domain D]... < input

Redacts text on stdin to stdout, with no permissions at all.

  --jsonl                 one {"id","text"} object a line in, the same out
  --explain               list every match and every rejected candidate on stderr
  --allow-email-domain D  keep e-mail addresses at domain D readable (repeat for more)

Exit codes: 0 done, 1 some JSONL lines were not {"id","text"}, 2 bad usage.`,
  options: [
    { name: "--jsonl" },
    { name: "--explain" },
    { name: "--allow-email-domain", value: "D", repeat: true },
  ],
};

interface Args {
  jsonl: boolean;
  explain: boolean;
  options: RedactOptions;
}

function redactArgs(line: CommandLine): Args {
  const domains = allowedEmailDomains(line);
  return {
    jsonl: line.options.has("--jsonl"),
    explain: line.options.has("--explain"),
    options: domains.length === 0 ? {} : { allowEmailDomains: domains },
  };
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

async function redact(line: CommandLine): Promise<number> {
  const args = redactArgs(line);
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
        notes.push(`cyberos-memory redact: line ${n + 1}: expected {"id","text"} strings`);
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
  return bad > 0 ? EXIT.failed : EXIT.done;
}

async function writeAll(
  sink: { write(p: Uint8Array): Promise<number> },
  bytes: Uint8Array,
): Promise<void> {
  let at = 0;
  while (at < bytes.length) at += await sink.write(bytes.subarray(at));
}

Deno.exit(await runCommand(REDACT_SPEC, Deno.args, redact));
