/**
 * `deno task bundle`: builds `hook/dist/hook.js`, the one file `install`
 * points at, from `hook/main.ts`.
 *
 * Five steps, each measured to pay (bench/README.md):
 *
 * 1. `deno bundle --minify` inlines every module, so Deno loads one file
 *    instead of ~45.
 * 2. {@linkcode dropRuleSamples} removes what only reviewers and tests read
 *    from each redaction rule (a quarter of the file).
 * 3. {@linkcode escapeNonAscii} makes the file ASCII: Deno hands V8 an ASCII
 *    module as it is, but copies any other into UTF-16 first, and that
 *    cost 1.6 ms of each hook run on a slow day for 82 characters.
 * 4. {@linkcode lazyRules} wraps each redaction rule so that only its
 *    keywords and precheck are evaluated when the hook loads, and the rest
 *    when a text holds a keyword and passes the precheck: of the 228 rules, a
 *    payload gives 10 to 20 any cause to run.
 * 5. {@linkcode markEager} puts in parentheses every function that ran when
 *    the bundle was tried on real payloads ({@linkcode functionsThatRun}),
 *    but for the rules' builders.
 *    V8 compiles a function lazily, at its first call, unless it is
 *    parenthesised; and Deno caches the bytecode V8 compiled before the
 *    module ran. So without the parentheses each hook run compiled its own
 *    functions again (about 2 ms of a 4 KB prompt's run); with them they
 *    come from Deno's code cache. Only those that run: each hook run also
 *    reads the whole cache back, and the 450 functions that never ran made
 *    that 1 ms slower.
 *
 * Usage: `hook/build.ts [--out PATH]` (default `hook/dist/hook.js`).
 *
 * @module
 */

import { parse } from "acorn";
import { fullAncestor } from "acorn-walk";
import { DEFAULT_HOOK_SCRIPT, hookCommandWords } from "../lib/hook_command.ts";
import { HOOK_EVENTS, type HookEvent } from "../lib/kinds.ts";
import { promptPayload, stopPayload, toolPayload } from "../bench/_payloads.ts";
import { type CommandSpec, EXIT, optionValue, parseOrExit } from "../lib/cli.ts";
import { fileUrlToPath } from "../lib/file_url.ts";
import { dirname } from "../lib/paths.ts";
import type { Rule } from "../lib/redact/_engine.ts";

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
    cuts.push(...propertyCuts(properties, REVIEW_ONLY_RULE_FIELDS));
  });
  return withoutCuts(source, cuts, 0, source.length);
}

/** The spans that remove `names` from an object literal's `properties`, commas and all. */
function propertyCuts(properties: SyntaxNode[], names: ReadonlySet<string>): Span[] {
  const cuts: Span[] = [];
  properties.forEach((property, index) => {
    if (!names.has(propertyName(property) as string)) return;
    // Cut through the next property's start (its comma goes too), or from
    // the previous property's end for the last one.
    const next = properties[index + 1];
    const previous = properties[index - 1];
    if (next !== undefined) cuts.push({ start: property.start, end: next.start });
    else if (previous !== undefined) cuts.push({ start: previous.end, end: property.end });
    else cuts.push(property);
  });
  return cuts;
}

/** `source` from `start` to `end`, less `cuts`. */
function withoutCuts(source: string, cuts: Span[], start: number, end: number): string {
  cuts.sort((a, b) => a.start - b.start);
  let out = "";
  let at = start;
  for (const cut of cuts) {
    // Two adjacent cuts (the last two fields) may overlap on the comma between them.
    if (cut.start < at) {
      at = Math.max(at, cut.end);
      continue;
    }
    out += source.slice(at, cut.start);
    at = cut.end;
  }
  return out + source.slice(at, end);
}

/**
 * Rule fields copied out when the rules load, read by the engine of every
 * rule: the keywords and the precheck that decide whether a rule runs at
 * all, and the two flags it may look at alongside them.
 */
const RULE_FIELDS_READ_FIRST = [
  "keywords",
  "precheck",
  "precheckFirst",
  "startsAtKeyword",
] as const;
const READ_FIRST: ReadonlySet<string> = new Set(RULE_FIELDS_READ_FIRST);

/** Every other rule field: reading any of them builds the rule. */
const RULE_FIELDS_BUILT_ON_READ = [
  "id",
  "metricLabel",
  "description",
  "placeholder",
  "pattern",
  "secretGroup",
  "secretFrom",
  "priority",
  "validators",
  "allowlist",
  "truePositives",
  "falsePositives",
] as const;

// A field added to `Rule` and to neither list above fails to type-check here.
const _everyRuleField: Record<
  Exclude<
    keyof Rule,
    typeof RULE_FIELDS_READ_FIRST[number] | typeof RULE_FIELDS_BUILT_ON_READ[number]
  >,
  never
> = {};

/** What the bundle calls a lazy rule's maker: a name esbuild's minified ones cannot take. */
const LAZY_RULE = "__cyberosLazyRule";

/**
 * Defines {@linkcode LAZY_RULE}: a rule whose read-first fields are its own
 * from the start and whose others come from `build()`, called once at the
 * first read of any of them, which then makes them all its own (so later
 * reads are plain property reads).
 */
const LAZY_RULE_MAKER = `var ${LAZY_RULE} = (function () {
  const LazyRule = function (build, ${RULE_FIELDS_READ_FIRST.join(", ")}) {
    ${RULE_FIELDS_READ_FIRST.map((field) => `this.${field} = ${field};`).join("\n    ")}
    this.build = build;
  };
  const fields = ${JSON.stringify(RULE_FIELDS_BUILT_ON_READ)};
  for (const field of fields) {
    Object.defineProperty(LazyRule.prototype, field, {
      get: function () {
        const rule = this.build();
        for (const name of fields) {
          Object.defineProperty(this, name, { value: rule[name], writable: true, enumerable: true, configurable: true });
        }
        // Not deleted: an object that loses a property reads all its others more slowly.
        this.build = undefined;
        return rule[field];
      },
    });
  }
  return function (build, ${RULE_FIELDS_READ_FIRST.join(", ")}) {
    return new LazyRule(build, ${RULE_FIELDS_READ_FIRST.join(", ")});
  };
})();
`;

/** A module whose rules {@linkcode lazyRules} made lazy. */
export interface LazyRules {
  /** The module. */
  text: string;
  /** The offset in it of each rule's builder, the function that makes the rest of the rule. */
  builders: Set<number>;
}

/**
 * Makes every redaction rule of a bundled module (an object literal with
 * `placeholder` and `pattern`, or a call whose one argument is one, as
 * `token({…})`) a lazy rule: its keywords, precheck and flags
 * ({@linkcode RULE_FIELDS_READ_FIRST}) are evaluated when the module loads,
 * the rest only when the engine first reads past them, which it does only
 * for a rule whose keywords occur in the text and whose precheck passes. A
 * hook run then neither evaluates nor keeps in the code cache the 200 or so
 * rules its payload gives no cause to run. Returns the module and where each
 * rule's builder starts.
 *
 * @example
 * ```ts
 * lazyRules('const r = {id: "x", placeholder: "<X>", keywords: ["k"], pattern: p};').text;
 * // '<maker>const r = __cyberosLazyRule(() => ({id: "x", …}), ["k"], void 0, void 0, void 0);'
 * ```
 */
export function lazyRules(source: string): LazyRules {
  const program = parse(source, { ecmaVersion: "latest", sourceType: "module" });
  const wraps: Array<Span & { read: string[]; cuts: Span[] }> = [];
  fullAncestor(program as never, (node, _state, ancestors) => {
    const object = node as unknown as SyntaxNode;
    if (object.type !== "ObjectExpression") return;
    const properties = object.properties ?? [];
    const byName = new Map(properties.map((property) => [propertyName(property), property]));
    if (!byName.has("placeholder") || !byName.has("pattern")) return;
    if (properties.some((property) => property.type !== "Property")) {
      throw new Error(`The rule at ${object.start} spreads another object: it cannot be made lazy`);
    }
    const parent = ancestors[ancestors.length - 2] as unknown as SyntaxNode & {
      arguments?: SyntaxNode[];
    };
    const target = parent?.type === "CallExpression" && parent.arguments?.length === 1
      ? parent
      : object;
    const read = RULE_FIELDS_READ_FIRST.map((name) => {
      const value = (byName.get(name) as { value?: Span } | undefined)?.value;
      return value === undefined ? "void 0" : source.slice(value.start, value.end);
    });
    // The read-first fields are the lazy rule's own: the literal need not make them again.
    wraps.push({
      start: target.start,
      end: target.end,
      read,
      cuts: propertyCuts(properties, READ_FIRST),
    });
  });
  wraps.sort((a, b) => a.start - b.start);
  let out = LAZY_RULE_MAKER;
  let at = 0;
  const builders = new Set<number>();
  for (const wrap of wraps) {
    if (wrap.start < at) throw new Error(`The rule at ${wrap.start} is inside another rule`);
    out += source.slice(at, wrap.start);
    const built = withoutCuts(source, wrap.cuts, wrap.start, wrap.end);
    out += `${LAZY_RULE}(`;
    builders.add(out.length);
    out += `() => (${built}), ${wrap.read.join(", ")})`;
    at = wrap.end;
  }
  if (wraps.length === 0) throw new Error("No redaction rule found to make lazy");
  return { text: out + source.slice(at), builders };
}

/**
 * Writes each non-ASCII character of `source` (a module) as a `\uXXXX`
 * escape, which means the same UTF-16 code unit in a string or a regular
 * expression literal. A character escaped already (`\ñ`) loses its
 * backslash. Anywhere else (an identifier, a comment, a tagged template,
 * whose raw text the tag would see changed) it is refused.
 *
 * @throws {Error} naming the offset of a character it will not escape.
 *
 * @example
 * ```ts
 * escapeNonAscii('const r = /mật khẩu/i;'); // 'const r = /m\\u1eadt kh\\u1ea9u/i;'
 * ```
 */
export function escapeNonAscii(source: string): string {
  if (!/[\u0080-\uffff]/.test(source)) return source;
  const program = parse(source, { ecmaVersion: "latest", sourceType: "module" });
  const escapable: Span[] = [];
  fullAncestor(program as never, (node, _state, ancestors) => {
    const n = node as unknown as SyntaxNode;
    if (n.type === "Literal") escapable.push(n);
    const parent = ancestors[ancestors.length - 3] as unknown as SyntaxNode | undefined;
    if (n.type === "TemplateElement" && parent?.type !== "TaggedTemplateExpression") {
      escapable.push(n);
    }
  });
  escapable.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  let span = 0;
  for (let i = 0; i < source.length; i++) {
    const unit = source.charCodeAt(i);
    if (unit < 0x80) continue;
    while (span < escapable.length && escapable[span]!.end <= i) span++;
    if (span === escapable.length || escapable[span]!.start > i) {
      throw new Error(`non-ASCII character at offset ${i} outside a string or regular expression`);
    }
    let backslashes = 0;
    while (source[i - 1 - backslashes] === "\\") backslashes++;
    out += source.slice(at, i - (backslashes % 2)) + `\\u${unit.toString(16).padStart(4, "0")}`;
    at = i + 1;
  }
  return out + source.slice(at);
}

/** Options for {@linkcode markEager}. */
export interface MarkEagerOptions {
  /**
   * Only the functions starting at these offsets (of `function`, `async`
   * or an arrow's parameters), as V8's coverage reports them.
   *
   * @default {every function}
   */
  only?: ReadonlySet<number>;
}

/**
 * Rewrites a bundled ES module so that V8 compiles its functions eagerly:
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
export function markEager(source: string, options: MarkEagerOptions = {}): string {
  const chosen = (node: Span) => options.only === undefined || options.only.has(node.start);
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
    if (isMethod || !chosen(n)) return;
    opens.push(n.start);
    closes.push(n.end);
  });
  const hoisted: Span[] = [];
  for (const statement of program.body) {
    if (statement.type === "FunctionDeclaration" && chosen(statement)) hoisted.push(statement);
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

const OBSERVED = fileUrlToPath(new URL("../tests/claude/observed/", import.meta.url));

/**
 * What the bundle is tried on: every payload Claude Code 2.1.328 was seen
 * to send (`tests/claude/observed/`, one per event and tool), and the
 * benchmark's long ones with secrets in them.
 */
async function trainingPayloads(): Promise<Array<{ event: HookEvent; payload: string }>> {
  const eventOf = new Map(Object.entries(HOOK_EVENTS).map(([event, name]) => [name, event]));
  const out: Array<{ event: HookEvent; payload: string }> = [];
  const names = [...Deno.readDirSync(OBSERVED)].map((entry) => entry.name)
    .filter((name) => name.endsWith(".json")).sort();
  for (const name of names) {
    const payload = await Deno.readTextFile(`${OBSERVED}${name}`);
    const event = eventOf.get(JSON.parse(payload).hook_event_name) as HookEvent | undefined;
    if (event !== undefined) out.push({ event, payload });
  }
  const cwd = "/tmp/cyberos-train";
  out.push(
    { event: "userpromptsubmit", payload: promptPayload(cwd) },
    { event: "posttooluse", payload: toolPayload(cwd) },
    { event: "stop", payload: stopPayload(cwd) },
  );
  return out;
}

/** W3C's example trace context, as Claude Code passes one to hooks when it exports telemetry. */
const TRIAL_TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

/**
 * The offsets of the functions in `source` (a bundled hook) that run when
 * it is fed {@linkcode trainingPayloads}, by V8's coverage: each payload
 * runs the hook as `install` writes it, in a folder under `hook/dist` that
 * is removed after. No daemon listens (that would need `--allow-net` for
 * the socket), so each run spools its frame: the redaction, the part worth
 * compiling ahead, is the same. V8's random seed is fixed, so the same
 * source gives the same functions.
 */
export async function functionsThatRun(source: string): Promise<Set<number>> {
  const dir = await Deno.makeTempDir({ dir: dirname(DEFAULT_HOOK_SCRIPT), prefix: ".train-" });
  const script = `${dir}/hook.js`;
  const coverage = `${dir}/coverage`;
  try {
    await Deno.writeTextFile(script, source);
    for (const { event, payload } of await trainingPayloads()) {
      const [deno, run, ...rest] = hookCommandWords(event, {
        denoPath: Deno.execPath(),
        socket: `${dir}/no-daemon`,
        traceDir: dir,
        scriptPath: script,
      });
      const args = [
        run!,
        `--coverage=${coverage}`,
        ...rest.map((word) => word.startsWith("--v8-flags=") ? `${word},--random-seed=1` : word),
      ];
      const child = new Deno.Command(deno!, {
        args,
        // The one variable the hook reads, fixed: a build in a traced shell makes the same file.
        env: { TRACEPARENT: TRIAL_TRACEPARENT },
        stdin: "piped",
        stdout: "null",
        stderr: "null",
      })
        .spawn();
      const writer = child.stdin.getWriter();
      try {
        await writer.write(new TextEncoder().encode(payload));
        await writer.close();
      } catch {
        // It stopped reading (a script that reads no stdin): still a trial.
      }
      await child.status;
    }
    const ran = new Set<number>();
    for (const entry of Deno.readDirSync(coverage)) {
      const report = JSON.parse(await Deno.readTextFile(`${coverage}/${entry.name}`)) as {
        url: string;
        functions: Array<{ ranges: Array<{ startOffset: number; count: number }> }>;
      };
      if (!report.url.startsWith("file:") || fileUrlToPath(report.url) !== script) continue;
      for (const fn of report.functions) {
        if (fn.ranges[0]!.count > 0) ran.add(fn.ranges[0]!.startOffset);
      }
    }
    if (ran.size === 0) throw new Error("no coverage of the trial runs");
    return ran;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Bundles `hook/main.ts`, drops the rules' samples, makes it ASCII, and
 * marks the functions that run on real payloads eager; returns the file's text.
 */
export async function buildHookBundle(): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "-q", "--platform", "deno", "--minify", ENTRY],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (output.code !== 0) {
    throw new Error(`deno bundle failed: ${new TextDecoder().decode(output.stderr).trim()}`);
  }
  const bundled = new TextDecoder().decode(output.stdout);
  const { text, builders } = lazyRules(escapeNonAscii(dropRuleSamples(bundled)));
  const ran = await functionsThatRun(text);
  // A rule's builder is compiled at its first call, in a run whose payload holds the rule's
  // keywords: that costs less than the code cache every run loads holding each builder a trial
  // ran (41 of them: 0.8 to 1.3 ms a run, bench/README.md).
  for (const offset of builders) ran.delete(offset);
  return markEager(text, { only: ran });
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
