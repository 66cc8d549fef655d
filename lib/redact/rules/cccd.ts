/**
 * Vietnamese citizen ids (CCCD): 12 digits that are structurally valid
 * (province code, century digit, birth year) and have id context nearby
 * (CCCD, CMND, căn cước, số định danh, citizen/national id, id_number).
 * Without context, a 12-digit number is an order, invoice or tracking number.
 *
 * @module
 */

import type { Candidate, Rule } from "../_engine.ts";
import { cccdProblem } from "../_validators.ts";

function structure(c: Candidate): string | undefined {
  return cccdProblem(c.secret);
}

function idContext(c: Candidate): string | undefined {
  const window = c.text.slice(Math.max(0, c.start - 160), c.end + 60).toLowerCase();
  const context =
    /cccd|cmnd|căn[ _]cước|can[ _]cuoc|định[ _]danh|dinh[ _]danh|chứng[ _]minh|chung[ _]minh|citizen|national[ _-]?id|id[ _-]?number|identity|id[ _-]?card/;
  return context.test(window) ? undefined : "no id context within 160 characters";
}

/** 12-digit CCCD with id context. */
export const cccd: Rule = {
  id: "vn_cccd",
  description: "Vietnamese citizen id (CCCD), 12 digits with structure and id context",
  placeholder: "<VN_CCCD>",
  keywords: [
    "cccd",
    "cmnd",
    "căn cước",
    "can cuoc",
    "can_cuoc",
    "định danh",
    "dinh danh",
    "dinh_danh",
    "chứng minh",
    "chung minh",
    "citizen",
    "national",
    "number",
    "identity",
    "card",
  ],
  // The card rule asks every text for its digit cluster, so this costs nothing
  // and spares thirteen keyword scans of a text without a 12-digit number.
  precheck: (facts) => facts.digitCluster() >= 12,
  precheckFirst: true,
  pattern: () => /(?<![\d.,/-])\d{12}(?!\d|[.,]\d)/dg,
  priority: 250,
  validators: [structure, idContext],
  allowlist: [],
  truePositives: ["số CCCD: 001204012345", "citizen id 079188001122 verified"],
  falsePositives: [
    // No id context.
    "tracking 079188001122 stuck in transit",
    // Context but an impossible province code.
    "CCCD 999188001122",
  ],
};
