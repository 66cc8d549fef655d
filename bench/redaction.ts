/**
 * Redaction in-process: realistic text of 4 KB, 64 KB and 1 MiB, and the
 * adversarial inputs of issue 3, as median time and time per byte.
 *
 * @module
 */

import { redactText } from "../lib/redact/mod.ts";
import { adversarialInputs, realisticInputs, repeatTo, rulePrefixes } from "./_payloads.ts";
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
  /** Median time per MiB, ms. */
  msPerMib: number;
}

/**
 * The inputs: realistic sizes, the adversarial 1 MiB strings, and 1 MiB of
 * every rule's prefix mixed (dense with real secrets, so the costliest).
 */
export function redactionInputs(): Array<[string, string]> {
  return [
    ...realisticInputs(),
    ...adversarialInputs().map(([name, text]): [string, string] => [`adversarial ${name}`, text]),
    ["adversarial rule prefixes mixed", repeatTo(rulePrefixes().join(" "), 1024 * 1024)],
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
    return {
      name,
      bytes: text.length,
      medianMs,
      nsPerByte: (medianMs * 1e6) / text.length,
      msPerMib: (medianMs * 1024 * 1024) / text.length,
    };
  });
}
