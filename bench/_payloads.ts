/**
 * Realistic payloads for the benchmarks: a 4 KB prompt holding a few secrets,
 * a PostToolUse with a 64 KB `tool_input`, a Stop. Secrets are synthetic.
 *
 * @module
 */

import { scanText } from "../lib/redact/_engine.ts";
import { RULES } from "../lib/redact/rules/mod.ts";

const SESSION = "5b0c7d1e-2f3a-4b5c-8d6e-7f8091a2b3c4";

const SECRETS = [
  "AKIAZ7Q3MN4TW8PXR2LD",
  "ghp_q8Zr4Lm2Vn7Xc1Tb6Yk9Hs3Jd5Fg0Wp2Ae4Rt",
  "dana.nguyen@example-corp.com",
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MjEiLCJyb2xlIjoiYWRtaW4ifQ.kq3Vb8Xw2Yz9Ld7Hs4Jf1Tg6Rn0Pm5Qc",
];

const PROSE =
  "The checkout service times out when the cart has more than 40 items; the trace shows " +
  "the pricing call retried 3 times at 2025-11-30T10:42:17Z (order 88213, PR #4521, commit 9f2c1ab). ";

const CODE = `export async function reconcile(batchId: string, cutoff: Date) {
  const rows = await db.query("SELECT id, amount FROM ledger WHERE batch = $1", [batchId]);
  for (const row of rows) totals.set(row.id, (totals.get(row.id) ?? 0) + row.amount);
  return { batchId, cutoff: cutoff.toISOString(), count: rows.length };
}
`;

/** `unit` repeated and cut to `bytes` characters. */
export function repeatTo(unit: string, bytes: number): string {
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/** A text of about `bytes` with the synthetic secrets spread through it. */
export function textWithSecrets(bytes: number, unit: string = PROSE): string {
  const chunk = Math.floor(bytes / (SECRETS.length + 1));
  return SECRETS.map((secret) => `${repeatTo(unit, chunk)} ${secret} `).join("") +
    repeatTo(unit, chunk);
}

/** A UserPromptSubmit payload with a 4 KB prompt: the synthetic secrets in prose, or prose alone. */
export function promptPayload(cwd: string, options: { secrets?: boolean } = {}): string {
  const { secrets = true } = options;
  return JSON.stringify({
    session_id: SESSION,
    transcript_path: `${cwd}/transcript.jsonl`,
    cwd,
    hook_event_name: "UserPromptSubmit",
    prompt_id: "0d4e5f60-7182-4394-a5b6-c7d8e9f00112",
    permission_mode: "default",
    prompt: secrets ? textWithSecrets(4096) : repeatTo(PROSE, 4096),
  });
}

/** A PostToolUse (Write) payload with a 64 KB `tool_input`. */
export function toolPayload(cwd: string): string {
  const content = textWithSecrets(64 * 1024, CODE);
  return JSON.stringify({
    session_id: SESSION,
    transcript_path: `${cwd}/transcript.jsonl`,
    cwd,
    hook_event_name: "PostToolUse",
    tool_name: "Write",
    tool_input: { file_path: `${cwd}/src/reconcile.ts`, content },
    tool_response: { type: "create", filePath: `${cwd}/src/reconcile.ts`, content },
    // Base62, as Claude Code's are: 18 zeros made the phone rules run on every run.
    tool_use_id: "toolu_01Bx7Kq4Ld9Wm2Rt5Zc8Hn3Vp",
    duration_ms: 12,
  });
}

/** A Stop payload with a short final message. */
export function stopPayload(cwd: string): string {
  return JSON.stringify({
    session_id: SESSION,
    transcript_path: `${cwd}/transcript.jsonl`,
    cwd,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: repeatTo(PROSE, 1024),
  });
}

const MIB = 1024 * 1024;

/** Realistic text with a few secrets, 4 KB, 64 KB and 1 MiB, by name. */
export function realisticInputs(): Array<[name: string, text: string]> {
  return [
    ["text 4 KB", textWithSecrets(4096)],
    ["text 64 KB", textWithSecrets(64 * 1024)],
    ["text 1 MiB", textWithSecrets(MIB)],
  ];
}

/**
 * 1 MiB strings built to make a backtracking pattern blow up: every
 * redaction test and benchmark uses these same ones.
 */
export function adversarialInputs(): Array<[name: string, text: string]> {
  return [
    ["a×1M", "a".repeat(MIB)],
    ["digits", "0123456789".repeat(MIB / 10)],
    ["sk- repeated", "sk-".repeat(MIB / 3)],
    ["eyJ repeated", "eyJ".repeat(MIB / 3)],
    ["x@ repeated", "x@".repeat(MIB / 2)],
    ["+84 repeated", "+84 ".repeat(MIB / 4)],
    ["api_key= repeated", "api_key=".repeat(MIB / 8)],
    ["BEGIN without END", "-----BEGIN RSA PRIVATE KEY-----".repeat(Math.floor(MIB / 31))],
    ["<private> unclosed", "<private>".repeat(Math.floor(MIB / 9))],
    ["password is repeated", "password is ".repeat(Math.floor(MIB / 12))],
    ["Authorization: Basic repeated", repeatTo("Authorization: Basic ", MIB)],
  ];
}

/**
 * What each rule's pattern starts on, to be repeated until a text is huge:
 * its keywords, and from each of its true positives the text up to the
 * secret, that plus the secret's first characters, and the secret alone.
 * A pattern that backtracks or a validator that looks back over the whole
 * text shows up on one of these (issue 18, L3: `"Authorization: Basic "`
 * repeated cost 0.8 s a MiB).
 */
export function rulePrefixes(): string[] {
  const prefixes = new Set<string>(["Authorization: Basic "]);
  for (const rule of RULES) {
    for (const keyword of rule.keywords) prefixes.add(keyword);
    for (const sample of rule.truePositives) {
      const found = scanText(sample, [rule]).findings[0];
      if (found === undefined) continue;
      const lead = sample.slice(Math.max(0, found.start - 24), found.start);
      prefixes.add(lead);
      prefixes.add(lead + sample.slice(found.start, found.start + 6));
      prefixes.add(`${sample.slice(found.start, found.end)} `);
    }
  }
  prefixes.delete("");
  return [...prefixes];
}
