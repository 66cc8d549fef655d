/**
 * Redaction in-process: realistic text of 4 KB, 64 KB and 1 MiB, and the
 * adversarial inputs of issue 3, as median time and time per byte.
 *
 * @module
 */

import { redactText } from "../lib/redact/mod.ts";
import { textWithSecrets } from "./_payloads.ts";
import { percentile } from "./_stats.ts";

/** One input's timing. */
export interface RedactionTiming {
  /** The input's name. */
  name: string;
  /** Its size in bytes. */
  bytes: number;
  /** Median time, ms. */
  medianMs: number;
  /** Median time per byte, ns. */
  nsPerByte: number;
}

const MIB = 1024 * 1024;

/** The inputs: realistic sizes, then adversarial 1 MiB strings. */
export function redactionInputs(): Array<[string, string]> {
  return [
    ["text 4 KB", textWithSecrets(4096)],
    ["text 64 KB", textWithSecrets(64 * 1024)],
    ["text 1 MiB", textWithSecrets(MIB)],
    ["adversarial a×1M", "a".repeat(MIB)],
    ["adversarial digits", "0123456789".repeat(MIB / 10)],
    ["adversarial sk-", "sk-".repeat(MIB / 3)],
    ["adversarial eyJ", "eyJ".repeat(MIB / 3)],
    ["adversarial x@", "x@".repeat(MIB / 2)],
    ["adversarial +84", "+84 ".repeat(MIB / 4)],
  ];
}

/** Times each input, enough runs for a stable median on small inputs. */
export function measureRedaction(): RedactionTiming[] {
  return redactionInputs().map(([name, text]) => {
    const runs = text.length <= 4096 ? 400 : text.length <= 65536 ? 60 : 5;
    redactText(text);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      redactText(text);
      times.push(performance.now() - started);
    }
    const medianMs = percentile(times, 50);
    return { name, bytes: text.length, medianMs, nsPerByte: (medianMs * 1e6) / text.length };
  });
}
