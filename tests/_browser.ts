/**
 * Test helpers: a real headless Chromium (Debian's `chromium` package) driven
 * over its DevTools protocol with Deno's own WebSocket, so the tests download
 * nothing. Each page records its console messages, uncaught exceptions and
 * every URL it requested.
 *
 * @module
 */

/** Where Debian puts the browser binary (`/usr/bin/chromium` is a wrapper script that forks it). */
const CHROMIUM_CANDIDATES = ["/usr/lib/chromium/chromium", "/usr/bin/chromium"];

/** The Chromium binary, or `undefined` when none is installed. */
export function chromiumPath(): string | undefined {
  for (const path of CHROMIUM_CANDIDATES) {
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

interface Pending {
  resolve: (value: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

type Listener = (params: Record<string, unknown>, sessionId: string | undefined) => void;

/** A DevTools protocol connection. */
class Connection {
  readonly #socket: WebSocket;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Set<{ method: string; listener: Listener }>();
  #nextId = 1;

  constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data));
      if (typeof message.id === "number") {
        const pending = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.error) pending?.reject(new Error(`CDP: ${message.error.message}`));
        else pending?.resolve(message.result ?? {});
        return;
      }
      for (const { method, listener } of this.#listeners) {
        if (method === message.method) listener(message.params ?? {}, message.sessionId);
      }
    };
  }

  send(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    this.#socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }

  on(method: string, listener: Listener): () => void {
    const entry = { method, listener };
    this.#listeners.add(entry);
    return () => this.#listeners.delete(entry);
  }

  close(): void {
    this.#socket.close();
  }
}

/** A tab. */
export interface Page {
  /** Navigates and waits for the load event; returns the document's HTTP status. */
  goto(url: string): Promise<number>;
  /** Evaluates `expression` in the page (awaiting a promise) and returns its value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Waits until `expression` is truthy in the page. */
  waitFor(expression: string, options?: { timeoutMs?: number }): Promise<void>;
  /** Presses and releases a key (`Tab`, `Enter`) as a keyboard would. */
  press(key: "Tab" | "Enter"): Promise<void>;
  /** Renders as if the system asked for a light or dark colour scheme. */
  colorScheme(scheme: "light" | "dark"): Promise<void>;
  /** Writes a PNG of the viewport to `path`. */
  screenshot(path: string): Promise<void>;
  /** Console messages and uncaught exceptions so far. */
  readonly console: string[];
  /** Every URL the page requested so far. */
  readonly requests: string[];
}

/** A running browser. */
export interface Browser {
  /** Opens a 1280×800 tab; `isolated` gives it a fresh profile (no cookies). */
  newPage(options?: { isolated?: boolean }): Promise<Page>;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** The flags that keep Chromium quiet, local and headless here. */
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-extensions",
  "--remote-debugging-port=0",
];

/** Starts headless Chromium with a new empty profile. */
export async function launchBrowser(): Promise<Browser> {
  const binary = chromiumPath();
  if (!binary) throw new Error("chromium is not installed: apt-get install -y chromium");
  const profile = await Deno.makeTempDir({ prefix: "cyberos-chromium-" });
  const child = new Deno.Command(binary, {
    args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, "about:blank"],
    // Chromium's singleton lock goes to TMPDIR and outlives a killed browser: keep it in the profile.
    env: { TMPDIR: profile },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const endpoint = await devtoolsEndpoint(child.stderr);
  const socket = new WebSocket(endpoint);
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error(`cannot connect to ${endpoint}`));
  });
  const connection = new Connection(socket);

  return {
    async newPage(options = {}) {
      const context = options.isolated
        ? {
          browserContextId: (await connection.send("Target.createBrowserContext")).browserContextId,
        }
        : {};
      const { targetId } = await connection.send("Target.createTarget", {
        url: "about:blank",
        ...context,
      });
      const { sessionId } = await connection.send("Target.attachToTarget", {
        targetId,
        flatten: true,
      }) as { sessionId: string };
      return await openPage(connection, sessionId);
    },
    async close() {
      try {
        await Promise.race([
          connection.send("Browser.close"),
          new Promise((resolve) => setTimeout(resolve, 3000)),
        ]);
      } catch {
        // Gone already.
      }
      connection.close();
      try {
        child.kill("SIGKILL");
      } catch {
        // Exited.
      }
      await child.status;
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

async function openPage(connection: Connection, sessionId: string): Promise<Page> {
  const send = (method: string, params: Record<string, unknown> = {}) =>
    connection.send(method, params, sessionId);
  const consoleLines: string[] = [];
  const requests: string[] = [];
  const mine = (listener: (params: Record<string, unknown>) => void): Listener => (params, id) => {
    if (id === sessionId) listener(params);
  };
  connection.on(
    "Runtime.consoleAPICalled",
    mine((params) => {
      const args = params.args as { value?: unknown; description?: string }[];
      consoleLines.push(
        `${params.type}: ${args.map((arg) => String(arg.value ?? arg.description)).join(" ")}`,
      );
    }),
  );
  connection.on(
    "Runtime.exceptionThrown",
    mine((params) => consoleLines.push(`exception: ${JSON.stringify(params.exceptionDetails)}`)),
  );
  connection.on(
    "Log.entryAdded",
    mine((params) => {
      const entry = params.entry as { level: string; text: string };
      consoleLines.push(`${entry.level}: ${entry.text}`);
    }),
  );
  connection.on(
    "Network.requestWillBeSent",
    mine((params) => requests.push(String((params.request as { url: string }).url))),
  );
  await send("Page.enable");
  await send("Runtime.enable");
  await send("Log.enable");
  await send("Network.enable");
  await send("Emulation.setDeviceMetricsOverride", {
    width: 1280,
    height: 800,
    deviceScaleFactor: 1,
    mobile: false,
  });

  const page: Page = {
    console: consoleLines,
    requests,
    async goto(url) {
      const loaded = new Promise<void>((resolve) => {
        const off = connection.on(
          "Page.loadEventFired",
          mine(() => {
            off();
            resolve();
          }),
        );
      });
      await send("Page.navigate", { url });
      await loaded;
      return await page.evaluate<number>(
        "performance.getEntriesByType('navigation')[0]?.responseStatus ?? 0",
      );
    },
    async evaluate<T>(expression: string) {
      const result = await send("Runtime.evaluate", {
        expression,
        awaitPromise: true,
        returnByValue: true,
      }) as { result: { value: T }; exceptionDetails?: unknown };
      if (result.exceptionDetails) {
        throw new Error(`evaluate failed: ${JSON.stringify(result.exceptionDetails)}`);
      }
      return result.result.value;
    },
    async waitFor(expression, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 10_000);
      while (!(await page.evaluate<boolean>(`Boolean(${expression})`))) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async press(key) {
      const code = { Tab: 9, Enter: 13 }[key];
      const text = key === "Enter" ? { text: "\r" } : {};
      await send("Input.dispatchKeyEvent", {
        type: "keyDown",
        key,
        code: key,
        windowsVirtualKeyCode: code,
        ...text,
      });
      await send("Input.dispatchKeyEvent", {
        type: "keyUp",
        key,
        code: key,
        windowsVirtualKeyCode: code,
      });
    },
    async colorScheme(scheme) {
      await send("Emulation.setEmulatedMedia", {
        features: [{ name: "prefers-color-scheme", value: scheme }],
      });
    },
    async screenshot(path) {
      const { data } = await send("Page.captureScreenshot", { format: "png" }) as {
        data: string;
      };
      await Deno.writeFile(path, Uint8Array.from(atob(data), (char) => char.charCodeAt(0)));
    },
  };
  return page;
}

async function devtoolsEndpoint(stderr: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  const reader = stderr.getReader();
  let seen = "";
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += decoder.decode(value, { stream: true });
    const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
    if (match) {
      // Keep reading so the browser never blocks on a full pipe.
      void (async () => {
        try {
          while (!(await reader.read()).done) { /* drain */ }
        } catch { /* closed */ }
      })();
      return match[1]!;
    }
  }
  throw new Error(`chromium did not start: ${seen.slice(-2000)}`);
}
