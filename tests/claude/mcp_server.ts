/**
 * A tiny stdio MCP server for the end-to-end tests: newline-delimited JSON-RPC 2.0 on stdin and
 * stdout, no SDK. It offers one tool, `echo`, which answers `echo: <text>` (and fails with an error
 * result when `text` is `"fail"`). Claude Code names it `mcp__<server name>__echo`.
 *
 * Run: `deno run -q mcp_server.ts` (no permissions needed).
 *
 * @module
 */

/** The protocol version answered when the client does not name one. */
export const MCP_PROTOCOL_VERSION = "2025-06-18";

/** The tool's name as the server knows it. */
export const MCP_TOOL_NAME = "echo";

interface JsonRpcRequest {
  jsonrpc: "2.0";
  id?: string | number | null;
  method: string;
  params?: Record<string, unknown>;
}

/**
 * Answers one JSON-RPC message, or returns undefined for a notification. Exported for unit tests.
 */
export function handleMessage(message: JsonRpcRequest): Record<string, unknown> | undefined {
  if (message.id === undefined || message.id === null) return undefined;
  const reply = (result: unknown) => ({ jsonrpc: "2.0", id: message.id, result });
  switch (message.method) {
    case "initialize": {
      const requested = message.params?.protocolVersion;
      return reply({
        protocolVersion: typeof requested === "string" ? requested : MCP_PROTOCOL_VERSION,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: "cyberos-test-mcp", version: "1.0.0" },
      });
    }
    case "ping":
      return reply({});
    case "tools/list":
      return reply({
        tools: [{
          name: MCP_TOOL_NAME,
          description: "Echoes the given text back.",
          inputSchema: {
            type: "object",
            properties: { text: { type: "string", description: "Text to echo" } },
            required: ["text"],
            additionalProperties: false,
          },
        }],
      });
    case "tools/call": {
      const name = message.params?.name;
      const args = (message.params?.arguments ?? {}) as { text?: unknown };
      if (name !== MCP_TOOL_NAME) {
        return {
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32602, message: `Unknown tool: ${String(name)}` },
        };
      }
      const text = typeof args.text === "string" ? args.text : "";
      return reply({
        content: [{ type: "text", text: text === "fail" ? "echo failed" : `echo: ${text}` }],
        isError: text === "fail",
      });
    }
    case "resources/list":
      return reply({ resources: [] });
    case "prompts/list":
      return reply({ prompts: [] });
    default:
      return {
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32601, message: `Method not found: ${message.method}` },
      };
  }
}

async function main(): Promise<void> {
  const encoder = new TextEncoder();
  const writer = Deno.stdout.writable.getWriter();
  let buffered = "";
  for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line === "") continue;
      let answer: Record<string, unknown> | undefined;
      try {
        answer = handleMessage(JSON.parse(line) as JsonRpcRequest);
      } catch {
        answer = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } };
      }
      if (answer !== undefined) await writer.write(encoder.encode(JSON.stringify(answer) + "\n"));
    }
  }
}

if (import.meta.main) await main();
