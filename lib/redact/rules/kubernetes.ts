/**
 * Kubernetes Secret manifests: every value under `data:` of a document of
 * `kind: Secret` is a base64-encoded secret, whatever its key is called
 * (`DB_USER`, `.dockerconfigjson`, `STRIPE`); under `stringData:` the values
 * are in clear, and those that read as random are secrets whatever their key
 * (`LEDGER_WEBHOOK_HMAC`), where a user name stays. The same keys under a
 * ConfigMap, or outside those blocks, stay.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { hasDigitAndLetter, isBase64, notPlaceholder, shannonEntropy } from "../_validators.ts";

/** How far a value may be from its document's `kind: Secret`. */
const DOCUMENT_REACH = 4096;

function indentOf(line: string): number {
  let n = 0;
  while (n < line.length && (line[n] === " " || line[n] === "\t")) n++;
  return n;
}

/**
 * The last verdict, kept for the next value of the same block: a Secret
 * with thousands of entries would otherwise read back up to its header for
 * each of them (quadratic); with it each gap between values is read once.
 */
let lastBlock:
  | { text: string; end: number; indent: number; verdict: BlockVerdict }
  | undefined;

/** Why a value is outside a Secret's data, or which block holds it. */
type BlockVerdict = { problem: string } | { block: "data:" | "stringData:" };

/** Whether every line of `gap` (between two values) belongs to a block indented by `indent`. */
function staysInBlock(gap: string, indent: number): boolean {
  for (const line of gap.split("\n")) {
    if (line.trim() !== "" && indentOf(line) < indent) return false;
  }
  return true;
}

/**
 * The value sits in the `data:` or `stringData:` block of a `kind: Secret`
 * document: the nearest line above with less indent is that block's, and
 * the document (from the `---` before to the `---` after, within reach)
 * says `kind: Secret`. Then the value must fit the block: base64 under
 * `data:`, random-looking under `stringData:`.
 */
function inSecretData(c: Candidate): string | undefined {
  const indent = indentOf(c.match);
  const last = lastBlock;
  let verdict: BlockVerdict;
  if (
    last !== undefined && last.text === c.text && last.indent === indent &&
    last.end <= c.matchStart && c.matchStart - last.end <= DOCUMENT_REACH &&
    staysInBlock(c.text.slice(last.end, c.matchStart), indent)
  ) {
    last.end = c.matchStart + c.match.length;
    verdict = last.verdict;
  } else {
    verdict = secretDataBlock(c, indent);
    lastBlock = { text: c.text, end: c.matchStart + c.match.length, indent, verdict };
  }
  if ("problem" in verdict) return verdict.problem;
  return verdict.block === "data:" ? base64Problem(c) : clearValueProblem(c);
}

function base64Problem(c: Candidate): string | undefined {
  return isBase64(c.secret) ? undefined : "not base64";
}

/** A clear value under `stringData:` is a secret when it reads as random: not a name or a URL. */
function clearValueProblem(c: Candidate): string | undefined {
  if (c.secret.length < 8) return `length ${c.secret.length} < 8`;
  if (c.secret.includes("://")) return "URL";
  const h = shannonEntropy(c.secret);
  if (h <= 3) return `entropy ${h.toFixed(2)} ≤ 3`;
  return hasDigitAndLetter(c) ?? notPlaceholder(c);
}

function secretDataBlock(c: Candidate, indent: number): BlockVerdict {
  const from = Math.max(0, c.matchStart - DOCUMENT_REACH);
  const before = c.text.slice(from, c.matchStart).split("\n");
  let header: string | undefined;
  for (let i = before.length - 2; i >= 0; i--) {
    const line = before[i]!;
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    if (indentOf(line) < indent) {
      header = line.trim();
      break;
    }
  }
  if (header !== "data:" && header !== "stringData:") return { problem: "not under data:" };
  const start = c.text.lastIndexOf("\n---", c.matchStart);
  const docStart = start < from ? from : start;
  const next = c.text.indexOf("\n---", c.end);
  const docEnd = next < 0 ? c.text.length : next;
  const documentText = c.text.slice(docStart, Math.min(docEnd, c.end + DOCUMENT_REACH));
  return /(?:^|\n)kind:[ \t]*["']?Secret["']?[ \t]*(?:\r?\n|$)/.test(documentText)
    ? { block: header }
    : { problem: "not in a kind: Secret document" };
}

/** A base64 value under `data:` in a Secret manifest. */
export const kubernetesSecret: Rule = {
  id: "kubernetes_secret_data",
  description:
    "Kubernetes Secret manifest: each base64 value under data:, and each random-looking value under stringData:, of a kind: Secret document",
  placeholder: "<KUBERNETES_SECRET>",
  keywords: ["kind: secret", 'kind: "secret"', "kind: 'secret'"],
  pattern: () =>
    /^[ \t]{1,12}["']?(?<name>[\w.-]{1,253})["']?:[ \t]{1,4}["']?(?<secret>[^\s"'#][^\s"']{3,8191})["']?[ \t]*\r?$/dgm,
  secretGroup: "secret",
  priority: 450,
  validators: [
    function notCertificate(c) {
      // `tls.crt`, `ca.crt` of a TLS Secret are certificates, public; `tls.key` is not.
      return /(?:\.crt|\.cer|\.cert|(?:^|[.-])ca|cert\.pem|ca\.pem|ca-bundle)$/i.test(
          c.groups["name"] ?? "",
        )
        ? "a certificate"
        : undefined;
    },
    inSecretData,
  ],
  allowlist: [],
  truePositives: [
    "apiVersion: v1\nkind: Secret\ntype: Opaque\nstringData:\n  DB_USERNAME: ledger_app\n  LEDGER_WEBHOOK_HMAC: UyQhVQ4XrjSa8viX77tAJ32FCpmbUVD8cPHQFYjFl63Ub9Uw\n",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\ndata:\n  DB_USER: YXBwX3VzZXI=\n  STRIPE: c2tfbGl2ZV81MUhxOExtM1Z4N1J0Mkt3OVBuNFliNkhjMUpkNUZzMEdh\n",
    "data:\n  .dockerconfigjson: eyJhdXRocyI6eyJnaGNyLmlvIjp7ImF1dGgiOiJZV05zYVRwbmFIQmZNVEl6In19fQ==\nkind: Secret\ntype: kubernetes.io/dockerconfigjson",
  ],
  falsePositives: [
    "apiVersion: v1\nkind: ConfigMap\ndata:\n  LOG_LEVEL: ZGVidWc=\n",
    // A user name and a URL under stringData.
    "apiVersion: v1\nkind: Secret\nstringData:\n  DB_USERNAME: ledger_app\n  DB_HOST_URL: https://pg.internal:5432\n",
    "kind: Secret\nmetadata:\n  name: app\n  labels:\n    team: cGF5bWVudHM=\n",
    "apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\ndata:\n  ca.crt: TFMwdExTMUNSVWRKVGlCRFJWSlU=\n  tls.crt: TFMwdExTMUNSVWRKVGlCRFJWSlU=\n",
  ],
};
