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
  // Each distinct run decoded once; those of text: where they stand, where their text is scanned.
  const runs = new Map<string, { at: number[]; from: number; to: number } | undefined>();
  const decoded: string[] = [];
  let scanned = 0;
  RUN.lastIndex = 0;
  for (let m = RUN.exec(text); m !== null; m = RUN.exec(text)) {
    // A run the rules replace already (a JWT's parts, a token) needs no second reading.
    if (overlapsAny(replaced, m.index, m.index + m[0].length)) continue;
    const known = runs.get(m[0]);
    if (known !== undefined) known.at.push(m.index);
    if (runs.has(m[0])) continue;
    if (runs.size >= MAX_RUNS) continue;
    const value = decodedText(m[0]);
    if (value === undefined || scanned + value.length > MAX_DECODED_CHARS) {
      runs.set(m[0], undefined);
      continue;
    }
    runs.set(m[0], { at: [m.index], from: scanned, to: scanned + value.length });
    decoded.push(value);
    scanned += value.length + 1;
  }
  if (decoded.length === 0) return [];
  const holding = [...runs].flatMap(([run, place]) =>
    place === undefined ? [] : [{ run, ...place }]
  );
  const found = [...scan(decoded.join("\n")), ...credentialPairs(decoded, holding)]
    .sort((a, b) => a.start - b.start);
  const out: Finding[] = [];
  let r = 0;
  let last = -1;
  for (const f of found) {
    while (r < holding.length && holding[r]!.to <= f.start) r++;
    const run = holding[r];
    // One finding per run; one across the line between two runs belongs to neither.
    if (run === undefined || f.end > run.to || r === last) continue;
    last = r;
    for (const at of run.at) out.push({ ...f, start: at, end: at + run.run.length });
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Decoded runs that are one `name:secret` pair, the secret random-looking (an
 * Elasticsearch key's `encoded` form, a Basic credential without its
 * header), as findings over their decoded text.
 */
function credentialPairs(
  decoded: readonly string[],
  places: ReadonlyArray<{ from: number; to: number }>,
): Finding[] {
  const found: Finding[] = [];
  decoded.forEach((value, i) => {
    // A name, one colon, a secret: not JSON (`{"alg":"RS256",…}`), not a list.
    const pair = /^[\w.@+-]{1,64}:([^\s"'{}[\],:]{12,128})$/.exec(value);
    if (pair === null || !looksRandom(pair[1]!)) return;
    const { from, to } = places[i]!;
    found.push({
      ruleId: "basic_auth",
      metricLabel: "basic_auth",
      placeholder: "<BASIC_AUTH>",
      start: from,
      end: to,
    });
  });
  return found;
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
