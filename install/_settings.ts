/**
 * Format-preserving edits of a Claude Code `settings.json`: text in, text out,
 * no I/O. Our hook entries are appended after the user's own (so theirs stay
 * first), found again by their command, replaced in place when the command
 * changed, and removed with exactly the bytes that adding them inserted, so
 * install followed by uninstall gives back the original file byte for byte.
 *
 * The file must be strict JSON whose `hooks` Claude Code accepts (an object of
 * lists of `{matcher?, hooks: [...]}` groups); anything else is refused with a
 * {@linkcode SettingsError} naming the line and column, and nothing is edited.
 *
 * @module
 */

import { type Node, parse, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";

/** A settings file we refuse to edit, with where and how to fix it. */
export class SettingsError extends Error {
  /** 1-based line of the problem. */
  readonly line: number;
  /** 1-based column of the problem. */
  readonly column: number;
  /** What is wrong. */
  readonly problem: string;
  /** What the user should do. */
  readonly fix: string;

  /** `problem` and `fix` become the message `line:col: problem; fix`. */
  constructor(problem: string, options: { line: number; column: number; fix: string }) {
    const { line, column, fix } = options;
    super(`${line}:${column}: ${problem}; ${fix}`);
    this.name = "SettingsError";
    this.line = line;
    this.column = column;
    this.problem = problem;
    this.fix = fix;
  }
}

/** One hook entry of ours, for one Claude Code event. */
export interface OurHook {
  /** The Claude Code event name (`Stop`, `PostToolUse`, …). */
  event: string;
  /** The full command line. */
  command: string;
  /** Seconds Claude Code waits before killing the hook. */
  timeout: number;
  /** The group's matcher; left out for events that ignore matchers. */
  matcher?: string;
}

/** How to recognise our entries. */
export interface RecogniseOptions {
  /** Whether a command is one of ours (any checkout, any version). */
  isOurs: (command: string) => boolean;
}

/** What {@linkcode installHooks} did. */
export interface InstallResult {
  /** The new file text (the input itself when nothing changed). */
  text: string;
  /** One line per change; empty when already installed. */
  changes: string[];
}

/** What {@linkcode uninstallHooks} did. */
export interface UninstallResult {
  /** The new file text (the input itself when nothing changed). */
  text: string;
  /** The events our entries were removed from, one per entry. */
  removed: string[];
}

/** One of our entries found in a file. */
export interface FoundHook {
  /** The event it sits under. */
  event: string;
  /** Its command. */
  command: string;
}

/**
 * Adds `hooks` to the settings text, or updates ours in place; `undefined`
 * (or an empty file) stands for a missing file. Our entries under other events
 * and duplicates are removed.
 *
 * @throws {SettingsError} when the text is not strict JSON or its `hooks` has
 * a shape Claude Code rejects.
 */
export function installHooks(
  text: string | undefined,
  hooks: readonly OurHook[],
  options: RecogniseOptions,
): InstallResult {
  if (text === undefined || text.trim() === "") {
    const eol = text?.includes("\r\n") ? "\r\n" : "\n";
    const value = { hooks: Object.fromEntries(hooks.map((hook) => [hook.event, [group(hook)]])) };
    return {
      text: serialize(value, { unit: "  ", eol, indent: "" }) + eol,
      changes: hooks.map((hook) => `added ${hook.event}`),
    };
  }
  const { bom, body } = splitBom(text);
  let current = body;
  const changes: string[] = [];
  const wanted = new Set(hooks.map((hook) => hook.event));

  // Stale entries first: ours under an event we no longer install, and duplicates.
  for (;;) {
    const settings = analyse(current, options);
    const seen = new Set<string>();
    const stale = settings.ours.find((found) => {
      const extra = !wanted.has(found.event) || seen.has(found.event);
      seen.add(found.event);
      return extra;
    });
    if (!stale) break;
    current = applyEdit(current, removalEdit(settings, stale));
    changes.push(`removed a stale entry from ${stale.event}`);
  }

  for (const hook of hooks) {
    const settings = analyse(current, options);
    const found = settings.ours.find((entry) => entry.event === hook.event);
    if (found) {
      const desired = hookObject(hook);
      if (JSON.stringify(nodeValue(current, found.hookNode)) === JSON.stringify(desired)) continue;
      const indent = indentOfLine(current, found.hookNode.offset);
      current = applyEdit(current, {
        offset: found.hookNode.offset,
        length: found.hookNode.length,
        insert: serialize(desired, { ...settings.format, indent }),
      });
      changes.push(`replaced ${hook.event} (the command changed)`);
      continue;
    }
    current = applyEdit(current, additionEdit(current, settings, hook));
    changes.push(`added ${hook.event}`);
  }
  return { text: changes.length ? bom + current : text, changes };
}

/**
 * Removes every entry of ours, and the groups, event lists and `hooks` object
 * that this leaves empty; nothing else.
 *
 * @throws {SettingsError} as {@linkcode installHooks} does.
 */
export function uninstallHooks(text: string, options: RecogniseOptions): UninstallResult {
  if (text.trim() === "") return { text, removed: [] };
  const { bom, body } = splitBom(text);
  let current = body;
  const removed: string[] = [];
  for (;;) {
    const settings = analyse(current, options);
    const first = settings.ours[0];
    if (!first) break;
    current = applyEdit(current, removalEdit(settings, first));
    removed.push(first.event);
  }
  return { text: removed.length ? bom + current : text, removed };
}

/**
 * Our entries in a settings text, in file order.
 *
 * @throws {SettingsError} as {@linkcode installHooks} does.
 */
export function findOurHooks(text: string, options: RecogniseOptions): FoundHook[] {
  if (text.trim() === "") return [];
  return analyse(splitBom(text).body, options).ours.map(({ event, command }) => ({
    event,
    command,
  }));
}

// ---------------------------------------------------------------------------

interface Format {
  /** One indentation step; `undefined` for a one-line file. */
  unit: string | undefined;
  eol: string;
}

interface Located extends FoundHook {
  hookNode: Node;
  groupHooks: Node;
  eventArray: Node;
  eventProperty: Node;
}

interface Analysed {
  root: Node;
  hooksProperty: Node | undefined;
  ours: Located[];
  format: Format;
}

interface Edit {
  offset: number;
  length: number;
  insert: string;
}

function splitBom(text: string): { bom: string; body: string } {
  return text.startsWith("\uFEFF")
    ? { bom: "\uFEFF", body: text.slice(1) }
    : { bom: "", body: text };
}

function analyse(text: string, options: RecogniseOptions): Analysed {
  try {
    JSON.parse(text);
  } catch (error) {
    throw syntaxError(text, error as Error);
  }
  const root = parseTree(text);
  if (!root || root.type !== "object") {
    throw at(text, root?.offset ?? 0, `the top level is ${article(root?.type)}, not an object`, {
      fix: 'Claude Code settings are one JSON object such as {"hooks": {}}',
    });
  }
  const hooksProperty = lastProperty(root, "hooks");
  const ours: Located[] = [];
  const hooksValue = hooksProperty?.children?.[1];
  if (hooksValue && hooksValue.type !== "object") {
    throw at(text, hooksValue.offset, `"hooks" is ${article(hooksValue.type)}, not an object`, {
      fix: 'write it as {"EventName": [{"matcher": "...", "hooks": [...]}]} as Claude Code expects',
    });
  }
  for (const eventProperty of hooksValue?.children ?? []) {
    const event = String(eventProperty.children?.[0]?.value);
    const eventArray = eventProperty.children?.[1];
    if (!eventArray || eventArray.type !== "array") {
      throw at(
        text,
        eventArray?.offset ?? eventProperty.offset,
        `hooks.${event} is ${article(eventArray?.type)}, not a list`,
        {
          fix: `write it as a list of groups: "${event}": [{"hooks": [...]}]`,
        },
      );
    }
    for (const [index, groupNode] of (eventArray.children ?? []).entries()) {
      const groupHooks = groupNode.type === "object" ? lastProperty(groupNode, "hooks") : undefined;
      const list = groupHooks?.children?.[1];
      if (!list || list.type !== "array") {
        throw at(text, (list ?? groupNode).offset, `hooks.${event}[${index}] has no "hooks" list`, {
          fix:
            'Claude Code rejects the whole file; give each group a list: {"matcher": "...", "hooks": [{"type": "command", "command": "..."}]}',
        });
      }
      for (const hookNode of list.children ?? []) {
        const command = hookNode.type === "object"
          ? lastProperty(hookNode, "command")?.children?.[1]?.value
          : undefined;
        if (typeof command === "string" && options.isOurs(command)) {
          ours.push({ event, command, hookNode, groupHooks: list, eventArray, eventProperty });
        }
      }
    }
  }
  return { root, hooksProperty, ours, format: detectFormat(text, root) };
}

function syntaxError(text: string, cause: Error): SettingsError {
  const errors: ParseError[] = [];
  parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  const first = errors[0];
  const fix = "Claude Code accepts strict JSON only (no comments, no trailing commas): correct it";
  if (!first) return at(text, 0, `not valid JSON: ${cause.message}`, { fix });
  return at(text, first.offset, `not valid JSON: ${describeParseError(text, first)}`, { fix });
}

function describeParseError(text: string, error: ParseError): string {
  const code = printParseErrorCode(error.error);
  if (code === "InvalidCommentToken") return "a comment";
  const before = text.slice(0, error.offset).trimEnd();
  if (
    (code === "PropertyNameExpected" || code === "ValueExpected") && before.endsWith(",") &&
    /^\s*[\]}]/.test(text.slice(error.offset))
  ) {
    return "a trailing comma";
  }
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

function at(text: string, offset: number, problem: string, options: { fix: string }) {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - (before.lastIndexOf("\n") + 1) + 1;
  return new SettingsError(problem, { line, column, fix: options.fix });
}

function article(type: string | undefined): string {
  if (type === undefined) return "missing";
  return type === "array" || type === "object" ? `an ${type}` : `a ${type}`;
}

function lastProperty(object: Node, key: string): Node | undefined {
  return (object.children ?? []).findLast((property) => property.children?.[0]?.value === key);
}

function detectFormat(text: string, root: Node): Format {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const first = root.children?.[0];
  if (first) {
    const lead = text.slice(root.offset + 1, first.offset);
    const cut = lead.lastIndexOf("\n");
    if (cut >= 0) return { unit: lead.slice(cut + 1) || "  ", eol };
    if (!text.includes("\n")) return { unit: undefined, eol };
  }
  return { unit: "  ", eol };
}

function indentOfLine(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, offset))![0];
}

function serialize(value: unknown, options: Format & { indent: string }): string {
  const { unit, eol, indent } = options;
  if (unit === undefined) return JSON.stringify(value);
  return JSON.stringify(value, null, unit).replaceAll("\n", eol + indent);
}

function nodeValue(text: string, node: Node): unknown {
  return JSON.parse(text.slice(node.offset, node.offset + node.length));
}

function hookObject(hook: OurHook): Record<string, unknown> {
  return { type: "command", command: hook.command, timeout: hook.timeout };
}

function group(hook: OurHook): Record<string, unknown> {
  return {
    ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
    hooks: [hookObject(hook)],
  };
}

function applyEdit(text: string, edit: Edit): string {
  return text.slice(0, edit.offset) + edit.insert + text.slice(edit.offset + edit.length);
}

/** Appends a member to a container, in the style of its first member. */
function appendEdit(
  text: string,
  container: Node,
  member: { key?: string; value: unknown },
  format: Format,
): Edit {
  const children = container.children ?? [];
  const open = container.offset;
  const close = container.offset + container.length - 1;
  const first = children[0];
  const last = children[children.length - 1];
  let separator = ": ";
  if (first?.type === "property") {
    const [key, value] = first.children ?? [];
    if (key && value) separator = text.slice(key.offset + key.length, value.offset);
  } else if (format.unit === undefined) separator = ":";
  const render = (indent: string | undefined) => {
    const valueFormat = indent === undefined
      ? { unit: undefined, eol: format.eol, indent: "" }
      : { ...format, indent };
    const value = serialize(member.value, valueFormat);
    return member.key === undefined ? value : JSON.stringify(member.key) + separator + value;
  };
  if (!first || !last) {
    if (format.unit === undefined) {
      return { offset: open + 1, length: close - open - 1, insert: render(undefined) };
    }
    const outer = indentOfLine(text, open);
    const inner = outer + format.unit;
    return {
      offset: open + 1,
      length: close - open - 1,
      insert: format.eol + inner + render(inner) + format.eol + outer,
    };
  }
  const lead = text.slice(open + 1, first.offset);
  const cut = lead.lastIndexOf("\n");
  const indent = cut >= 0 && format.unit !== undefined ? lead.slice(cut + 1) : undefined;
  return { offset: last.offset + last.length, length: 0, insert: "," + lead + render(indent) };
}

/** Removes one member with the separator that {@linkcode appendEdit} would have added. */
function removeMemberEdit(container: Node, member: Node): Edit {
  const children = container.children ?? [];
  const index = children.indexOf(member);
  const open = container.offset;
  const close = container.offset + container.length - 1;
  if (children.length === 1) return { offset: open + 1, length: close - open - 1, insert: "" };
  const previous = children[index - 1];
  if (previous) {
    const start = previous.offset + previous.length;
    return { offset: start, length: member.offset + member.length - start, insert: "" };
  }
  const next = children[index + 1]!;
  return { offset: member.offset, length: next.offset - member.offset, insert: "" };
}

function removalEdit(settings: Analysed, found: Located): Edit {
  if ((found.groupHooks.children ?? []).length > 1) {
    return removeMemberEdit(found.groupHooks, found.hookNode);
  }
  const groupNode = (found.eventArray.children ?? []).find((node) =>
    node.offset <= found.hookNode.offset &&
    found.hookNode.offset < node.offset + node.length
  )!;
  if ((found.eventArray.children ?? []).length > 1) {
    return removeMemberEdit(found.eventArray, groupNode);
  }
  const hooksValue = settings.hooksProperty!.children![1]!;
  if ((hooksValue.children ?? []).length > 1) {
    return removeMemberEdit(hooksValue, found.eventProperty);
  }
  return removeMemberEdit(settings.root, settings.hooksProperty!);
}

function additionEdit(text: string, settings: Analysed, hook: OurHook): Edit {
  const hooksValue = settings.hooksProperty?.children?.[1];
  if (!hooksValue) {
    return appendEdit(text, settings.root, {
      key: "hooks",
      value: { [hook.event]: [group(hook)] },
    }, settings.format);
  }
  const eventProperty = lastProperty(hooksValue, hook.event);
  const eventArray = eventProperty?.children?.[1];
  if (!eventArray) {
    return appendEdit(text, hooksValue, { key: hook.event, value: [group(hook)] }, settings.format);
  }
  return appendEdit(text, eventArray, { value: group(hook) }, settings.format);
}
