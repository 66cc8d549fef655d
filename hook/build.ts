/**
 * `deno task bundle`: builds `hook/dist/hook.js`, the one file `install`
 * points at, from `hook/main.ts`.
 *
 * Two steps, each measured to pay (README, Performance):
 *
 * 1. `deno bundle --minify` inlines every module, so Deno loads one file
 *    instead of ~45.
 * 2. {@linkcode markEager} puts every function in parentheses. V8 compiles a
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

const ENTRY = new URL("./main.ts", import.meta.url).pathname;

interface Span {
  start: number;
  end: number;
}

interface SyntaxNode extends Span {
  type: string;
  method?: boolean;
  kind?: string;
  declaration?: SyntaxNode | null;
  body?: SyntaxNode[];
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

/** Bundles `hook/main.ts` and marks it eager; returns the file's text. */
export async function buildHookBundle(): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "-q", "--platform", "deno", "--minify", ENTRY],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (output.code !== 0) {
    throw new Error(`deno bundle failed: ${new TextDecoder().decode(output.stderr).trim()}`);
  }
  return markEager(new TextDecoder().decode(output.stdout));
}

if (import.meta.main) {
  const outArg = Deno.args.indexOf("--out");
  const out = outArg >= 0 ? Deno.args[outArg + 1] : DEFAULT_HOOK_SCRIPT;
  if (out === undefined) {
    console.error("hook/build.ts: --out needs a path; nothing was written");
    Deno.exit(2);
  }
  try {
    await Deno.writeTextFile(out, await buildHookBundle());
  } catch (error) {
    console.error(`hook/build.ts: ${(error as Error).message}; ${out} is unchanged`);
    Deno.exit(1);
  }
}
