/**
 * Fitting a frame under the 16 MiB limit. Redaction can make a text longer
 * (a four-character password becomes `<PASSWORD>`), so a payload that was
 * just under the hook's 16 MiB stdin limit may no longer fit in a frame;
 * then the row was lost. {@linkcode encodeFittedFrame} cuts the longest
 * already-redacted strings of the payload until it fits, each cut marked,
 * so the row is still stored.
 *
 * @module
 */

import { encodeFrame, type Frame, MAX_FRAME_BYTES } from "./frame.ts";

/** What ends a string cut to fit the frame. */
export const CUT_MARKER = "…[cut to fit the 16 MiB frame]";

/** Cuts made to fit, and the encoded frame. */
export interface FittedFrame {
  /** The frame's bytes, length prefix included. */
  bytes: Uint8Array;
  /** How many strings were cut (0 when the frame fitted as it was). */
  cuts: number;
}

/**
 * Encodes `frame`; when its body is over the limit, cuts the longest string
 * inside `frame.payload` by the excess (and a margin), marks the cut, and
 * tries again. The frame is changed in place. Throws what `encodeFrame`
 * throws when nothing is left to cut.
 */
export function encodeFittedFrame(frame: Frame): FittedFrame {
  for (let cuts = 0;; cuts++) {
    try {
      return { bytes: encodeFrame(frame), cuts };
    } catch (error) {
      if (!(error instanceof RangeError) || cuts >= 8) throw error;
      const excess = new TextEncoder().encode(JSON.stringify(frame)).length - MAX_FRAME_BYTES;
      if (!cutLongestString(frame.payload, excess + 64 * 1024)) throw error;
    }
  }
}

/** Cuts the longest string under `root` by `chars` and marks it; false when there is none. */
function cutLongestString(root: Record<string, unknown>, chars: number): boolean {
  let best:
    | { holder: Record<string | number, unknown>; key: string | number; length: number }
    | null = null;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    const holder = node as Record<string | number, unknown>;
    for (const key of Object.keys(holder)) {
      const value = holder[key];
      if (typeof value === "string") {
        if (best === null || value.length > best.length) {
          best = { holder, key, length: value.length };
        }
      } else if (value !== null && typeof value === "object") stack.push(value);
    }
  }
  if (best === null || best.length <= CUT_MARKER.length) return false;
  const text = best.holder[best.key] as string;
  best.holder[best.key] = text.slice(0, Math.max(0, text.length - chars)) + CUT_MARKER;
  return true;
}
