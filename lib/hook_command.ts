/**
 * The hook command that `install` writes into `settings.json`: absolute and
 * self-contained (the deno binary, explicit permission flags, the hook script,
 * the socket, trace dir and email allowlist as arguments), every path quoted
 * for `sh -c`. Also recognises our commands in a settings file, even after the
 * checkout moved, and takes them apart again for `status`.
 *
 * @module
 */

import { HOOK_EVENTS, type HookEvent } from "./kinds.ts";
import type { ToolDetail } from "./subject.ts";
import { hookPermissionFlags } from "./permissions.ts";
import { fileUrlToPath } from "./file_url.ts";

/**
 * The hook script of this checkout: `hook/main.ts` bundled into one minified
 * file by `deno task bundle` (committed; a test keeps it in step with the
 * source). One file instead of ~45 modules starts several ms sooner.
 */
export const DEFAULT_HOOK_SCRIPT = fileUrlToPath(new URL("../hook/dist/hook.js", import.meta.url));

/**
 * V8 flags for the hook's short life, all for work that pays back only in a
 * process that goes on running:
 * - `--no-sparkplug`: V8's baseline compiler compiled functions that had run
 *   a little, 8 million instructions in about half the runs for no gain;
 *   without it the median is 0.4 to 1.0 ms lower.
 * - `--no-regexp-tier-up`: a pattern is compiled to machine code once,
 *   instead of to bytecode first and again to machine code at its second
 *   `exec` (every global pattern that matches): 0.2 to 1.4 million
 *   instructions fewer on every payload measured.
 * - `--single-threaded`: Deno then starts V8 without its two worker threads
 *   (for concurrent compiling and garbage collection, which a run this short
 *   never needs). Starting them and stopping them again cost each run 1 to
 *   2 ms. V8's own timers need them, so the hook's timer is Deno's.
 * - `--no-maglev`: without worker threads V8's mid-tier compiler runs on
 *   the hook's only thread, and a 64 KB tool input made it compile the
 *   keyword loops (`occurs`, `mayHold`) mid-run, code the exit throws away:
 *   a 4 KB prompt's run takes 0.8 ms less CPU without it. TurboFan stays: only the
 *   16 MiB inputs run long enough to call it, and they need it to stay
 *   within the redaction budget.
 * - `--invocation-count-for-turbofan=10000`: a function V8 saw called 3,000
 *   times (its default) it compiles with TurboFan, and on the hook's only
 *   thread that stops the run for 4.5 to 5.7 ms. Three of the 29 payloads
 *   Claude Code was seen to send reached it (a prompt, an Edit and an Agent
 *   call: the walk over long patterns' alternatives, the keyword lookups),
 *   and their runs took 2.4 to 5.5 ms longer; at 10,000 none do, and a
 *   16 MiB prompt still gets TurboFan where it pays, in the same 1.0 s.
 * - `--no-icu-timezone-data`: the hook's first `Date` (the times of the
 *   trust check's `lstat`) made V8 load ICU's time zone data, 0.3 to 0.45 ms
 *   of each run; V8 then asks the C library instead, in 0.1 ms. The hook
 *   never shows a local time, so nothing it writes changes.
 *
 * See bench/README.md. The `hook` task in `deno.json` passes the same
 * flags (a test keeps the two equal).
 */
export const HOOK_V8_FLAGS = [
  "--v8-flags=--no-sparkplug,--no-maglev,--no-regexp-tier-up,--single-threaded," +
  "--invocation-count-for-turbofan=10000,--no-icu-timezone-data",
] as const;

/**
 * The environment the hook's command sets before `exec`: glibc's allocator
 * told to keep the memory the process frees instead of handing it back
 * (`trim_threshold`), and to take blocks up to 8 MiB from that memory
 * instead of mapping each afresh (`mmap_threshold`). Loading the bundle and
 * its code cache makes and frees several such blocks of 128 KB to 256 KB;
 * by default each is a fresh mapping, every 4 KB of it a page fault when
 * first written, and a fault costs 10 µs and more on a virtual machine. Kept,
 * later blocks reuse pages already mapped: 60 faults fewer per run, and a
 * 64 KB tool call's run 1.2 to 2.0 ms shorter (bench/README.md). Other C
 * libraries (macOS, musl) ignore the variable; the hook, allowed to read
 * `TRACEPARENT` alone, cannot read it.
 */
export const HOOK_ENV: Readonly<Record<string, string>> = {
  GLIBC_TUNABLES: "glibc.malloc.mmap_threshold=8388608:glibc.malloc.trim_threshold=67108864",
};

/** Options for {@linkcode buildHookCommand}. */
export interface HookCommandOptions {
  /** The deno binary (`Deno.execPath()` of the installer). */
  denoPath: string;
  /** The daemon's socket. */
  socket: string;
  /** The trace id cache and spool. */
  traceDir: string;
  /**
   * The hook script to run (a bundled `hook*.js` works too).
   *
   * @default {DEFAULT_HOOK_SCRIPT}
   */
  scriptPath?: string;
  /**
   * E-mail domains the redactor leaves readable.
   *
   * @default {[]}
   */
  allowEmailDomains?: readonly string[];
  /**
   * How much of a tool call rows keep: `subject` adds `--tool-detail subject`.
   *
   * @default {"hash"}
   */
  toolDetail?: ToolDetail;
}

/** Quotes one word for `sh`: `'…'`, with `'` written as `'\''`. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * The words of the command Claude Code runs for `event`, unquoted: the deno
 * binary, `run -q`, the V8 flags, the permission flags, the script, its arguments.
 *
 * @throws {TypeError} when a path is not absolute or the event is unknown.
 */
export function hookCommandWords(event: HookEvent, options: HookCommandOptions): string[] {
  const {
    denoPath,
    socket,
    traceDir,
    scriptPath = DEFAULT_HOOK_SCRIPT,
    allowEmailDomains = [],
    toolDetail = "hash",
  } = options;
  for (
    const [name, path] of [["deno", denoPath], ["script", scriptPath], ["socket", socket], [
      "trace dir",
      traceDir,
    ]]
  ) {
    if (!path?.startsWith("/")) {
      throw new TypeError(
        `Cannot build the hook command: the ${name} path "${path}" is not absolute`,
      );
    }
  }
  if (!Object.hasOwn(HOOK_EVENTS, event)) {
    throw new TypeError(`Cannot build the hook command: unknown event "${event}"`);
  }
  return [
    denoPath,
    "run",
    "-q",
    ...HOOK_V8_FLAGS,
    ...hookPermissionFlags({ socket, traceDir }),
    scriptPath,
    "--socket",
    socket,
    "--trace-dir",
    traceDir,
    ...allowEmailDomains.flatMap((domain) => ["--allow-email-domain", domain]),
    ...(toolDetail === "subject" ? ["--tool-detail", "subject"] : []),
    event,
  ];
}

/**
 * The command line Claude Code runs for `event`: {@linkcode HOOK_ENV} as
 * assignments, `exec`, then {@linkcode hookCommandWords} with every path and
 * domain single-quoted for `sh -c`, and flags quoted only when they hold
 * characters `sh` would read.
 *
 * Claude Code runs a hook as `/bin/sh -c COMMAND`. Without `exec`, dash (the
 * `sh` of Debian and Ubuntu) forks once more and waits for deno (about 0.2 ms);
 * with it, the process Claude Code started is deno itself, so its timeout's
 * kill reaches the hook and not only the shell. Assignments before `exec`
 * reach the program in dash and in bash (in POSIX mode too); POSIX leaves it
 * open, and a shell that kept them to itself would only leave the allocator
 * as it is.
 *
 * @throws {TypeError} when a path is not absolute or the event is unknown.
 */
export function buildHookCommand(event: HookEvent, options: HookCommandOptions): string {
  const words = hookCommandWords(event, options);
  const literal = new Set([
    "run",
    "-q",
    "--socket",
    "--trace-dir",
    "--allow-email-domain",
    "--tool-detail",
    "subject",
    event,
  ]);
  const assignments = Object.entries(HOOK_ENV).map(([name, value]) =>
    `${name}=${SAFE_WORD.test(value) ? value : shellQuote(value)} `
  ).join("");
  return assignments + "exec " +
    words.map((word, index) =>
      index > 0 && (literal.has(word) || (word.startsWith("--") && SAFE_WORD.test(word)))
        ? word
        : shellQuote(word)
    ).join(" ");
}

/** A hook script word of ours: `…/hook/main.ts` or a bundled `…/hook*.js`. */
const SCRIPT_WORD = /(^|\/)(hook\/main\.ts|hook[A-Za-z0-9_.-]*\.js)$/;

/**
 * Whether a settings command is one `install` wrote (this checkout or any
 * other): it runs our hook script (an absolute `…/hook/main.ts` or
 * `…/hook*.js`) with absolute `--socket` and `--trace-dir` arguments.
 */
export function isOurCommand(command: string): boolean {
  const words = commandWords(command);
  if (words === undefined) return false;
  const absoluteAfter = (flag: string) => words[words.indexOf(flag) + 1]?.startsWith("/") ?? false;
  return words.some((word) => word.startsWith("/") && SCRIPT_WORD.test(word)) &&
    words.includes("--socket") && absoluteAfter("--socket") && words.includes("--trace-dir") &&
    absoluteAfter("--trace-dir");
}

/** What an installed command says. */
export interface ParsedHookCommand {
  /** The deno binary it runs. */
  denoPath: string;
  /** The hook script. */
  scriptPath: string;
  /** The socket argument. */
  socket: string;
  /** The trace dir argument. */
  traceDir: string;
  /** The event argument (last word). */
  event: string;
  /** `subject` when the command asks for tool subjects, else `hash`. */
  toolDetail: ToolDetail;
}

/** Takes one of our commands apart; `undefined` when it is not ours. */
export function parseHookCommand(command: string): ParsedHookCommand | undefined {
  const words = commandWords(command);
  if (words === undefined || !isOurCommand(command)) return undefined;
  const scriptPath = words.find((word) => word.startsWith("/") && SCRIPT_WORD.test(word));
  const after = (flag: string) => {
    const at = words.indexOf(flag);
    return at < 0 ? undefined : words[at + 1];
  };
  const socket = after("--socket");
  const traceDir = after("--trace-dir");
  const denoPath = words[0];
  const event = words[words.length - 1];
  if (!scriptPath || !socket || !traceDir || !denoPath || !event) return undefined;
  const toolDetail = after("--tool-detail") === "subject" ? "subject" : "hash";
  return { denoPath, scriptPath, socket, traceDir, event, toolDetail };
}

/** A leading `NAME=value` word of a command: an assignment, for the program it runs. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * The words of a command after its leading assignments and `exec` (commands
 * installed before had neither). `status` still tells a command with other
 * assignments apart: it compares the whole command with what install writes.
 */
function commandWords(command: string): string[] | undefined {
  const words = splitShellWords(command);
  if (words === undefined) return undefined;
  let at = 0;
  while (at < words.length && ASSIGNMENT.test(words[at]!)) at++;
  if (words[at] === "exec") at++;
  return words.slice(at);
}

/**
 * Splits a command into words the way `sh` would for the plain subset we write:
 * single quotes, double quotes without expansions, backslash escapes and
 * blanks. `undefined` for anything else (`$`, backticks, unbalanced quotes).
 */
function splitShellWords(command: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === " " || c === "\t" || c === "\n") {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word = (word ?? "") + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      const end = command.indexOf('"', i + 1);
      if (end < 0) return undefined;
      const inner = command.slice(i + 1, end);
      if (/[$`\\]/.test(inner)) return undefined;
      word = (word ?? "") + inner;
      i = end;
    } else if (c === "\\") {
      word = (word ?? "") + (command[i + 1] ?? "");
      i++;
    } else if (/[$`;&|<>()*?]/.test(c)) {
      return undefined;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
