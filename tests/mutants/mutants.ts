/**
 * Mutants as data: small bugs planted in the critical modules, each with the
 * test files that must notice it. `run.ts` plants them one at a time in a copy
 * of the repository; `tests/mutants_test.ts` keeps every search text findable
 * exactly once, so a mutant cannot silently stop applying when code moves.
 *
 * The first seven are the survivors issue 25 found; they, and every mutant
 * marked `quick`, run in CI.
 *
 * @module
 */

/** One planted bug. */
export interface Mutant {
  /** A short unique name. */
  id: string;
  /** The module the score is reported under. */
  module: string;
  /** The file, from the repository root. */
  file: string;
  /** Text that occurs exactly once in the file. */
  search: string;
  /** What replaces it. */
  replace: string;
  /** What the bug does, in a few words. */
  description: string;
  /** The test files that must kill it. */
  tests: string[];
  /** Only the tests whose name holds this (`deno test --filter`). */
  filter?: string;
  /** In the CI subset. */
  quick?: boolean;
  /** Why it may survive without harm (it changes no behaviour a user can see). */
  harmless?: string;
}

const HOOK_BYTES = "tests/hook_bytes_test.ts";
const COMMIT = "tests/commit_failure_test.ts";
const FRAME_LIMIT = "tests/frame_limit_test.ts";
const VERIFY = "tests/verify_tamper_test.ts";
const ORACLES = "tests/oracle_test.ts";
const GATES = "tests/bench_gates_test.ts";
const EDGES = "tests/edges_test.ts";
const ACCEPTANCE = "tests/acceptance_test.ts";

/**
 * The test files that existed for each module before issue 25. A full run
 * (`deno task mutants`) runs them after each mutant's own files, so that
 * `--without-tests` with the newer files scores the suite as it was.
 */
export const MODULE_TESTS: Record<string, string[]> = {
  "hook": ["tests/reliability_test.ts", "tests/field_redaction_test.ts", "tests/pipeline_test.ts"],
  "draft": ["tests/rows_test.ts", "tests/field_redaction_test.ts", "tests/pipeline_test.ts"],
  "redaction": [
    "tests/redact_engine_test.ts",
    "tests/redact_rules_test.ts",
    "tests/secret_keys_test.ts",
    "tests/field_redaction_test.ts",
  ],
  "redaction validators": ["tests/redact_engine_test.ts", "tests/redact_rules_test.ts"],
  "frame": ["tests/frame_test.ts", "tests/pipeline_test.ts", "tests/hostile_input_test.ts"],
  "spool": ["tests/spool_test.ts", "tests/reliability_test.ts"],
  "ingest": ["tests/reliability_test.ts", "tests/store_safety_test.ts", "tests/pipeline_test.ts"],
  "chain": ["tests/chain_test.ts", "tests/store_test.ts"],
  "store verification": [
    "tests/store_test.ts",
    "tests/chain_test.ts",
    "tests/reliability_test.ts",
  ],
  "permissions": ["tests/permissions_test.ts", "tests/launcher_test.ts"],
  "installer edits": ["tests/install_settings_test.ts", "tests/install_cli_test.ts"],
  "bench gates": ["tests/bench_test.ts"],
};

/** Every mutant. */
export const MUTANTS: Mutant[] = [
  // The seven survivors of issue 25.
  {
    id: "hook-raw-on-redaction-failure",
    module: "hook",
    file: "hook/main.ts",
    search: "return redactionFailedDraft(parsed.payload.session_id, context, { error });",
    replace:
      "return { kind: ROW_KINDS.redactionFailed, payload: { ...parsed.payload, trace_id: context.traceId, captured_at_ns: context.capturedAtNs }, matchCount: 0, counts: {} };",
    description: "the redaction-failed path sends and spools the raw payload",
    tests: [HOOK_BYTES],
    quick: true,
  },
  {
    id: "draft-tool-input-unredacted",
    module: "draft",
    file: "lib/draft.ts",
    search: "tool_args_redacted: args,",
    replace: "tool_args_redacted: payload.tool_input,",
    description: "tool input sent to the daemon unredacted",
    tests: [HOOK_BYTES],
    quick: true,
  },
  {
    id: "ingest-delete-before-commit",
    module: "ingest",
    file: "daemon/_ingest.ts",
    search: "    for (let pending = batch;;) {",
    replace:
      "    for (const item of batch) {\n      try {\n        Deno.removeSync(item.spoolPath);\n      } catch {\n        // planted\n      }\n    }\n    for (let pending = batch;;) {",
    description: "spool files deleted before the commit instead of after",
    tests: [COMMIT],
    quick: true,
  },
  {
    id: "verify-ignores-seq-gap",
    module: "store verification",
    file: "lib/chain.ts",
    search: 'if (Number(row.seq) !== expected.seq) return "row is missing";',
    replace: "",
    description: "verify ignores a gap in seq",
    tests: [VERIFY],
    quick: true,
  },
  {
    id: "verify-no-column-check",
    module: "store verification",
    file: "lib/chain.ts",
    search: 'return columnsAgree ? undefined : "columns disagree with the payload";',
    replace: "return undefined;",
    description: "verify's column check removed",
    tests: [VERIFY],
    quick: true,
  },
  {
    id: "frame-limit-256-mib",
    module: "frame",
    file: "lib/frame.ts",
    search: "export const MAX_FRAME_BYTES = 16 * 1024 * 1024;",
    replace: "export const MAX_FRAME_BYTES = 256 * 1024 * 1024;",
    description: "the frame limit raised from 16 to 256 MiB",
    tests: [FRAME_LIMIT],
    filter: "FrameDecoder",
    quick: true,
  },
  {
    id: "frame-limit-decoder-gte",
    module: "frame",
    file: "lib/frame.ts",
    search: "if (length > MAX_FRAME_BYTES) {",
    replace: "if (length >= MAX_FRAME_BYTES) {",
    description: "`>` turned into `>=` at the decoder's frame limit",
    tests: [FRAME_LIMIT],
    filter: "FrameDecoder",
    quick: true,
  },

  // hook
  {
    id: "hook-never-spools",
    module: "hook",
    file: "hook/main.ts",
    search: "const spooled = trace.identity !== undefined &&",
    replace: "const spooled = trace.identity === undefined &&",
    description: "the hook spools nothing in a trusted trace dir",
    tests: [HOOK_BYTES],
    quick: true,
  },
  {
    id: "hook-spool-name-without-outcome",
    module: "hook",
    file: "hook/main.ts",
    search: "{ name: spoolFileName(capturedAtNs, frame.id, outcome), bytes }",
    replace: "{ name: spoolFileName(capturedAtNs, frame.id), bytes }",
    description: "a failed run's spool file does not name its outcome",
    tests: [HOOK_BYTES],
  },
  {
    id: "hook-unknown-keys-unredacted",
    module: "hook",
    file: "hook/main.ts",
    search: 'warn("unknown_fields", `ignored ${redactText(list).text}`);',
    replace: 'warn("unknown_fields", `ignored ${list}`);',
    description: "unknown key names quoted on stderr unredacted",
    tests: [HOOK_BYTES],
  },
  {
    id: "hook-stdin-limit-plus-one",
    module: "hook",
    file: "hook/main.ts",
    search: "const buffer = new Uint8Array(MAX_FRAME_BYTES + 1);",
    replace: "const buffer = new Uint8Array(MAX_FRAME_BYTES + 2);",
    description: "the hook accepts 16 MiB + 1 of stdin",
    tests: [FRAME_LIMIT],
    filter: "hook",
  },

  // draft
  {
    id: "draft-prompt-unredacted",
    module: "draft",
    file: "lib/draft.ts",
    search: "prompt_redacted: prompt,",
    replace: "prompt_redacted: payload.prompt,",
    description: "the prompt sent unredacted",
    tests: [HOOK_BYTES],
    quick: true,
  },
  {
    id: "draft-stop-message-unredacted",
    module: "draft",
    file: "lib/draft.ts",
    search: ": fields.text(payload.last_assistant_message),",
    replace: ": payload.last_assistant_message,",
    description: "the last assistant message sent unredacted",
    tests: [HOOK_BYTES],
  },
  {
    id: "draft-tool-name-unredacted",
    module: "draft",
    file: "lib/draft.ts",
    search: "tool_name: short.tool_name,",
    replace: "tool_name: payload.tool_name,",
    description: "tool_name sent unredacted",
    tests: [HOOK_BYTES],
  },
  {
    id: "draft-error-unredacted",
    module: "draft",
    file: "lib/draft.ts",
    search: "error: short.error,",
    replace: "error: payload.error,",
    description: "a tool's error text sent unredacted",
    tests: [HOOK_BYTES],
  },
  {
    id: "draft-agent-id-unredacted",
    module: "draft",
    file: "lib/draft.ts",
    search: "agent_type: short.agent_type,",
    replace: "agent_type: payload.agent_type,",
    description: "agent_type sent unredacted",
    tests: [HOOK_BYTES],
  },
  {
    id: "draft-path-not-split",
    module: "draft",
    file: "lib/draft.ts",
    search: 'const pieces = typeof field === "string" ? [field] : field.text.split(field.parts);',
    replace: 'const pieces = [typeof field === "string" ? field : field.text];',
    description: "cwd and MCP names redacted whole, not per part",
    tests: ["tests/field_redaction_test.ts", HOOK_BYTES],
  },

  // redaction engine, rules' entry points and validators
  {
    id: "redact-secret-key-ignored",
    module: "redaction",
    file: "lib/redact/mod.ts",
    search: "const secret = underSecret || isSecretKeyName(key);",
    replace: "const secret = underSecret;",
    description: "a key naming a secret no longer makes its strings secret",
    tests: ["tests/secret_keys_test.ts", "tests/field_redaction_test.ts"],
  },
  {
    id: "redact-keys-kept",
    module: "redaction",
    file: "lib/redact/mod.ts",
    search: "rename: (key) => byKey.get(key)!,",
    replace: "rename: (key) => key,",
    description: "object keys left unredacted",
    tests: [HOOK_BYTES],
    quick: true,
  },
  {
    id: "redact-prefix-boundary",
    module: "redaction",
    file: "lib/redact/_engine.ts",
    search: "if (at === 0 || !isWordOrHyphen(text.charCodeAt(at - 1))) return true;",
    replace: "if (at === 0) return true;",
    description: "a rule's prefix found only at the very start",
    tests: ["tests/redact_engine_test.ts", "tests/redact_rules_test.ts"],
  },
  {
    id: "redact-validators-ignored",
    module: "redaction",
    file: "lib/redact/_engine.ts",
    search: "if (reason !== undefined) return reason;",
    replace: "if (reason !== undefined) return undefined;",
    description: "validators' rejections ignored",
    tests: ["tests/redact_engine_test.ts", "tests/redact_rules_test.ts"],
  },
  {
    id: "redact-overlaps-kept",
    module: "redaction",
    file: "lib/redact/_engine.ts",
    search: "for (const c of resolveCluster(cluster, end, lost)) findings.push(toFinding(c));",
    replace: "for (const c of cluster) findings.push(toFinding(c));",
    description: "overlapping findings all replaced",
    tests: [
      "tests/redact_engine_test.ts",
      "tests/redact_rules_test.ts",
      "tests/redact_overlap_test.ts",
    ],
  },
  {
    id: "validator-luhn-any",
    module: "redaction validators",
    file: "lib/redact/_validators.ts",
    search: "return digits > 0 && sum % 10 === 0;",
    replace: "return digits > 0;",
    description: "Luhn accepts any digits",
    tests: ["tests/redact_engine_test.ts", "tests/redact_rules_test.ts"],
    quick: true,
  },
  {
    id: "validator-luhn-double",
    module: "redaction validators",
    file: "lib/redact/_validators.ts",
    search: "if (d > 9) d -= 9;",
    replace: "if (d > 9) d -= 8;",
    description: "Luhn's doubled digit folded wrongly",
    tests: ["tests/redact_engine_test.ts", "tests/redact_rules_test.ts"],
  },
  {
    id: "validator-mod97",
    module: "redaction validators",
    file: "lib/redact/_validators.ts",
    search: "return remainder === 1;",
    replace: "return remainder === 0;",
    description: "IBAN mod-97 expects 0",
    tests: ["tests/redact_engine_test.ts", "tests/redact_rules_test.ts"],
  },
  {
    id: "validator-entropy-sign",
    module: "redaction validators",
    file: "lib/redact/_validators.ts",
    search: "bits -= p * Math.log2(p);",
    replace: "bits += p * Math.log2(p);",
    description: "Shannon entropy negative",
    tests: ["tests/redact_engine_test.ts", "tests/redact_rules_test.ts"],
  },
  {
    id: "validator-cccd-century",
    module: "redaction validators",
    file: "lib/redact/_validators.ts",
    search: "return century > 3 ?",
    replace: "return century > 5 ?",
    description: "CCCD century digits 4 and 5 accepted",
    tests: ["tests/redact_engine_test.ts", "tests/redact_rules_test.ts"],
  },
  {
    id: "validator-repeated-char",
    module: "redaction validators",
    file: "lib/redact/_validators.ts",
    search: 'if (/(.)\\1{7,}/.test(value)) return "one character repeated";',
    replace: "",
    description: "a run of one repeated character no longer a placeholder",
    tests: [EDGES],
  },

  // frame
  {
    id: "frame-encode-written-gte",
    module: "frame",
    file: "lib/frame.ts",
    search: "if (written > MAX_FRAME_BYTES) throw",
    replace: "if (written >= MAX_FRAME_BYTES) throw",
    description: "`>` turned into `>=` at the encoder's byte limit",
    tests: [FRAME_LIMIT],
    filter: "encode",
    quick: true,
  },
  {
    id: "frame-encode-length-gte",
    module: "frame",
    file: "lib/frame.ts",
    search: "if (json.length > MAX_FRAME_BYTES) throw",
    replace: "if (json.length >= MAX_FRAME_BYTES) throw",
    description: "`>` turned into `>=` at the encoder's early check",
    tests: [FRAME_LIMIT],
    filter: "encode",
  },
  {
    id: "frame-unknown-key-accepted",
    module: "frame",
    file: "lib/frame.ts",
    search: 'if (!FRAME_KEYS.has(key)) throw shape(`unknown key "${key}"`);',
    replace: "",
    description: "an unknown frame key accepted",
    tests: ["tests/frame_test.ts"],
  },
  {
    id: "frame-negative-time-accepted",
    module: "frame",
    file: "lib/frame.ts",
    search: "!Number.isInteger(capturedAtNs) || (capturedAtNs as number) < 0 ||",
    replace: "!Number.isInteger(capturedAtNs) ||",
    description: "a negative captured_at_ns accepted",
    tests: [EDGES],
  },
  {
    id: "frame-decoder-short-body",
    module: "frame",
    file: "lib/frame.ts",
    search: "if (this.#bodyFilled < body.length) break;",
    replace: "if (this.#bodyFilled < body.length - 4) break;",
    description: "the decoder hands a body out before its last 4 bytes arrive",
    tests: ["tests/frame_test.ts"],
  },
  {
    id: "frame-decoder-take",
    module: "frame",
    file: "lib/frame.ts",
    search: "        this.#headerFilled = 0;\n        const length",
    replace: "        const length",
    description: "a length prefix is not cleared after use: every later frame reuses it",
    tests: ["tests/frame_test.ts"],
  },

  // spool
  {
    id: "spool-file-mode-0644",
    module: "spool",
    file: "lib/spool.ts",
    search: "Deno.writeFileSync(temp, bytes, { mode: 0o600 });",
    replace: "Deno.writeFileSync(temp, bytes, { mode: 0o644 });",
    description: "spool files readable by other users",
    tests: [HOOK_BYTES],
    quick: true,
  },
  {
    id: "spool-prune-ignores-bytes",
    module: "spool",
    file: "lib/spool.ts",
    search: "(count > maxFiles || total > maxBytes)",
    replace: "(count > maxFiles)",
    description: "the spool's byte cap ignored",
    tests: ["tests/spool_test.ts"],
  },
  {
    id: "spool-drain-unsorted",
    module: "spool",
    file: "daemon/_spool_drain.ts",
    search: "  names.sort();\n  let budget = DRAIN_BYTES_PER_TICK;",
    replace: "  names.reverse();\n  let budget = DRAIN_BYTES_PER_TICK;",
    description: "the spool drained newest first",
    tests: ["tests/reliability_test.ts", COMMIT],
  },
  {
    id: "spool-drain-id-unchecked",
    module: "spool",
    file: "daemon/_spool_drain.ts",
    search:
      'if (frame.id !== parsed.id) throw new FrameError("bad_shape", "id differs from the name");',
    replace: "",
    description: "a spool file whose name and frame id differ is ingested",
    tests: [EDGES],
    quick: true,
  },

  // ingest
  {
    id: "ingest-no-dedup",
    module: "ingest",
    file: "daemon/_ingest.ts",
    search: 'if (state === "stored") {',
    replace: 'if (state === "stored twice") {',
    description: "a frame already stored is appended again",
    tests: [COMMIT],
    quick: true,
  },
  {
    id: "ingest-keeps-failed-ids",
    module: "ingest",
    file: "daemon/_ingest.ts",
    search: "for (const item of pending) this.#queuedIds.delete(item.frame.id);",
    replace: "",
    description: "a failed batch's ids stay queued, so the next drain skips them",
    tests: [COMMIT],
    quick: true,
  },
  {
    id: "ingest-settled-kept",
    module: "ingest",
    file: "daemon/_ingest.ts",
    search: "for (const item of [...committed, ...settled]) {",
    replace: "for (const item of committed) {",
    description: "spool files of frames stored earlier are never deleted",
    tests: [COMMIT],
  },

  // chain and its oracles
  {
    id: "chain-no-prev-hash",
    module: "chain",
    file: "lib/chain.ts",
    search: "return blake3Hex(prevHash + canonicalRow(row));",
    replace: "return blake3Hex(canonicalRow(row));",
    description: "a row's hash leaves out the previous hash",
    tests: [ORACLES],
    quick: true,
  },
  {
    id: "chain-no-seq",
    module: "chain",
    file: "lib/chain.ts",
    search: "canonicalJson({ kind: row.kind, payload: row.payload, seq: row.seq })",
    replace: "canonicalJson({ kind: row.kind, payload: row.payload })",
    description: "a row's hash leaves out seq",
    tests: [ORACLES],
  },
  {
    id: "json-canonical-unsorted",
    module: "chain",
    file: "lib/json.ts",
    search: "if (canonical) keys.sort();",
    replace: "",
    description: "canonical JSON keeps insertion order",
    tests: [ORACLES],
    quick: true,
  },
  {
    id: "json-array-undefined",
    module: "chain",
    file: "lib/json.ts",
    search: 'frames.push({ kind: "value", value: element === undefined ? null : element });',
    replace: 'frames.push({ kind: "value", value: element === undefined ? "null" : element });',
    description: "undefined in an array written as a string",
    tests: [ORACLES],
  },

  // store verification
  {
    id: "verify-no-prev-hash-check",
    module: "store verification",
    file: "lib/chain.ts",
    search: "if (row.prev_hash !== expected.prevHash) {",
    replace: "if (row.prev_hash === undefined) {",
    description: "the prev_hash column never compared",
    tests: [VERIFY],
    quick: true,
  },
  {
    id: "verify-no-cwd-check",
    module: "store verification",
    file: "lib/chain.ts",
    search: 'row.cwd === (typeof payload.cwd === "string" ? payload.cwd : null) &&',
    replace: "",
    description: "the cwd column never compared",
    tests: [VERIFY],
  },
  {
    id: "verify-no-captured-check",
    module: "store verification",
    file: "lib/chain.ts",
    search: "row.captured === String(payload.captured_at_ns);",
    replace: "true;",
    description: "the captured_at_ns column never compared",
    tests: [VERIFY],
  },
  {
    id: "verify-cli-exit-0",
    module: "store verification",
    file: "install/verify.ts",
    search: "return failures.length === 0 ? 0 : 1;",
    replace: "return 0;",
    description: "`deno task verify` exits 0 on a broken chain",
    tests: [VERIFY],
    quick: true,
  },

  // permissions
  {
    id: "permissions-hook-any-env",
    module: "permissions",
    file: "lib/permissions.ts",
    search: "    `--allow-env=${TRACEPARENT_ENV}`,",
    replace: '    "--allow-env",',
    description: "the hook may read every environment variable",
    tests: ["tests/permissions_test.ts"],
  },
  {
    id: "permissions-hook-any-read",
    module: "permissions",
    file: "lib/permissions.ts",
    search:
      '    `--allow-read=${traceDir},${socket}`,\n    `--allow-write=${traceDir},${socket}`,\n    `--allow-net=unix:${socket}`,\n    "--allow-sys=uid",',
    replace:
      '    "--allow-read",\n    `--allow-write=${traceDir},${socket}`,\n    `--allow-net=unix:${socket}`,\n    "--allow-sys=uid",',
    description: "the hook may read every file",
    tests: ["tests/permissions_test.ts"],
  },
  {
    id: "permissions-daemon-any-net",
    module: "permissions",
    file: "lib/permissions.ts",
    search: '    `--allow-net=${net.join(",")}`,',
    replace: '    "--allow-net",',
    description: "the daemon may open any connection",
    tests: ["tests/permissions_test.ts"],
  },
  {
    id: "permissions-comma-path",
    module: "permissions",
    file: "lib/permissions.ts",
    search: 'if (path.includes(",")) {',
    replace: 'if (path.includes(",,")) {',
    description: "a path holding a comma splits a grant",
    tests: ["tests/permissions_test.ts", "tests/launcher_test.ts"],
  },
  {
    id: "permissions-install-any-write",
    module: "permissions",
    file: "lib/permissions.ts",
    search: "    `--allow-write=${claudeDir},${recordDir}`,",
    replace: '    "--allow-write",',
    description: "install may write anywhere",
    tests: ["tests/permissions_test.ts"],
  },

  // installer edits
  {
    id: "install-rewrites-same-hook",
    module: "installer edits",
    file: "install/_settings.ts",
    search:
      "if (JSON.stringify(nodeValue(current, found.hookNode)) === JSON.stringify(desired)) continue;",
    replace: "",
    description: "an entry already current is written again",
    tests: ["tests/install_settings_test.ts"],
  },
  {
    id: "install-drops-bom",
    module: "installer edits",
    file: "install/_settings.ts",
    search: "return { text: changes.length ? bom + current : text, changes };",
    replace: "return { text: changes.length ? current : text, changes };",
    description: "a settings file's byte order mark dropped",
    tests: ["tests/install_settings_test.ts"],
  },
  {
    id: "install-takes-others-hooks",
    module: "installer edits",
    file: "install/_settings.ts",
    search: 'if (typeof command === "string" && options.isOurs(command)) {',
    replace: 'if (typeof command === "string") {',
    description: "other tools' hooks taken for ours (and removed)",
    tests: ["tests/install_settings_test.ts"],
    quick: true,
  },
  {
    id: "install-fixed-indent",
    module: "installer edits",
    file: "install/_settings.ts",
    search: 'if (cut >= 0) return { unit: lead.slice(cut + 1) || "  ", eol };',
    replace: 'if (cut >= 0) return { unit: "  ", eol };',
    description: "the file's own indentation ignored",
    tests: ["tests/install_settings_test.ts"],
  },
  {
    id: "hook-command-no-exec",
    module: "installer edits",
    file: "lib/hook_command.ts",
    search: "const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;",
    replace: "const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./ -]+$/;",
    description: "a flag holding a space left unquoted",
    tests: ["tests/install_settings_test.ts"],
  },

  // bench gates
  {
    id: "gate-hook-budget",
    module: "bench gates",
    file: "bench/_gates.ts",
    search: "export const HOOK_P95_BUDGET_MS = 50;",
    replace: "export const HOOK_P95_BUDGET_MS = 60;",
    description: "the hook's p95 budget loosened",
    tests: [GATES],
    quick: true,
  },
  {
    id: "gate-rows-per-second",
    module: "bench gates",
    file: "bench/_gates.ts",
    search: "export const MIN_ROWS_PER_SECOND = 5000;",
    replace: "export const MIN_ROWS_PER_SECOND = 500;",
    description: "the ingest gate loosened",
    tests: [GATES],
  },

  // The spec's acceptance criteria: each breaks the one behaviour its test names.
  {
    id: "acceptance-prompt-hash-not-redacted",
    module: "acceptance",
    file: "lib/rows.ts",
    search: "draft.prompt_hash = blake3Hex(draft.prompt_redacted);",
    replace: "draft.prompt_hash = blake3Hex(`${draft.prompt_redacted}\\n`);",
    description: "prompt_hash is no longer the hash of the redacted prompt",
    tests: [ACCEPTANCE],
    filter: "AC 1:",
  },
  {
    id: "acceptance-stop-counts-successes-only",
    module: "acceptance",
    file: "lib/store.ts",
    search: "COALESCE(SUM(kind = ?), 0) AS tools,",
    replace:
      "COALESCE(SUM(kind = ? AND json_extract(payload, '$.outcome') = 'success'), 0) AS tools,",
    description: "a Stop's tool_use_count leaves out failed tool runs",
    tests: [ACCEPTANCE],
    filter: "AC 14:",
  },
  {
    id: "acceptance-status-first-line",
    module: "acceptance",
    file: "install/_status.ts",
    search: 'if (missing.length === 0) return "installed";',
    replace: 'if (missing.length === 0) return "partly installed: none";',
    description: "status no longer says installed",
    tests: [ACCEPTANCE],
    filter: "AC 22:",
  },
  {
    id: "acceptance-redactions-label",
    module: "acceptance",
    file: "daemon/_otel.ts",
    search: "if (count > 0) instruments.hookRedactions.add(count, { pattern });",
    replace:
      'if (count > 0) instruments.hookRedactions.add(count, { pattern: pattern.replaceAll("_", "-") });',
    description: "the redaction counter's pattern label is not the spec's name",
    tests: [ACCEPTANCE],
    filter: "AC 24:",
  },
  {
    id: "acceptance-hook-prints",
    module: "acceptance",
    file: "hook/main.ts",
    search: "Deno.exit(0);",
    replace: 'console.log("captured");\nDeno.exit(0);',
    description: "the hook prints on stdout (Claude Code would feed it to the model)",
    tests: [ACCEPTANCE],
    filter: "MUST 2:",
  },
];
