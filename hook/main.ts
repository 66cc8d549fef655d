/**
 * The capture hook Claude Code runs for `UserPromptSubmit`, `PostToolUse`,
 * `PostToolUseFailure` and `Stop`. It reads one payload on stdin, redacts it,
 * sends one frame to the daemon and spools it, and exits 0 with stdout untouched,
 * whatever happens; anything but `ok` is one WARN line on stderr.
 *
 * Usage: `hook/main.ts [--socket PATH] [--trace-dir PATH] [--allow-email-domain D]... [--tool-detail hash|subject] EVENT`
 * (the paths default to DESIGN.md's defaults; of the environment the hook reads only `TRACEPARENT`).
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
import { DEFAULT_SOCKET_PATH, DEFAULT_TRACE_DIR, spoolDir } from "../lib/paths.ts";
import { pruneSpool, spoolFileName, writeSpoolFile } from "../lib/spool.ts";
import { distrustOf, fallbackTraceId, prepareTraceDir, sessionTraceId } from "../lib/trace_id.ts";
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
  let socket: string | undefined = DEFAULT_SOCKET_PATH;
  let traceDir: string | undefined = DEFAULT_TRACE_DIR;
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

function traceIdFor(args: HookArgs, sessionId: string, uid: number): {
  traceId: string;
  trusted: boolean;
} {
  try {
    const distrust = prepareTraceDir(args.traceDir, { uid });
    if (distrust !== undefined) {
      warn("trace_dir_untrusted", `${args.traceDir} ${distrust}; nothing is written there`);
      return { traceId: fallbackTraceId(sessionId), trusted: false };
    }
    return {
      traceId: sessionTraceId(args.traceDir, sessionId, { nowMs: Date.now() }),
      trusted: true,
    };
  } catch (error) {
    warn("trace_dir_untrusted", `${args.traceDir}: ${(error as Error).message}`);
    return { traceId: fallbackTraceId(sessionId), trusted: false };
  }
}

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
    });
  } catch (error) {
    return redactionFailedDraft(parsed.payload.session_id, context, { error });
  }
}

function spool(dir: string, name: string, bytes: Uint8Array): void {
  try {
    try {
      writeSpoolFile(dir, name, bytes);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      Deno.mkdirSync(dir, { mode: 0o700 });
      writeSpoolFile(dir, name, bytes);
    }
  } catch (error) {
    warn("socket_unavailable", `cannot spool to ${dir}: ${(error as Error).message}`);
  }
}

function socketDistrust(path: string, uid: number): string | undefined {
  try {
    return distrustOf(Deno.lstatSync(path), uid, "socket");
  } catch {
    return undefined; // Missing: connect reports socket_unavailable.
  }
}

async function main(): Promise<void> {
  const args = parseArgs(Deno.args);
  if (typeof args === "string") return warn("invalid_payload", args);
  const uid = args.asUid ?? Deno.uid() ?? -1;
  let distrust: string | undefined;
  let connection: PendingConnection | undefined;
  // The connection is made while the rest of a large payload is on its way; a
  // payload that turns out invalid leaves it unused (the daemon reads nothing).
  const input = readStdin(() => {
    distrust = socketDistrust(args.socket, uid);
    connection = distrust === undefined ? connectEarly(args.socket) : undefined;
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
  const { traceId, trusted } = traceIdFor(args, parsed.payload.session_id, uid);
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
  if (connection === undefined) {
    warn("socket_untrusted", `${args.socket} ${distrust}; the frame stays in the spool`);
    outcome = "socket_unavailable";
  } else {
    // Left open: the exit below closes it, and only then does the daemon read the end.
    const sent = await sendFrame(connection, bytes, { close: false });
    outcome = sent.outcome;
    if (outcome !== "ok") warn(outcome, `${args.socket}: ${sent.detail}`);
  }
  // Spooled once the frame is on the socket (or could not be), before the daemon
  // sees the connection end, under a name that carries a failed run's outcome:
  // the daemon deletes the file only after committing the frame, and a file
  // that comes late is settled by the drain.
  if (trusted) {
    const dir = spoolDir(args.traceDir);
    spool(dir, spoolFileName(capturedAtNs, frame.id, outcome), bytes);
    // Listing a full spool costs milliseconds, so only one failed run in 16 pays for it.
    if (outcome !== "ok" && Math.random() < 1 / 16) {
      try {
        pruneSpool(dir);
      } catch {
        // The spool is gone.
      }
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
