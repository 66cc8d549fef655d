/**
 * Tool subjects, opt-in (`install --tool-detail subject`): a short line saying
 * what a tool call touched, so a reviewer sees `Bash: npm test` rather than
 * only a hash of the arguments. Built here unredacted and bounded; the draft
 * redacts it like every other text before it leaves the hook. Off by default:
 * the spec keeps raw arguments out, and a subject is a part of them.
 *
 * @module
 */

/** How much of a tool call a row keeps. */
export const TOOL_DETAILS = ["hash", "subject"] as const;

/** `hash`: only the argument hash (the default); `subject`: the hash and a short subject. */
export type ToolDetail = typeof TOOL_DETAILS[number];

/** Whether `value` is a tool detail mode. */
export function isToolDetail(value: unknown): value is ToolDetail {
  return typeof value === "string" && (TOOL_DETAILS as readonly string[]).includes(value);
}

/** The longest subject kept, in characters; a longer one is cut with `…`. */
export const MAX_SUBJECT_LENGTH = 200;

const FILE_TOOLS = new Set(["Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "NotebookRead"]);
const SEARCH_TOOLS = new Set(["Grep", "Glob"]);
const WEB_TOOLS = new Set(["WebFetch"]);

/**
 * The subject of one tool call on one line, unredacted and not yet bounded
 * (redact it whole first, then {@linkcode boundSubject}: a secret cut in two
 * might escape the redactor), or `undefined` when the tool has none we know
 * how to say:
 * - Bash: the command line, on one line;
 * - file tools: the path, relative to `cwd` when inside it;
 * - WebFetch: the URL without its query and fragment; WebSearch: the query;
 * - search tools: the pattern (and the path searched, relative to `cwd`);
 * - MCP tools (`mcp__server__tool`): `server/tool`.
 */
export function toolSubject(
  toolName: string,
  toolInput: Readonly<Record<string, unknown>>,
  cwd: string,
): string | undefined {
  const text = (key: string) => typeof toolInput[key] === "string" ? toolInput[key] : undefined;
  let subject: string | undefined;
  if (toolName === "Bash") subject = text("command");
  else if (FILE_TOOLS.has(toolName)) {
    const path = text("file_path") ?? text("notebook_path");
    subject = path === undefined ? undefined : relativeTo(path, cwd);
  } else if (WEB_TOOLS.has(toolName)) {
    const url = text("url");
    subject = url === undefined ? undefined : withoutQuery(url);
  } else if (toolName === "WebSearch") subject = text("query");
  else if (SEARCH_TOOLS.has(toolName)) {
    const pattern = text("pattern");
    const path = text("path");
    subject = pattern === undefined
      ? undefined
      : path === undefined
      ? pattern
      : `${pattern} in ${relativeTo(path, cwd)}`;
  } else if (toolName.startsWith("mcp__")) {
    const [server, ...tool] = toolName.slice("mcp__".length).split("__");
    subject = tool.length === 0 ? server : `${server}/${tool.join("__")}`;
  }
  return subject === undefined ? undefined : oneLine(subject);
}

function relativeTo(path: string, cwd: string): string {
  const base = cwd.endsWith("/") ? cwd : `${cwd}/`;
  return path.startsWith(base) && path.length > base.length ? path.slice(base.length) : path;
}

function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut < 0 ? url : url.slice(0, cut);
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ⏎ ").trim();
}

/** Cuts a (redacted) subject to {@linkcode MAX_SUBJECT_LENGTH} characters, ending it with `…`. */
export function boundSubject(text: string): string {
  const chars = [...text];
  return chars.length <= MAX_SUBJECT_LENGTH
    ? text
    : `${chars.slice(0, MAX_SUBJECT_LENGTH - 1).join("")}…`;
}
