/**
 * Text encoded in base64 (a kubeconfig in `KUBE_CONFIG_DATA`, a Secret's
 * `data:`, a `.env` file handed to CI as one variable) read once more,
 * decoded: a run whose decoded text holds a secret is replaced whole, since
 * whoever holds the run holds the secret.
 *
 * @module
 */

import { decodeBase64 } from "./_base64.ts";
import { type Finding, overlapsAny } from "./_engine.ts";
import { scanEach } from "./_joined_scan.ts";

/**
 * Texts longer than this are not searched for base64: the search costs 11
 * ms a MiB (a fifth of a 256 KiB text's redaction), and the hook's prompts
 * and tool inputs are mostly far shorter.
 */
export const BASE64_MAX_TEXT_CHARS = 64 * 1024;

/** Distinct runs decoded per text, at most: text built of tokens holds thousands. */
const MAX_RUNS = 128;

/** Decoded characters scanned per text, at most. */
const MAX_DECODED_CHARS = 16 * 1024;

/**
 * A run of base64 or base64url long enough to encode a line of text, alone
 * (no base64 character on either side). Starts at a character of the run
 * and looks back once: a leading lookbehind would be tried at every offset.
 */
const RUN =
  /[A-Za-z0-9+/_-](?<![A-Za-z0-9+/=_-][A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{31,}={0,2}(?![A-Za-z0-9+/=_-])/g;

/**
 * What `scan` finds in the decoded text of each base64 run of `text` (32
 * characters or more, decoding to printable text): for each run where it
 * finds anything, one finding over the whole run, named after the first
 * finding in it. Runs that overlap `replaced` (the rules' findings, sorted) are
 * not read; nor are texts over {@linkcode BASE64_MAX_TEXT_CHARS}.
 *
 * @example
 * ```ts
 * base64RunFindings(`KUBE_CONFIG_DATA: ${btoa("token: …")}`, scan); // the run, if scan finds the token
 * ```
 */
export function base64RunFindings(
  text: string,
  scan: (value: string) => Finding[],
  replaced: readonly Finding[] = [],
): Finding[] {
  if (text.length > BASE64_MAX_TEXT_CHARS) return [];
  // Each distinct run decoded once: where it stands; `undefined` when it is not read.
  const runs = new Map<string, number[] | undefined>();
  const read: { run: string; at: number[] }[] = [];
  const decoded: string[] = [];
  let decodedChars = 0;
  RUN.lastIndex = 0;
  for (let m = RUN.exec(text); m !== null; m = RUN.exec(text)) {
    // A run the rules replace already (a JWT's parts, a token) needs no second reading.
    if (overlapsAny(replaced, m.index, m.index + m[0].length)) continue;
    if (runs.has(m[0])) {
      runs.get(m[0])?.push(m.index);
      continue;
    }
    if (runs.size >= MAX_RUNS) continue;
    const value = decodedText(m[0]);
    if (value === undefined || decodedChars + value.length > MAX_DECODED_CHARS) {
      runs.set(m[0], undefined);
      continue;
    }
    const at = [m.index];
    runs.set(m[0], at);
    read.push({ run: m[0], at });
    decoded.push(value);
    decodedChars += value.length + 1;
  }
  if (decoded.length === 0) return [];
  // One finding per run, the first in its decoded text; a pair is the whole text.
  const first = new Map<number, Finding>();
  for (const { index, finding } of scanEach(decoded, scan)) {
    if (!first.has(index)) first.set(index, finding);
  }
  for (const index of credentialPairs(decoded)) {
    const found = first.get(index);
    if (found === undefined || found.start > 0) first.set(index, CREDENTIAL_PAIR);
  }
  const out: Finding[] = [];
  for (const [index, finding] of first) {
    const { run, at } = read[index]!;
    for (const offset of at) out.push({ ...finding, start: offset, end: offset + run.length });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** What a decoded `name:secret` pair is named. */
const CREDENTIAL_PAIR: Finding = {
  ruleId: "basic_auth",
  metricLabel: "basic_auth",
  placeholder: "<BASIC_AUTH>",
  start: 0,
  end: 0,
};

/**
 * Which decoded runs are one `name:secret` pair, the secret random-looking (an
 * Elasticsearch key's `encoded` form, a Basic credential without its header).
 */
function credentialPairs(decoded: readonly string[]): number[] {
  const pairs: number[] = [];
  decoded.forEach((value, index) => {
    // A name, one colon, a secret: not JSON (`{"alg":"RS256",…}`), not a list.
    const pair = /^[\w.@+-]{1,64}:([^\s"'{}[\],:]{12,128})$/.exec(value);
    if (pair !== null && looksRandom(pair[1]!)) pairs.push(index);
  });
  return pairs;
}

/** Letters in both cases and digits, ten distinct characters or more: a generated secret. */
function looksRandom(value: string): boolean {
  return /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value) &&
    new Set(value).size >= 10;
}

/**
 * The text `run` encodes, or `undefined` when it is not base64 of printable
 * text (binary, a digest, a key's raw bytes, a UUID read as base64): tabs,
 * line breaks and printable ASCII or UTF-8, nothing else. ASCII is told
 * byte by byte; only bytes past it ask for a UTF-8 decoder.
 */
function decodedText(run: string): string | undefined {
  const binary = decodeBase64(run);
  if (binary === undefined) return undefined;
  let ascii = true;
  for (let i = 0; i < binary.length; i++) {
    const c = binary.charCodeAt(i);
    if (c >= 0x80) ascii = false;
    else if ((c < 0x20 && c !== 9 && c !== 10 && c !== 13) || c === 0x7f) return undefined;
  }
  if (ascii) return binary;
  let value: string;
  try {
    value = new TextDecoder("utf-8", { fatal: true }).decode(
      Uint8Array.from(binary, (c) => c.charCodeAt(0)),
    );
  } catch {
    return undefined;
  }
  // deno-lint-ignore no-control-regex
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffd]/.test(value)
    ? undefined
    : value;
}
