/**
 * One command-line voice for every task (docs/cli.md): `--help` and `-h`
 * print the usage on stdout and exit 0 before anything is done; an unknown or
 * incomplete option is refused with exit 2; every error line starts
 * `cyberos-memory <command>: `; exit codes are 0 done, 1 failed, 2 bad usage.
 * No permission is needed (`redact` runs with none). The hook keeps its own
 * tiny parser, since it always exits 0 and its bundle stays small.
 *
 * @module
 */

/** Exit codes, the same for every command. */
export const EXIT = {
  /** The command did what was asked. */
  done: 0,
  /** It could not (a file refused, the chain broken, the daemon down). */
  failed: 1,
  /** The command line was wrong; nothing was done. */
  usage: 2,
} as const;

/** One option a command takes. */
export interface OptionSpec {
  /** The long name with its dashes (`--session`), or a short one (`-n`). */
  name: string;
  /** The value's placeholder (`ID`) when the option takes one; a switch otherwise. */
  value?: string;
  /** The option may be given more than once (each value is kept). */
  repeat?: boolean;
}

/** What a command accepts, and the usage it prints. */
export interface CommandSpec {
  /** The task name (`tail`, `bench:claude`): the error prefix's second word. */
  command: string;
  /** The whole usage text, printed for `--help`; its first line is `usage: …`. */
  usage: string;
  /** The options. */
  options: readonly OptionSpec[];
  /**
   * How many positional arguments at most (`Infinity` for a list).
   *
   * @default {0}
   */
  maxPositionals?: number;
}

/** The parsed command line. */
export interface CommandLine {
  /** Each option given, by name: the values given (a switch holds `""`). */
  options: Map<string, string[]>;
  /** The positional arguments, in order. */
  positionals: string[];
}

/** A command line the command cannot take: exit 2, nothing done. */
export class UsageError extends Error {
  /** `message` is the line after the `cyberos-memory <command>: ` prefix. */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Whether the user asked for help: `--help` or `-h` anywhere on the line. */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.includes("--help") || argv.includes("-h");
}

/**
 * Parses `argv` against `spec`: `--name value`, `--name=value`, switches, and
 * positionals (`--` ends the options).
 *
 * @throws {UsageError} on an unknown option, a missing value, a switch given
 * a value, a repeated single option or one positional too many.
 */
export function parseCommandLine(spec: CommandSpec, argv: readonly string[]): CommandLine {
  const byName = new Map(spec.options.map((option) => [option.name, option]));
  const parsed: CommandLine = { options: new Map(), positionals: [] };
  const maxPositionals = spec.maxPositionals ?? 0;
  const hint = `see deno task ${spec.command} --help`;
  let optionsEnded = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!optionsEnded && arg === "--") {
      optionsEnded = true;
      continue;
    }
    if (optionsEnded || !arg.startsWith("-") || arg === "-") {
      if (parsed.positionals.length >= maxPositionals) {
        throw new UsageError(
          maxPositionals === 0
            ? `unexpected argument "${arg}": ${spec.command} takes options only; ${hint}`
            : `unexpected argument "${arg}": one ${
              maxPositionals === 1 ? "is" : `${maxPositionals} are`
            } enough; ${hint}`,
        );
      }
      parsed.positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const name = equals > 0 ? arg.slice(0, equals) : arg;
    const option = byName.get(name);
    if (option === undefined) throw new UsageError(`unknown option "${name}"; ${hint}`);
    let value = "";
    if (option.value !== undefined) {
      const next = equals > 0 ? arg.slice(equals + 1) : argv[++i];
      if (next === undefined || next === "") {
        throw new UsageError(`${name} needs a value (${name} ${option.value}); ${hint}`);
      }
      value = next;
    } else if (equals > 0) {
      throw new UsageError(`${name} takes no value; ${hint}`);
    }
    const values = parsed.options.get(name) ?? [];
    if (values.length > 0 && !option.repeat) {
      throw new UsageError(`${name} given twice; give it once`);
    }
    parsed.options.set(name, [...values, value]);
  }
  return parsed;
}

/** The single value of an option, or `undefined` when it was not given. */
export function optionValue(line: CommandLine, name: string): string | undefined {
  return line.options.get(name)?.[0];
}

/** Whether a switch (or any option) was given. */
export function hasOption(line: CommandLine, name: string): boolean {
  return line.options.has(name);
}

/**
 * The values of `--allow-email-domain D` (install, the hook, redact: one
 * spelling, repeatable, one domain each).
 *
 * @throws {UsageError} for a value that is not a domain name (a comma list, say).
 */
export function allowedEmailDomains(line: CommandLine): string[] {
  const domains = line.options.get("--allow-email-domain") ?? [];
  for (const domain of domains) {
    if (!/^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(domain)) {
      throw new UsageError(
        `--allow-email-domain needs one domain such as example.com (repeat the option for more), got "${domain}"`,
      );
    }
  }
  return domains;
}

/** The line for stderr: `cyberos-memory <command>: <message>`. */
export function errorLine(command: string, message: string): string {
  return `cyberos-memory ${command}: ${message}`;
}

/**
 * Runs a command's body with the voice above: prints the usage and returns 0
 * for `--help`/`-h` (the body never runs), prints a {@linkcode UsageError}
 * and returns 2, otherwise returns what the body returns.
 */
export async function runCommand(
  spec: CommandSpec,
  argv: readonly string[],
  body: (line: CommandLine) => number | Promise<number>,
): Promise<number> {
  if (wantsHelp(argv)) {
    writeLines(Deno.stdout, [spec.usage.trimEnd()]);
    return EXIT.done;
  }
  let line: CommandLine;
  try {
    line = parseCommandLine(spec, argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    writeLines(Deno.stderr, [errorLine(spec.command, error.message)]);
    return EXIT.usage;
  }
  try {
    return await body(line);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    writeLines(Deno.stderr, [errorLine(spec.command, error.message)]);
    return EXIT.usage;
  }
}

/**
 * For scripts that run at the top level (`bench`, `bundle`, `test`): parses
 * `argv`, or prints the usage and exits 0 for `--help`/`-h`, or prints the
 * error and exits 2, before the script does anything.
 */
export function parseOrExit(spec: CommandSpec, argv: readonly string[]): CommandLine {
  if (wantsHelp(argv)) {
    writeLines(Deno.stdout, [spec.usage.trimEnd()]);
    Deno.exit(EXIT.done);
  }
  try {
    return parseCommandLine(spec, argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    writeLines(Deno.stderr, [errorLine(spec.command, error.message)]);
    Deno.exit(EXIT.usage);
  }
}

/** Writes whole lines to a stream synchronously (a short write is continued). */
export function writeLines(
  stream: { writeSync(bytes: Uint8Array): number },
  lines: readonly string[],
): void {
  if (lines.length === 0) return;
  const bytes = new TextEncoder().encode(lines.join("\n") + "\n");
  for (let written = 0; written < bytes.length;) {
    written += stream.writeSync(bytes.subarray(written));
  }
}
