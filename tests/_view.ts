/**
 * Test helpers: the web view started the way `deno task view` starts it
 * (`viewRunArgs`: its exact permission flags), on a store a test made.
 *
 * @module
 */

import { freeLoopbackPort, viewRunArgs } from "../view/start.ts";

/** A running view. */
export interface TestView {
  /** The URL it printed, token included. */
  url: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** The token. */
  token: string;
  /** The port. */
  port: number;
  /** A `Cookie` header carrying the token. */
  cookie: string;
  /** Stops it (SIGTERM) and returns its exit code. */
  stop(): Promise<number>;
  /** What it wrote on stderr so far. */
  stderr(): string;
}

/** Starts the view on `db` with its permission set and waits for its URL. */
export async function startTestView(db: string): Promise<TestView> {
  const port = freeLoopbackPort();
  const child = new Deno.Command(Deno.execPath(), {
    args: viewRunArgs({ db, port }),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
  }).spawn();
  let stderrText = "";
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of child.stderr) stderrText += decoder.decode(chunk, { stream: true });
    } catch { /* gone */ }
  })();
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const deadline = Date.now() + 20_000;
  let match: RegExpExecArray | null = null;
  while (!(match = /^(http:\/\/127\.0\.0\.1:(\d+))\/\?token=([0-9a-f]{64})$/m.exec(seen))) {
    if (Date.now() > deadline) throw new Error(`view did not start: ${seen}${stderrText}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`view exited: ${seen}${stderrText}`);
    seen += decoder.decode(value, { stream: true });
  }
  void (async () => {
    try {
      while (!(await reader.read()).done) { /* drain */ }
    } catch { /* closed */ }
  })();
  const token = match[3]!;
  return {
    url: match[0],
    origin: match[1]!,
    token,
    port,
    cookie: `cyberos_view_${port}=${token}`,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch {
        // Exited already.
      }
      return (await child.status).code;
    },
    stderr: () => stderrText,
  };
}
