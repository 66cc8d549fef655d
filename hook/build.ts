/**
 * `deno task bundle`: builds `hook/dist/hook.js`, the one file `install`
 * points at, from `hook/main.ts`.
 *
 * Three steps, each measured to pay (bench/README.md):
 *
 * 1. `deno bundle --minify` inlines every module, so Deno loads one file
 *    instead of ~45.
 * 2. {@linkcode dropRuleSamples} removes what only reviewers and tests read
 *    from each redaction rule (a quarter of the file).
 * 3. {@linkcode markEager} puts every function in parentheses. V8 compiles a
 *    function lazily, at its first call, unless it is parenthesised; and Deno
 *    caches the bytecode V8 compiled before the module ran. So without the
 *    parentheses each hook run compiled its own functions again (about 2 ms
 *    of a 4 KB prompt's run); with them they come from Deno's code cache.
 *
 * Usage: `hook/build.ts [--out PATH]` (default `hook/dist/hook.js`).
 *
 * @module
 */

import { parse } from "acorn";
import { fullAncestor } from "acorn-walk";
import { DEFAULT_HOOK_SCRIPT } from "../lib/hook_command.ts";
import { type CommandSpec, EXIT, optionValue, parseOrExit } from "../lib/cli.ts";
import { fileUrlToPath } from "../lib/file_url.ts";

const BUNDLE_SPEC: CommandSpec = {
  command: "bundle",
  usage: `usage: deno task bundle [--out PATH]

Builds hook/dist/hook.js, the one file install points the hooks at, from hook/main.ts.
Run it after changing hook/ or anything it imports (a test checks the two agree).

  --out PATH  write the bundle there instead (default: hook/dist/hook.js)

Exit codes: 0 written, 1 failed (nothing written), 2 bad usage.`,
  options: [{ name: "--out", value: "PATH" }],
};

const ENTRY = fileUrlToPath(new URL("./main.ts", import.meta.url));

interface Span {
  start: number;
  end: number;
}

interface SyntaxNode extends Span {
  type: string;
  key?: { name?: string; value?: unknown };
  properties?: SyntaxNode[];
  method?: boolean;
  kind?: string;
  declaration?: SyntaxNode | null;
  body?: SyntaxNode[];
}

/** Rule fields the hook never reads: for reviewers (`redact --explain`) and the rule tests. */
const REVIEW_ONLY_RULE_FIELDS = new Set(["description", "truePositives", "falsePositives"]);

function propertyName(node: SyntaxNode): unknown {
  return node.key?.name ?? node.key?.value;
}

/**
 * Removes the review-only fields (`description`, `truePositives`,
 * `falsePositives`) from every object literal that is a redaction rule (it
 * has `placeholder` and `pattern`): 12 KB of the hook's 51 KB that Deno
 * would otherwise read, hash and keep in its code cache on every run.
 *
 * @example
 * ```ts
 * dropRuleSamples('const r = {id: "x", placeholder: "<X>", pattern: p, truePositives: ["a"]};');
 * // 'const r = {id: "x", placeholder: "<X>", pattern: p};'
 * ```
 */
export function dropRuleSamples(source: string): string {
  const program = parse(source, { ecmaVersion: "latest", sourceType: "module" });
  const cuts: Span[] = [];
  fullAncestor(program as never, (node) => {
    const object = node as unknown as SyntaxNode;
    if (object.type !== "ObjectExpression") return;
    const properties = object.properties ?? [];
    const names = new Set(properties.map(propertyName));
    if (!names.has("placeholder") || !names.has("pattern")) return;
    properties.forEach((property, index) => {
      if (!REVIEW_ONLY_RULE_FIELDS.has(propertyName(property) as string)) return;
      // Cut through the next property's start (its comma goes too), or from
      // the previous property's end for the last one.
      const next = properties[index + 1];
      const previous = properties[index - 1];
      if (next !== undefined) cuts.push({ start: property.start, end: next.start });
      else if (previous !== undefined) cuts.push({ start: previous.end, end: property.end });
      else cuts.push(property);
    });
  });
  cuts.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const cut of cuts) {
    // Two adjacent cuts (the last two fields) may overlap on the comma between them.
    if (cut.start < at) {
      at = Math.max(at, cut.end);
      continue;
    }
    out += source.slice(at, cut.start);
    at = cut.end;
  }
  return out + source.slice(at);
}

/**
 * Rewrites a bundled ES module so that V8 compiles every function eagerly:
 * each function or arrow expression is wrapped in parentheses, and each
 * top-level function declaration becomes `var name = (function name …);`
 * at the top of the module, so it is still defined before any other
 * statement runs, as hoisting guaranteed. Class and object methods stay
 * as they are (they cannot be parenthesised).
 *
 * @example
 * ```ts
 * markEager("const f = (x) => x + 1;"); // "const f = ((x) => x + 1);"
 * ```
 */
export function markEager(source: string): string {
  const program = parse(source, { ecmaVersion: "latest", sourceType: "module" }) as unknown as {
    body: SyntaxNode[];
  };
  const opens: number[] = [];
  const closes: number[] = [];
  fullAncestor(program as never, (node, _state, ancestors) => {
    const n = node as unknown as SyntaxNode;
    if (n.type !== "FunctionExpression" && n.type !== "ArrowFunctionExpression") return;
    const parent = ancestors[ancestors.length - 2] as unknown as SyntaxNode | undefined;
    const isMethod = parent?.type === "MethodDefinition" ||
      (parent?.type === "Property" && (parent.method === true || parent.kind !== "init"));
    if (isMethod) return;
    opens.push(n.start);
    closes.push(n.end);
  });
  const hoisted: Span[] = [];
  for (const statement of program.body) {
    if (statement.type === "FunctionDeclaration") hoisted.push(statement);
  }
  opens.sort((a, b) => a - b);
  closes.sort((a, b) => a - b);

  const render = (span: Span): string => {
    let out = "";
    let at = span.start;
    let o = lowerBound(opens, span.start);
    let c = lowerBound(closes, span.start);
    while (true) {
      const nextOpen = o < opens.length && opens[o]! < span.end ? opens[o]! : Infinity;
      const nextClose = c < closes.length && closes[c]! <= span.end ? closes[c]! : Infinity;
      const next = Math.min(nextOpen, nextClose);
      if (next === Infinity) break;
      out += source.slice(at, next);
      at = next;
      // At one offset a function that ends closes before the next one opens.
      if (nextClose <= nextOpen) {
        out += ")";
        c++;
      } else {
        out += "(";
        o++;
      }
    }
    return out + source.slice(at, span.end);
  };

  const header = hoisted.map((declaration) => {
    const name = /^(?:async\s*)?function\s*\*?\s*([\w$]+)/.exec(
      source.slice(declaration.start, declaration.end),
    )?.[1];
    if (name === undefined) throw new Error(`Cannot name the function at ${declaration.start}`);
    return `var ${name} = (${render(declaration)});\n`;
  }).join("");
  let body = "";
  let at = 0;
  for (const declaration of hoisted) {
    body += render({ start: at, end: declaration.start });
    at = declaration.end;
  }
  body += render({ start: at, end: source.length });
  return header + body;
}

function lowerBound(sorted: number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Bundles `hook/main.ts`, drops the rules' samples and marks it eager; returns the file's text. */
export async function buildHookBundle(): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "-q", "--platform", "deno", "--minify", ENTRY],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (output.code !== 0) {
    throw new Error(`deno bundle failed: ${new TextDecoder().decode(output.stderr).trim()}`);
  }
  return markEager(dropRuleSamples(new TextDecoder().decode(output.stdout)));
}

if (import.meta.main) {
  const out = optionValue(parseOrExit(BUNDLE_SPEC, Deno.args), "--out") ?? DEFAULT_HOOK_SCRIPT;
  try {
    await Deno.writeTextFile(out, await buildHookBundle());
  } catch (error) {
    console.error(`cyberos-memory bundle: ${(error as Error).message}; ${out} is unchanged`);
    Deno.exit(EXIT.failed);
  }
}
