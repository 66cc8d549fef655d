/**
 * A scripted stand-in for the Anthropic Messages API, so the real Claude Code CLI can run a turn
 * offline. The scenario travels inside the prompt: a block `<<<SCRIPT [...] SCRIPT>>>` holding a
 * JSON array of steps, built with {@linkcode scriptBlock}. Each step is the content of one model reply:
 * tool calls (several in one step run as parallel tool calls) or text (which ends the turn).
 *
 * For every `POST /v1/messages` the server finds the last user message whose own text (not a
 * `tool_result`) holds a script, counts the assistant replies after it, and answers with the next
 * step; past the end it answers {@linkcode DEFAULT_FINAL_TEXT}. A subagent (the `Agent` tool) gets its
 * own script by carrying one in its `prompt`. Requests without a script (title or summary calls) get
 * a short text answer. Replies stream as SSE when the request asks for `stream`, as JSON otherwise.
 *
 * @module
 */

/** One block of a scripted model reply. */
export type ScriptBlock =
  | { tool: string; input: Record<string, unknown> }
  | { text: string };

/** One scripted model reply: its content blocks, in order. */
export type ScriptStep = ScriptBlock[];

/** What the model answers once the script has run out, and to requests without a script. */
export const DEFAULT_FINAL_TEXT = "Done.";

const OPEN = "<<<SCRIPT";
const CLOSE = "SCRIPT>>>";

/**
 * Renders steps as the block to embed in a prompt (or in an `Agent` tool's `prompt`).
 *
 * @example
 * ```ts
 * const prompt = `Run it.\n${scriptBlock([[{ tool: "Bash", input: { command: "true" } }], [{ text: "ok" }]])}`;
 * ```
 */
export function scriptBlock(steps: ScriptStep[]): string {
  return `${OPEN} ${JSON.stringify(steps)} ${CLOSE}`;
}

/**
 * Extracts the script from a text, or returns undefined when it has none. The outermost markers
 * win, so a script may hold nested scripts (inside strings) for subagents.
 *
 * @throws {SyntaxError} when the markers enclose something other than a JSON array of steps
 */
export function parseScript(text: string): ScriptStep[] | undefined {
  const start = text.indexOf(OPEN);
  const end = text.lastIndexOf(CLOSE);
  if (start < 0 || end < start) return undefined;
  const json = text.slice(start + OPEN.length, end);
  const steps: unknown = JSON.parse(json);
  if (!Array.isArray(steps) || !steps.every(Array.isArray)) {
    throw new SyntaxError(`Cannot parse script: not an array of steps: ${json.slice(0, 80)}`);
  }
  return steps as ScriptStep[];
}

/** A request the server received, as logged for tests to inspect. */
export interface LoggedRequest {
  /** HTTP method. */
  method: string;
  /** Path and query. */
  path: string;
  /** Parsed JSON body, or undefined when there was none. */
  body: unknown;
  /** Whether the server recognised the request. */
  handled: boolean;
}

/** Options for {@linkcode startModelServer}. */
export interface ModelServerOptions {
  /**
   * Called with every request the server did not expect (also kept in `requests`).
   * @default writes one line to stderr
   */
  onUnexpected?: (request: LoggedRequest) => void;
}

/** A running model server. */
export interface ModelServer {
  /** `http://127.0.0.1:<port>`, the value for `ANTHROPIC_BASE_URL`. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: LoggedRequest[];
  /** Stops the server and waits until it has closed. */
  stop(): Promise<void>;
}

interface ApiMessage {
  role: string;
  content: unknown;
}

function userOwnText(message: ApiMessage): string {
  if (typeof message.content === "string") return message.content;
  if (!Array.isArray(message.content)) return "";
  return message.content
    .filter((b): b is { type: "text"; text: string } =>
      typeof b === "object" && b !== null && b.type === "text" && typeof b.text === "string"
    )
    .map((b) => b.text)
    .join("\n");
}

/**
 * Chooses the reply for a Messages API request body: the next scripted step, or a plain text.
 * Exported for unit tests.
 */
export function chooseReply(body: unknown): ScriptStep {
  const messages = (body as { messages?: ApiMessage[] } | undefined)?.messages;
  if (!Array.isArray(messages)) return [{ text: DEFAULT_FINAL_TEXT }];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== "user") continue;
    const steps = parseScript(userOwnText(message));
    if (steps === undefined) continue;
    let replies = 0;
    for (let j = i + 1; j < messages.length; j++) {
      // Consecutive assistant entries are one reply split by Claude Code's normalisation.
      if (messages[j]?.role === "assistant" && messages[j - 1]?.role !== "assistant") replies++;
    }
    return steps[replies] ?? [{ text: DEFAULT_FINAL_TEXT }];
  }
  return [{ text: DEFAULT_FINAL_TEXT }];
}

let idCounter = 0;
function newId(prefix: string): string {
  idCounter++;
  const random = crypto.randomUUID().replaceAll("-", "").slice(0, 20);
  return `${prefix}_01${random}${idCounter.toString(36).padStart(4, "0")}`;
}

function contentBlocks(step: ScriptStep): Record<string, unknown>[] {
  return step.map((block) =>
    "tool" in block
      ? { type: "tool_use", id: newId("toolu"), name: block.tool, input: block.input }
      : { type: "text", text: block.text }
  );
}

function stopReason(step: ScriptStep): string {
  return step.some((b) => "tool" in b) ? "tool_use" : "end_turn";
}

function usage(): Record<string, number> {
  return {
    input_tokens: 10,
    output_tokens: 5,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

function jsonReply(model: string, step: ScriptStep): Response {
  return Response.json({
    id: newId("msg"),
    type: "message",
    role: "assistant",
    model,
    content: contentBlocks(step),
    stop_reason: stopReason(step),
    stop_sequence: null,
    usage: usage(),
  });
}

function sseReply(model: string, step: ScriptStep): Response {
  const events: [string, unknown][] = [];
  events.push(["message_start", {
    type: "message_start",
    message: {
      id: newId("msg"),
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage(), output_tokens: 1 },
    },
  }]);
  contentBlocks(step).forEach((block, index) => {
    if (block.type === "tool_use") {
      events.push(["content_block_start", {
        type: "content_block_start",
        index,
        content_block: { ...block, input: {} },
      }]);
      events.push(["content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      }]);
    } else {
      events.push(["content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      }]);
      events.push(["content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: block.text },
      }]);
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push(["message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReason(step), stop_sequence: null },
    usage: { output_tokens: 5 },
  }]);
  events.push(["message_stop", { type: "message_stop" }]);
  const text = events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)
    .join("");
  return new Response(text, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "request-id": newId("req"),
    },
  });
}

async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Starts the scripted model server on 127.0.0.1 with an ephemeral port.
 *
 * @example
 * ```ts
 * const server = await startModelServer();
 * try {
 *   // run Claude Code with ANTHROPIC_BASE_URL=server.baseUrl
 * } finally {
 *   await server.stop();
 * }
 * ```
 */
export function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const {
    onUnexpected = (r: LoggedRequest) =>
      console.error(`model_server: unexpected request ${r.method} ${r.path}`),
  } = options;
  const requests: LoggedRequest[] = [];
  const { promise: listening, resolve } = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: (addr) => resolve(addr as Deno.NetAddr),
  }, async (request) => {
    const url = new URL(request.url);
    const body = await readJson(request);
    const logged: LoggedRequest = {
      method: request.method,
      path: url.pathname + url.search,
      body,
      handled: true,
    };
    requests.push(logged);
    if (request.method === "HEAD") return new Response(null, { status: 200 });
    if (request.method === "POST" && url.pathname === "/v1/messages/count_tokens") {
      return Response.json({ input_tokens: 100 });
    }
    if (request.method === "POST" && url.pathname === "/v1/messages") {
      const b = (body ?? {}) as { model?: string; stream?: boolean };
      const model = typeof b.model === "string" ? b.model : "claude-scripted";
      let step: ScriptStep;
      try {
        step = chooseReply(body);
      } catch (error) {
        return Response.json({
          type: "error",
          error: { type: "invalid_request_error", message: String(error) },
        }, { status: 400 });
      }
      return b.stream === true ? sseReply(model, step) : jsonReply(model, step);
    }
    logged.handled = false;
    onUnexpected(logged);
    return Response.json({
      type: "error",
      error: { type: "not_found_error", message: `Not found: ${url.pathname}` },
    }, { status: 404 });
  });
  return listening.then((addr) => ({
    baseUrl: `http://127.0.0.1:${addr.port}`,
    requests,
    stop: () => server.shutdown(),
  }));
}
