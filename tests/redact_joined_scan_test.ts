/**
 * Many short texts scanned as one (`lib/redact/_joined_scan.ts`): each
 * finding comes back in its own text, at its offsets there.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Finding } from "../lib/redact/_engine.ts";
import { scanEach } from "../lib/redact/_joined_scan.ts";

/** Finds each match of `pattern` in a text, counting the scans. */
function finder(pattern: RegExp): { scan: (text: string) => Finding[]; scans: string[] } {
  const scans: string[] = [];
  const scan = (text: string) => {
    scans.push(text);
    return [...text.matchAll(pattern)].map((m) => ({
      ruleId: "r",
      metricLabel: "r",
      placeholder: "<R>",
      start: m.index,
      end: m.index + m[0].length,
    }));
  };
  return { scan, scans };
}

Deno.test({
  name: "scanEach() scans once and puts each finding in its own value, at its offsets there",
  permissions: "none",
  fn() {
    const { scan, scans } = finder(/SECRET/g);
    const values = ["a SECRET", "", "SECRET b SECRET", "none"];
    const found = scanEach(values, scan);
    assert.equal(scans.length, 1);
    assert.deepEqual(
      found.map(({ index, finding }) => [index, finding.start, finding.end]),
      [[0, 2, 8], [2, 0, 6], [2, 9, 15]],
    );
    for (const { index, finding } of found) {
      assert.equal(values[index]!.slice(finding.start, finding.end), "SECRET");
    }
  },
});

Deno.test({
  name: "scanEach() drops a finding across the line between two values",
  permissions: "none",
  fn() {
    const { scan } = finder(/B\nC|C/g);
    const found = scanEach(["AB", "CD", "C"], scan);
    assert.deepEqual(found.map(({ index, finding }) => [index, finding.start]), [[2, 0]]);
  },
});

Deno.test({
  name: "scanEach() sorts what the scan returns out of order, and keeps line breaks inside a value",
  permissions: "none",
  fn() {
    const scan = (text: string): Finding[] =>
      [text.lastIndexOf("x"), text.indexOf("x")].map((start) => ({
        ruleId: "r",
        metricLabel: "r",
        placeholder: "<R>",
        start,
        end: start + 1,
      }));
    const found = scanEach(["one\nx", "x two"], scan);
    assert.deepEqual(found.map(({ index, finding }) => [index, finding.start]), [[0, 4], [1, 0]]);
  },
});

Deno.test({
  name: "scanEach() of no values does not scan",
  permissions: "none",
  fn() {
    const { scan, scans } = finder(/x/g);
    assert.deepEqual(scanEach([], scan), []);
    assert.equal(scans.length, 0);
  },
});
