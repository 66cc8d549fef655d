/**
 * The hook's first read of stdin, made as the bundle starts, before the
 * rest of its top-level code runs (this module is `hook/main.ts`'s first
 * import, so it is evaluated first). A payload over 64 KB (a pipe's size)
 * arrives in pieces, each written only once the previous one is read: read
 * this early, the next piece comes in while the hook loads its rules instead
 * of while it waits.
 *
 * Nothing is read for `--help` or `-h`: a person at a terminal would have to
 * type an end of input first.
 *
 * @module
 */

import { MAX_FRAME_BYTES } from "../lib/frame.ts";

/** What the first read got: the buffer it read into, and its count or its error. */
export interface FirstRead {
  /** One buffer for the largest payload allowed, read into in place. */
  buffer: Uint8Array;
  /** Bytes read, or `null` when stdin was already at its end. */
  count: number | null;
  /**
   * Why stdin could not be read (it was closed, say), kept for the hook to
   * report: thrown here, it would end the process with an error before the
   * hook could say why and exit 0.
   */
  error?: Error;
}

function readFirst(): FirstRead | undefined {
  if (Deno.args.includes("--help") || Deno.args.includes("-h")) return undefined;
  // Memory is mapped only where the payload lands, so the unused rest costs nothing,
  // and no payload is copied to a larger buffer halfway.
  const buffer = new Uint8Array(MAX_FRAME_BYTES + 1);
  try {
    return { buffer, count: Deno.stdin.readSync(buffer) };
  } catch (error) {
    return { buffer, count: null, error: error as Error };
  }
}

/** The first read of stdin, or `undefined` when the hook was asked for its usage. */
export const firstRead: FirstRead | undefined = readFirst();
