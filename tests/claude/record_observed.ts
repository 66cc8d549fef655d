/**
 * Re-records `tests/claude/observed/`: runs the pinned Claude Code CLI offline against the
 * scripted model (three sessions: built-in tools, a subagent, an MCP tool), with only a recorder
 * hook installed, and writes the first payload of each event and tool as one JSON file, with the
 * temporary folder's path scrubbed to `/tmp/cyberos-cc-XXXX`.
 *
 * Usage: `CLAUDE_CODE_BIN=… deno run -A tests/claude/record_observed.ts`, then review the diff:
 * `tests/payload_test.ts` holds the fixtures in `tests/fixtures/claude-code/` to these shapes.
 *
 * @module
 */

import { fileUrlToPath } from "../../lib/file_url.ts";
import { scriptBlock, type ScriptStep } from "./model_server.ts";
import { ensureClaudeCli, MCP_SERVER_NAME } from "./run_turn.ts";
import { runScenario } from "./scenario.ts";

const OUT = fileUrlToPath(new URL("./observed/", import.meta.url));
const MCP_TOOL = `mcp__${MCP_SERVER_NAME}__echo`;

function prompt(text: string, steps: ScriptStep[]): string {
  return `${text}\n${scriptBlock(steps)}`;
}

/** The file name a payload is kept under: event, then tool, then where it ran. */
function observedName(payload: Record<string, unknown>): string {
  const event = String(payload.hook_event_name).replace(/(?<=[a-z])(?=[A-Z])/g, "_")
    .toLowerCase();
  if (typeof payload.tool_name !== "string") return event;
  const tool = payload.tool_name.startsWith("mcp__") ? "mcp" : payload.tool_name.toLowerCase();
  return `${event}_${tool}${"agent_id" in payload ? "_in_subagent" : ""}`;
}

const inner = scriptBlock([
  [{ tool: "Bash", input: { command: "echo from-subagent", description: "inner" } }],
  [{ text: "Subagent finished." }],
]);

const sessions = [
  {
    expectedRows: 0,
    files: { "notes.txt": "remember the milk\n" },
    turns: (project: string) => [{
      prompt: prompt("Please do things.", [
        [{ tool: "Bash", input: { command: "echo hi", description: "say hi" } }],
        [{ tool: "Bash", input: { command: "exit 3", description: "fail" } }],
        [{ tool: "Write", input: { file_path: `${project}/a.txt`, content: "secret=x\n" } }],
        [{
          tool: "Edit",
          input: { file_path: `${project}/a.txt`, old_string: "secret", new_string: "key" },
        }],
        [
          { tool: "Read", input: { file_path: `${project}/notes.txt` } },
          { tool: "Read", input: { file_path: `${project}/a.txt` } },
        ],
        [{ text: "All done here." }],
      ]),
    }],
  },
  {
    expectedRows: 0,
    turns: () => [{
      allowedTools: ["Bash", "Agent"],
      prompt: prompt("Delegate.", [
        [{
          tool: "Agent",
          input: {
            description: "Run one command",
            prompt: `Run it.\n${inner}`,
            subagent_type: "general-purpose",
            run_in_background: false,
          },
        }],
        [{ text: "Delegated." }],
      ]),
    }],
  },
  {
    expectedRows: 0,
    mcp: true,
    turns: () => [{
      allowedTools: [MCP_TOOL],
      prompt: prompt("Echo twice.", [
        [{ tool: MCP_TOOL, input: { text: "hello mcp" } }],
        [{ tool: MCP_TOOL, input: { text: "fail" } }],
        [{ text: "Echoed." }],
      ]),
    }],
  },
];

if (import.meta.main) {
  await ensureClaudeCli();
  const kept = new Map<string, string>();
  for (const session of sessions) {
    const result = await runScenario({ ...session, capture: false });
    const scrub = (text: string) =>
      text.replaceAll(result.root, "/tmp/cyberos-cc-XXXX")
        .replaceAll(result.root.replaceAll("/", "-"), "-tmp-cyberos-cc-XXXX");
    for (const payload of result.payloads) {
      const name = observedName(payload);
      if (!kept.has(name)) kept.set(name, scrub(JSON.stringify(payload, null, 2)) + "\n");
    }
  }
  for (const [name, text] of [...kept].sort()) {
    await Deno.writeTextFile(`${OUT}${name}.json`, text);
    console.log(`${OUT}${name}.json`);
  }
}
