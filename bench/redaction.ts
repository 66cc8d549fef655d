/**
 * Redaction in-process: realistic text of 4 KB, 64 KB and 1 MiB, the
 * adversarial inputs of issue 3, the mix of every rule's prefix and the
 * slowest single prefix (issue 21), as median time and time per byte, and
 * the least CPU time per MiB, which the gate reads.
 *
 * @module
 */

import process from "node:process";
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
  /**
   * The least CPU time of the runs, per MiB, ms: time waiting for a core on
   * a shared machine does not count, and a busy machine only ever adds time.
   */
  cpuMsPerMib: number;
  /**
   * For an adversarial 1 MiB input, the least CPU time per MiB of realistic
   * text timed in turn with it, run for run: the gates' ratios compare the
   * two side by side, so that a shared machine's busy moments fall on both.
   */
  besideCpuMsPerMib?: number;
}

/** The name of the input that mixes every rule's prefix (its own gate, see `_gates.ts`). */
export const MIX_INPUT = "adversarial rule prefixes mixed";

/**
 * The inputs: realistic sizes, the adversarial 1 MiB strings, and 1 MiB of
 * every rule's prefix mixed (dense with real secrets, so the costliest).
 */
export function redactionInputs(): Array<[string, string]> {
  return [
    ...realisticInputs(),
    ...adversarialInputs().map(([name, text]): [string, string] => [`adversarial ${name}`, text]),
    [MIX_INPUT, repeatTo(rulePrefixes().join(" "), 1024 * 1024)],
  ];
}

/** Times each input, enough runs for a stable median on small inputs. */
export function measureRedaction(): RedactionTiming[] {
  const realistic = realisticInputs().find(([name]) => name === REALISTIC_1MIB)![1];
  const timings = redactionInputs().map(([name, text]) =>
    timeRedaction(name, text, name.startsWith("adversarial") ? realistic : undefined)
  );
  timings.push(slowestPrefix(realistic));
  return timings;
}

/** The realistic input the ratio gates compare with. */
export const REALISTIC_1MIB = "text 1 MiB";

/** CPU time of one redaction, ms. */
function cpuMsOf(text: string): number {
  const cpu = process.cpuUsage();
  redactText(text);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000;
}

function timeRedaction(name: string, text: string, beside?: string): RedactionTiming {
  // Nine runs of the 1 MiB inputs: the gates read the least CPU time, and on a shared machine
  // five did not always meet a quiet moment.
  const runs = text.length <= 4096 ? 400 : text.length <= 65536 ? 60 : 9;
  redactText(text);
  const times: number[] = [];
  let leastCpuMs = Infinity;
  let leastBesideCpuMs = Infinity;
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    redactText(text);
    times.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    leastCpuMs = Math.min(leastCpuMs, (used.user + used.system) / 1000);
    if (beside !== undefined) leastBesideCpuMs = Math.min(leastBesideCpuMs, cpuMsOf(beside));
  }
  const medianMs = percentile(times, 50);
  const perMib = (1024 * 1024) / text.length;
  const timing: RedactionTiming = {
    name,
    bytes: text.length,
    medianMs,
    nsPerByte: (medianMs * 1e6) / text.length,
    msPerMib: medianMs * perMib,
    cpuMsPerMib: leastCpuMs * perMib,
  };
  if (beside !== undefined) {
    timing.besideCpuMsPerMib = leastBesideCpuMs * (1024 * 1024) / beside.length;
  }
  return timing;
}

/** How many of the slowest prefixes at 256 KiB are timed again at 1 MiB. */
const PREFIX_FINALISTS = 5;

/**
 * The slowest rule prefix repeated to 1 MiB, named by the prefix: every
 * prefix is timed once at 256 KiB (all of them at 1 MiB would take minutes),
 * and the five slowest again at 1 MiB, nine runs each, in turn with
 * `realistic` when given.
 */
export function slowestPrefix(realistic?: string): RedactionTiming {
  const swept = rulePrefixes().map((prefix) => {
    const text = repeatTo(prefix, 256 * 1024);
    redactText(text);
    const started = performance.now();
    redactText(text);
    return { prefix, ms: performance.now() - started };
  });
  const finalists = swept.sort((a, b) => b.ms - a.ms).slice(0, PREFIX_FINALISTS);
  return finalists
    .map(({ prefix }) =>
      timeRedaction(
        `adversarial slowest rule prefix ${JSON.stringify(prefix)}`,
        repeatTo(prefix, 1024 * 1024),
        realistic,
      )
    )
    .reduce((a, b) => (b.cpuMsPerMib > a.cpuMsPerMib ? b : a));
}
