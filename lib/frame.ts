/**
 * The wire frame between hook and daemon: a 4-byte big-endian length N, then N
 * bytes of UTF-8 JSON. Our own contract, so the parser is strict: an unknown
 * key is an error.
 *
 * @module
 */

import { isOutcome, type Outcome } from "./outcomes.ts";
import { isRowKind, type RowKind } from "./kinds.ts";
import { stringifyJson } from "./json.ts";
import { isHex32 } from "./ids.ts";
import { parseJsonQuietly } from "./json_parse.ts";
import { parseTraceparent } from "./traceparent.ts";

/** The frame format version. */
export const FRAME_VERSION = 1;

/** The largest frame body, in bytes. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * The largest `captured_at_ns` a frame may carry: the store keeps it in a
 * SQLite INTEGER (signed 64 bits), so a larger one is refused here rather
 * than failing at the commit. The largest double below 2^63.
 */
export const MAX_CAPTURED_AT_NS = 2 ** 63 - 1024;

/** What the hook measured about its own run, for the daemon to export. */
export interface HookTelemetry {
  /** The hook event (`posttooluse`, …). */
  hook_kind: string;
  /** When the hook process started, ns since the epoch. */
  started_at_ns: number;
  /** When the frame was ready to send, ns since the epoch. */
  ended_at_ns: number;
  /** The hook's outcome as far as it knows (`ok` until sending fails). */
  outcome: Outcome;
  /** Replaced spans per redaction rule id. */
  redactions: Record<string, number>;
  /**
   * Claude Code's `TRACEPARENT` for this hook run (the turn's interaction
   * span), when it set a well-formed one.
   */
  traceparent?: string;
}

/** One frame. */
export interface Frame {
  /** Always {@linkcode FRAME_VERSION}. */
  v: typeof FRAME_VERSION;
  /** 32 lowercase hex, unique per hook run: the daemon stores each id once. */
  id: string;
  /** The row kind. */
  kind: RowKind;
  /** The row payload as the hook built it (the daemon completes it). */
  payload: Record<string, unknown>;
  /** The hook's own timings and counts. */
  telemetry: HookTelemetry;
}

/**
 * A fresh frame id: 32 lowercase hex. Frame ids must be unique (the daemon
 * stores each id once), not unguessable: whoever could forge a frame can
 * already write to the user's own socket. So they come from `Math.random`,
 * which V8 seeds for each process from the operating system, rather than
 * `crypto.getRandomValues`, whose first call cost the hook 0.15 ms.
 */
export function newFrameId(): string {
  let hex = "";
  for (let i = 0; i < 4; i++) {
    hex += Math.floor(Math.random() * 0x1_0000_0000).toString(16).padStart(8, "0");
  }
  return hex;
}

/** A frame that cannot be decoded, with the reason the daemon counts it under. */
export class FrameError extends Error {
  /** A short reason label: `oversize`, `bad_json`, `bad_shape`. */
  readonly reason: string;

  /** Makes a frame error with a reason label and a message. */
  constructor(reason: string, message: string) {
    super(message);
    this.name = "FrameError";
    this.reason = reason;
  }
}

const FRAME_KEYS = new Set(["v", "id", "kind", "payload", "telemetry"]);
const TELEMETRY_KEYS = new Set([
  "hook_kind",
  "started_at_ns",
  "ended_at_ns",
  "outcome",
  "redactions",
  "traceparent",
]);

/**
 * Encodes a frame: length prefix and JSON body in one buffer.
 *
 * @throws {RangeError} when the body exceeds {@linkcode MAX_FRAME_BYTES}.
 */
export function encodeFrame(frame: Frame): Uint8Array {
  const json = frameJson(frame);
  // Each UTF-16 unit takes at most 3 bytes of UTF-8.
  if (json.length > MAX_FRAME_BYTES) throw frameTooLarge(`at least ${json.length}`);
  // Encoded in place after the prefix: one copy of the body, not two. The
  // memory past its end is never touched, and a large allocation is mapped
  // lazily, so it costs nothing.
  const out = new Uint8Array(4 + json.length * 3);
  const { written } = new TextEncoder().encodeInto(json, out.subarray(4));
  if (written > MAX_FRAME_BYTES) throw frameTooLarge(`${written}`);
  new DataView(out.buffer).setUint32(0, written);
  return out.subarray(0, 4 + written);
}

function frameTooLarge(bytes: string): RangeError {
  return new RangeError(`Cannot encode frame: body of ${bytes} bytes exceeds the 16 MiB limit`);
}

function frameJson(frame: Frame): string {
  try {
    return JSON.stringify(frame);
  } catch (error) {
    // V8's stringify recurses; a deeply nested tool argument needs the iterative writer.
    if (error instanceof RangeError) return stringifyJson(frame);
    throw error;
  }
}

/**
 * Parses and validates one frame body (the JSON after the length prefix).
 *
 * @throws {FrameError} for invalid UTF-8 or JSON, or a wrong shape.
 */
export function parseFrameBody(body: Uint8Array): Frame {
  let value: unknown;
  try {
    value = parseJsonQuietly(new TextDecoder("utf-8", { fatal: true }).decode(body), "frame");
  } catch (error) {
    // Neither message quotes the body.
    throw new FrameError("bad_json", `Cannot decode frame: ${(error as Error).message}`);
  }
  return validateFrame(value);
}

/**
 * Checks that a parsed value is a {@linkcode Frame}, strictly.
 *
 * @throws {FrameError} naming the first wrong field.
 */
export function validateFrame(value: unknown): Frame {
  if (!isPlainObject(value)) throw shape("frame is not an object");
  for (const key of Object.keys(value)) {
    if (!FRAME_KEYS.has(key)) throw shape(`unknown key "${key}"`);
  }
  if (value.v !== FRAME_VERSION) throw shape(`v must be ${FRAME_VERSION}`);
  if (typeof value.id !== "string" || !isHex32(value.id)) throw shape("id must be 32 hex");
  if (!isRowKind(value.kind)) throw shape("unknown kind");
  if (!isPlainObject(value.payload)) throw shape("payload must be an object");
  if (typeof value.payload.session_id !== "string") throw shape("payload.session_id missing");
  const capturedAtNs = value.payload.captured_at_ns;
  if (
    !Number.isInteger(capturedAtNs) || (capturedAtNs as number) < 0 ||
    (capturedAtNs as number) > MAX_CAPTURED_AT_NS
  ) {
    throw shape("payload.captured_at_ns must be an integer from 0 to 2^63 - 1");
  }
  const telemetry = value.telemetry;
  if (!isPlainObject(telemetry)) throw shape("telemetry must be an object");
  for (const key of Object.keys(telemetry)) {
    if (!TELEMETRY_KEYS.has(key)) throw shape(`unknown key "telemetry.${key}"`);
  }
  if (typeof telemetry.hook_kind !== "string") throw shape("telemetry.hook_kind missing");
  if (!Number.isFinite(telemetry.started_at_ns) || !Number.isFinite(telemetry.ended_at_ns)) {
    throw shape("telemetry times must be numbers");
  }
  if (!isOutcome(telemetry.outcome)) throw shape("telemetry.outcome unknown");
  const redactions = telemetry.redactions;
  if (
    !isPlainObject(redactions) ||
    !Object.values(redactions).every((n) => Number.isInteger(n) && (n as number) >= 0)
  ) {
    throw shape("telemetry.redactions must map rule ids to counts");
  }
  if ("traceparent" in telemetry && parseTraceparent(telemetry.traceparent) === undefined) {
    throw shape("telemetry.traceparent must be a version-00 traceparent");
  }
  return value as unknown as Frame;
}

/** What {@linkcode FrameDecoder.push} yields: a frame, or the error for one bad frame. */
export type DecodedFrame = { frame: Frame } | { error: FrameError };

/** What {@linkcode FrameDecoder.split} yields: one frame's body, or the error that stopped the stream. */
export type FramePiece = { body: Uint8Array } | { error: FrameError };

/**
 * {@linkcode parseFrameBody} for one body split off the stream, with a bad
 * body's error returned instead of thrown.
 */
export function decodeFrameBody(body: Uint8Array): DecodedFrame {
  try {
    return { frame: parseFrameBody(body) };
  } catch (error) {
    return { error: error as FrameError };
  }
}

/**
 * Bytes a reader may hold for frames not yet parsed, shared by all its
 * connections: {@linkcode FrameDecoder} reserves a frame's length before it
 * holds the frame, and whoever parses the body releases it.
 */
export interface FrameBudget {
  /** Takes `bytes` from the budget; `false` (and nothing taken) when they do not fit. */
  reserve(bytes: number): boolean;
  /** Gives `bytes` back. */
  release(bytes: number): void;
}

/** Options for {@linkcode FrameDecoder}. */
export interface FrameDecoderOptions {
  /** Bytes shared with other connections; without it, only the frame limit bounds memory. */
  budget?: FrameBudget;
}

/**
 * Splits a byte stream into frames. A bad body is reported and skipped; an
 * oversize length cannot be resynchronised, nor can a frame the budget has
 * no room for, so the decoder then stops and the caller closes the
 * connection.
 *
 * A frame's bytes are copied once, into a buffer of exactly its length made
 * when its length prefix arrives (and reserved from the budget): no list of
 * read-sized pieces, no second copy when it completes.
 */
export class FrameDecoder {
  readonly #budget: FrameBudget | undefined;
  readonly #header = new Uint8Array(4);
  #headerFilled = 0;
  #body: Uint8Array | undefined;
  #bodyFilled = 0;
  #fatal = false;

  /** Makes a decoder for one connection. */
  constructor(options: FrameDecoderOptions = {}) {
    this.#budget = options.budget;
  }

  /** Whether an unrecoverable length was seen; the connection should close. */
  get fatal(): boolean {
    return this.#fatal;
  }

  /** Bytes held for a frame that is not complete yet. */
  get pending(): number {
    return this.#body === undefined ? this.#headerFilled : 4 + this.#bodyFilled;
  }

  /** Feeds bytes; returns every frame (or frame error) completed by them. */
  push(chunk: Uint8Array): DecodedFrame[] {
    return this.split(chunk).map((piece) => "body" in piece ? decodeFrameBody(piece.body) : piece);
  }

  /**
   * Feeds bytes (copied: the caller may reuse `chunk`); returns the body of
   * every frame completed by them, unparsed (for {@linkcode parseFrameBody}
   * later, and then the budget's release), or the error that stopped the
   * stream. Lets a reader hang up before it spends time parsing.
   */
  split(chunk: Uint8Array): FramePiece[] {
    if (this.#fatal) return [];
    const out: FramePiece[] = [];
    let at = 0;
    while (at < chunk.length || this.#body?.length === 0) {
      if (this.#body === undefined) {
        const take = Math.min(4 - this.#headerFilled, chunk.length - at);
        this.#header.set(chunk.subarray(at, at + take), this.#headerFilled);
        this.#headerFilled += take;
        at += take;
        if (this.#headerFilled < 4) break;
        this.#headerFilled = 0;
        const length = new DataView(this.#header.buffer).getUint32(0);
        const refused = this.#refusal(length);
        if (refused) {
          this.#fatal = true;
          out.push({ error: refused });
          break;
        }
        this.#body = new Uint8Array(length);
        this.#bodyFilled = 0;
      }
      const body = this.#body;
      const take = Math.min(body.length - this.#bodyFilled, chunk.length - at);
      body.set(chunk.subarray(at, at + take), this.#bodyFilled);
      this.#bodyFilled += take;
      at += take;
      if (this.#bodyFilled < body.length) break;
      out.push({ body });
      this.#body = undefined;
      this.#bodyFilled = 0;
    }
    return out;
  }

  /** Drops a frame not completed (its connection ended) and gives its bytes back. */
  discard(): void {
    if (this.#body !== undefined) this.#budget?.release(this.#body.length);
    this.#body = undefined;
    this.#bodyFilled = 0;
    this.#headerFilled = 0;
  }

  #refusal(length: number): FrameError | undefined {
    if (length > MAX_FRAME_BYTES) {
      return new FrameError(
        "oversize",
        `Cannot decode frame: length ${length} exceeds the 16 MiB limit`,
      );
    }
    if (this.#budget && !this.#budget.reserve(length)) {
      return new FrameError(
        "busy",
        `Cannot take frame: its ${length} bytes do not fit in what other connections hold already`,
      );
    }
    return undefined;
  }
}

function shape(detail: string): FrameError {
  return new FrameError("bad_shape", `Cannot decode frame: ${detail}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
