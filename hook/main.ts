/**
 * The capture hook Claude Code runs for `UserPromptSubmit`, `PostToolUse`,
 * `PostToolUseFailure` and `Stop`. It reads one payload on stdin, redacts it,
 * sends one frame to the daemon and spools it, and exits 0 with stdout untouched,
 * whatever happens; anything but `ok` is one WARN line on stderr.
 *
 * Usage: `hook/main.ts --socket PATH --trace-dir PATH [--allow-email-domain D]... [--tool-detail hash|subject] EVENT`
 * (`install` writes the paths; of the environment the hook reads only `TRACEPARENT`).
 *
 * Trust: the trace dir is checked (a real folder of this user, mode 0700) at
 * the first read of stdin, and again (same device and inode) before the
 * frame is spooled. A socket inside that folder needs nothing more: nobody
 * else can bind there. Any other socket must exist and belong to this user,
 * checked right before the connect and again right after it (the same
 * inode); a missing one is never connected to, since another user could bind
 * it between a check and a connect (docs/security.md).
 * Two test seams, never written by `install`: `--fail-redaction` makes the
 * redactor throw (the fail-closed path), `--as-uid N` makes the trust checks
 * expect another uid (for tests that cannot chown a socket).
 *
 * @module
 */

import { HOOK_EVENTS, type HookEvent, isHookEvent, ROW_KINDS } from "../lib/kinds.ts";
import { parseHookPayload } from "../lib/payload.ts";
import { buildDraft, type Draft, redactionFailedDraft } from "../lib/draft.ts";
import { type Frame, FRAME_VERSION, MAX_FRAME_BYTES, newFrameId } from "../lib/frame.ts";
import { connectEarly, type PendingConnection, sendFrame } from "../lib/send.ts";
import { dirname, spoolDir } from "../lib/paths.ts";
import { pruneSpool, spoolFileName, writeSpoolFile } from "../lib/spool.ts";
import { fallbackTraceId, sessionTraceId } from "../lib/trace_id.ts";
import {
  checkPrivateDir,
  checkSocket,
  connectChecked,
  recheck,
  type TrustCheck,
  UntrustedSocket,
} from "../lib/trust.ts";
import type { Outcome } from "../lib/outcomes.ts";
import { decodeUtf8 } from "../lib/utf8.ts";
import { parseJsonQuietly } from "../lib/json_parse.ts";
import { redactText } from "../lib/redact/mod.ts";
import { traceparentFromEnv } from "../lib/traceparent.ts";
import { encodeFittedFrame } from "../lib/frame_fit.ts";
import { isToolDetail, TOOL_DETAILS, type ToolDetail } from "../lib/subject.ts";

interface HookArgs {
  event: HookEvent;
  socket: string;
  traceDir: string;
  allowEmailDomains: string[];
  /** `--tool-detail subject`: tool rows carry a short redacted subject. */
  toolDetail: ToolDetail;
  /** Test seam: make the redactor throw, to prove the fail-closed path. */
  failRedaction: boolean;
  /** Test seam: the uid the trust checks expect, for tests that cannot chown. */
  asUid: number | undefined;
}

const startedAtNs = Math.round(performance.timeOrigin * 1e3) * 1e3;

function warn(word: string, detail: string): void {
  const line = `cyberos-memory hook: WARN ${word}: ${detail}\n`;
  try {
    Deno.stderr.writeSync(new TextEncoder().encode(line));
  } catch {
    // Nowhere left to say it.
  }
}

function parseArgs(argv: string[]): HookArgs | string {
  let socket: string | undefined;
  let traceDir: string | undefined;
  let event: string | undefined;
  const allowEmailDomains: string[] = [];
  let toolDetail: string | undefined = "hash";
  let failRedaction = false;
  let asUid: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--socket") socket = argv[++i];
    else if (arg === "--trace-dir") traceDir = argv[++i];
    else if (arg === "--allow-email-domain") allowEmailDomains.push(argv[++i] ?? "");
    else if (arg === "--tool-detail") toolDetail = argv[++i];
    else if (arg === "--fail-redaction") failRedaction = true;
    else if (arg === "--as-uid") asUid = Number(argv[++i]);
    else if (!arg.startsWith("-") && event === undefined) event = arg;
    else return `unexpected argument "${arg}"`;
  }
  if (!isHookEvent(event)) {
    return `the event must be one of ${Object.keys(HOOK_EVENTS).join(", ")}, got "${event}"`;
  }
  if (!socket?.startsWith("/") || !traceDir?.startsWith("/")) {
    return "--socket and --trace-dir must be absolute paths";
  }
  if (!isToolDetail(toolDetail)) {
    return `--tool-detail must be ${TOOL_DETAILS.join(" or ")}, got "${toolDetail}"`;
  }
  return { event, socket, traceDir, allowEmailDomains, toolDetail, failRedaction, asUid };
}

/**
 * Reads all of stdin. `afterFirstRead` runs once, after the first read: a
 * payload over 64 KB (a pipe's size) arrives in pieces, each waiting for
 * Claude Code to wake and write the next, and that wait is time the hook can
 * spend on work that does not need the payload.
 */
function readStdin(afterFirstRead: () => void): Uint8Array | undefined {
  // One buffer for the largest payload allowed, read into in place. Memory is
  // mapped only where the payload lands, so the unused rest costs nothing,
  // and no payload is copied to a larger buffer halfway.
  const buffer = new Uint8Array(MAX_FRAME_BYTES + 1);
  let total = 0;
  let first = true;
  while (total < buffer.length) {
    const n = Deno.stdin.readSync(buffer.subarray(total));
    if (first) {
      first = false;
      afterFirstRead();
    }
    if (n === null) return buffer.subarray(0, total);
    total += n;
  }
  return undefined;
}

/**
 * The trace dir's check, or the error that prevented it; `undefined` when it
 * is missing and `create` is off (at the first read of stdin nothing is made
 * yet: an invalid payload leaves no trace).
 */
function checkTraceDir(path: string, uid: number, create: boolean): TrustCheck | undefined {
  try {
    return checkPrivateDir(path, { uid, create });
  } catch (error) {
    if (!create && error instanceof Deno.errors.NotFound) return undefined;
    return { distrust: `cannot be used: ${(error as Error).message}` };
  }
}

function traceIdFor(args: HookArgs, sessionId: string, trace: TrustCheck): string {
  if (trace.distrust !== undefined) {
    warn("trace_dir_untrusted", `${args.traceDir} ${trace.distrust}; nothing is written there`);
    return fallbackTraceId(sessionId);
  }
  try {
    return sessionTraceId(args.traceDir, sessionId, { nowMs: Date.now() });
  } catch (error) {
    warn("trace_dir_untrusted", `${args.traceDir}: ${(error as Error).message}`);
    return fallbackTraceId(sessionId);
  }
}

/**
 * How long redaction may run, ms. Claude Code kills the hook after the
 * installed timeout (5 s), and then the row is lost; reading, framing, sending
 * and spooling 16 MiB take well under the rest. Past the budget the row is
 * stored without content (`redaction_failed`), never with unredacted text.
 */
const REDACTION_BUDGET_MS = 1500;

function draftFor(
  args: HookArgs,
  parsed: ReturnType<typeof parseHookPayload>,
  context: { traceId: string; capturedAtNs: number },
): Draft {
  try {
    if (args.failRedaction) throw new Error("redaction forced to fail (--fail-redaction)");
    return buildDraft(parsed.payload, context, {
      allowEmailDomains: args.allowEmailDomains,
      toolDetail: args.toolDetail,
      deadline: performance.now() + REDACTION_BUDGET_MS,
    });
  } catch (error) {
    return redactionFailedDraft(parsed.payload.session_id, context, { error });
  }
}

/**
 * Spools the frame, if the trace dir is still the folder checked at the start
 * and its spool a private folder of ours (never a symlink out of the grant).
 */
function spool(
  args: HookArgs,
  trace: TrustCheck,
  uid: number,
  file: { name: string; bytes: Uint8Array },
): boolean {
  try {
    const distrust = trace.identity
      ? recheck(args.traceDir, trace.identity, { uid, want: "folder" })
      : trace.distrust;
    if (distrust !== undefined) {
      warn("trace_dir_untrusted", `${args.traceDir} ${distrust}; the frame is not spooled`);
      return false;
    }
    const dir = spoolDir(args.traceDir);
    const checked = checkPrivateDir(dir, { uid, create: true });
    if (checked.distrust !== undefined) {
      warn("trace_dir_untrusted", `${dir} ${checked.distrust}; the frame is not spooled`);
      return false;
    }
    writeSpoolFile(dir, file.name, file.bytes);
    return true;
  } catch (error) {
    warn("socket_unavailable", `cannot spool to ${args.traceDir}: ${(error as Error).message}`);
    return false;
  }
}

/**
 * Starts the connect once the socket is trusted: inside the trusted trace dir
 * at once, anywhere else only when it exists and is ours (checked again once
 * connected). `undefined` when there is nothing to connect to.
 */
function connectTrusted(
  args: HookArgs,
  trace: TrustCheck | undefined,
  uid: number,
): PendingConnection {
  if (trace?.identity && dirname(args.socket) === args.traceDir) return connectEarly(args.socket);
  let socket: TrustCheck;
  try {
    socket = checkSocket(args.socket, { uid });
  } catch (error) {
    return Promise.resolve(error as Error);
  }
  if (socket.distrust !== undefined) {
    return Promise.resolve(new UntrustedSocket(args.socket, socket.distrust));
  }
  return connectChecked(args.socket, socket.identity, { uid });
}

/** For a person who runs `deno task hook --help`; Claude Code never passes it. */
const USAGE =
  `usage: deno task hook [--socket PATH] [--trace-dir PATH] [--allow-email-domain D]... EVENT

Claude Code runs this with one hook payload on stdin (install writes the command).
EVENT: ${Object.keys(HOOK_EVENTS).join(", ")}. Always exits 0 with stdout empty;
anything but a stored frame is one WARN line on stderr (docs/cli.md).
`;

async function main(): Promise<void> {
  if (Deno.args.includes("--help") || Deno.args.includes("-h")) {
    return void Deno.stdout.writeSync(new TextEncoder().encode(USAGE));
  }
  const args = parseArgs(Deno.args);
  if (typeof args === "string") return warn("invalid_payload", args);
  const uid = args.asUid ?? Deno.uid() ?? -1;
  let trace: TrustCheck | undefined;
  // No Error made here: capturing its stack makes V8 compile source positions for the bundle (3 ms).
  let connection: PendingConnection | undefined;
  // The connection is made while the rest of a large payload is on its way; a
  // payload that turns out invalid leaves it unused (the daemon reads nothing).
  const input = readStdin(() => {
    trace = checkTraceDir(args.traceDir, uid, false);
    connection = connectTrusted(args, trace, uid);
  });
  if (input === undefined) return warn("invalid_payload", "stdin exceeds the 16 MiB limit");
  let parsed: ReturnType<typeof parseHookPayload>;
  try {
    const text = decodeUtf8(input);
    parsed = parseHookPayload(parseJsonQuietly(text, "stdin"), HOOK_EVENTS[args.event]);
  } catch (error) {
    return warn("invalid_payload", (error as Error).message);
  }
  if (parsed.unknownKeys.length > 0) {
    // Key names are input too: redacted, and only Claude Code's snake_case shape is named.
    const named = parsed.unknownKeys.filter((key) => /^[a-z][a-z0-9_]{0,39}$/.test(key));
    const others = parsed.unknownKeys.length - named.length;
    const list = [...named, ...(others > 0 ? [`${others} other`] : [])].join(", ");
    warn("unknown_fields", `ignored ${redactText(list).text}`);
  }
  // A trace dir missing at the first read is made now, for a payload worth keeping.
  trace ??= checkTraceDir(args.traceDir, uid, true)!;
  const traceId = traceIdFor(args, parsed.payload.session_id, trace);
  const capturedAtNs = Math.round((performance.timeOrigin + performance.now()) * 1e3) * 1e3;
  const draft = draftFor(args, parsed, { traceId, capturedAtNs });
  const traceparent = traceparentFromEnv();
  const frame: Frame = {
    v: FRAME_VERSION,
    id: newFrameId(),
    kind: draft.kind,
    payload: draft.payload,
    telemetry: {
      hook_kind: args.event,
      started_at_ns: startedAtNs,
      ended_at_ns: Math.round((performance.timeOrigin + performance.now()) * 1e3) * 1e3,
      outcome: draft.kind === ROW_KINDS.redactionFailed ? "redaction_failed" : "ok",
      redactions: draft.counts,
      ...(traceparent === undefined ? {} : { traceparent }),
    },
  };
  let bytes: Uint8Array;
  try {
    // Redaction may have made the payload longer than a frame holds: the
    // longest strings are cut (and marked) rather than the row lost.
    bytes = encodeFittedFrame(frame).bytes;
  } catch (error) {
    return warn("invalid_payload", (error as Error).message);
  }
  let outcome: Outcome;
  const connected = await connection!;
  if (connected instanceof UntrustedSocket) {
    warn("socket_untrusted", `${connected.message}; the frame stays in the spool`);
    outcome = "socket_unavailable";
  } else {
    // Left open: the exit below closes it, and only then does the daemon read the end.
    const sent = await sendFrame(Promise.resolve(connected), bytes, { close: false });
    outcome = sent.outcome;
    if (outcome !== "ok") warn(outcome, `${args.socket}: ${sent.detail}`);
  }
  // Spooled once the frame is on the socket (or could not be), before the daemon
  // sees the connection end, under a name that carries a failed run's outcome:
  // the daemon deletes the file only after committing the frame, and a file
  // that comes late is settled by the drain.
  const spooled = trace.identity !== undefined &&
    spool(args, trace, uid, { name: spoolFileName(capturedAtNs, frame.id, outcome), bytes });
  // Listing a full spool costs milliseconds, so only one failed run in 16 pays for it.
  if (spooled && outcome !== "ok" && Math.random() < 1 / 16) {
    try {
      pruneSpool(spoolDir(args.traceDir));
    } catch {
      // The spool is gone.
    }
  }
  if (frame.telemetry.outcome === "redaction_failed") {
    warn("redaction_failed", "the row was stored without content");
  }
}

try {
  await main();
} catch (error) {
  warn("invalid_payload", `unexpected: ${(error as Error)?.message}`);
}
Deno.exit(0);
