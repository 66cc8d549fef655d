/**
 * The web view over HTTP, without a browser: who gets in (token, Host,
 * method, other sites), the headers every answer carries, the command line,
 * the escaping of hostile text, and the trust banner on a broken chain.
 *
 * @module
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { ROW_KINDS } from "../lib/kinds.ts";
import { META_KEYS, openStore } from "../lib/store.ts";
import { signCheckpoint } from "../lib/checkpoint.ts";
import { bytesToHex, MerkleFrontier, rowLeafHash } from "../lib/merkle.ts";
import { formatVerifierKey, NoteSigner } from "../lib/note.ts";
import { tokenMatches } from "../view/_auth.ts";
import { APP_JS } from "../view/_assets.ts";
import { SECURITY_HEADERS } from "../view/_server.ts";
import { markup, visible } from "../view/_text.ts";
import { readRows, ROOT } from "./_daemon.ts";
import { startTestView } from "./_view.ts";

const SESSION = "5b2e8c1d-0f4a-4c3e-9d7b-1a2b3c4d5e6f";

const DENO_DIR = Deno.env.get("DENO_DIR") ||
  `${Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME")}/.cache`}/deno`;

/** `deno` first on PATH: the launcher runs the view through it. */
const PATH = `${Deno.execPath().replace(/\/[^/]*$/, "")}:${
  Deno.env.get("PATH") ?? "/usr/bin:/bin"
}`;

/** The status code of a GET sent with exactly this Host header (fetch sets its own). */
async function statusWithHost(port: number, options: { host: string; cookie: string }) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(
      new TextEncoder().encode(
        `GET / HTTP/1.1\r\nHost: ${options.host}\r\nCookie: ${options.cookie}\r\nConnection: close\r\n\r\n`,
      ),
    );
    const buffer = new Uint8Array(64);
    const read = await conn.read(buffer);
    return Number(
      /^HTTP\/1\.1 (\d{3})/.exec(new TextDecoder().decode(buffer.subarray(0, read ?? 0)))?.[1],
    );
  } finally {
    conn.close();
  }
}

/** A store with one session: a prompt, a failed tool use, a turn end. */
async function smallStore(): Promise<{ dir: string; db: string }> {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-view-" });
  const db = `${dir}/capture.db`;
  const store = openStore(db);
  const t0 = 1_780_000_000_000_000_000;
  const common = { session_id: SESSION, cwd: "/home/dev/acme", trace_id: "cd".repeat(16) };
  store.transaction(() => {
    store.append({
      frameId: "a".repeat(32),
      kind: ROW_KINDS.prompt,
      payload: {
        ...common,
        prompt_hash: "0".repeat(64),
        prompt_redacted: "Fix the <b>build</b>",
        captured_at_ns: t0,
        redaction_match_count: 1,
      },
    });
    store.append({
      frameId: "b".repeat(32),
      kind: ROW_KINDS.toolUse,
      payload: {
        ...common,
        tool_name: "Bash",
        tool_args_hash: "1".repeat(64),
        outcome: "error",
        duration_ms: 1200,
        captured_at_ns: t0 + 2_000_000_000,
        error: "Exit code 1",
      },
    });
    store.append({
      frameId: "c".repeat(32),
      kind: ROW_KINDS.sessionCompleted,
      payload: {
        ...common,
        prompt_count: 1,
        tool_use_count: 1,
        duration_ms: 3000,
        last_assistant_message_redacted: "Done.",
        captured_at_ns: t0 + 3_000_000_000,
      },
    });
  });
  store.close();
  return { dir, db };
}

Deno.test("view refuses requests without the token, from another Host or site, and anything but GET", async (t) => {
  const { dir, db } = await smallStore();
  const view = await startTestView(db);
  const get = (path: string, init: RequestInit = {}) => fetch(`${view.origin}${path}`, init);
  try {
    await t.step("no token → 403, and nothing of the store in the answer", async () => {
      const response = await get("/");
      const body = await response.text();
      assert.equal(response.status, 403);
      assert.doesNotMatch(body, /acme|Chain|rows/);
    });
    await t.step("a wrong token of the right length → 403", async () => {
      const wrong = view.token.replace(/^./, (c) => (c === "a" ? "b" : "a"));
      assert.equal((await get(`/?token=${wrong}`, { redirect: "manual" })).status, 403);
      const cookie = `cyberos_view_${view.port}=${wrong}`;
      const response = await get("/api/rows?session=x", { headers: { cookie } });
      assert.equal(response.status, 403);
      await response.body?.cancel();
    });
    await t.step(
      "the token → 303 to the same URL without it, setting an HttpOnly SameSite=Strict cookie",
      async () => {
        const response = await get(`/session?id=${SESSION}&token=${view.token}`, {
          redirect: "manual",
        });
        assert.equal(response.status, 303);
        assert.equal(response.headers.get("location"), `/session?id=${SESSION}`);
        assert.equal(
          response.headers.get("set-cookie"),
          `${view.cookie}; Path=/; HttpOnly; SameSite=Strict`,
        );
      },
    );
    await t.step("the cookie → 200 with the security headers", async () => {
      const response = await get("/", { headers: { cookie: view.cookie } });
      const body = await response.text();
      assert.equal(response.status, 200);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
        assert.equal(response.headers.get(name), value, name);
      }
      assert.match(body, /\/home\/dev\/acme/);
    });
    await t.step("POST, PUT, DELETE with the cookie → 405 naming GET and HEAD", async () => {
      for (const method of ["POST", "PUT", "DELETE"]) {
        const response = await get("/", { method, headers: { cookie: view.cookie }, body: "x" });
        assert.equal(response.status, 405, method);
        assert.equal(response.headers.get("allow"), "GET, HEAD");
        await response.body?.cancel();
      }
    });
    await t.step("HEAD with the cookie → 200", async () => {
      const response = await get("/", { method: "HEAD", headers: { cookie: view.cookie } });
      assert.equal(response.status, 200);
    });
    await t.step("another Host header (DNS rebinding) → 403 even with the cookie", async () => {
      const cookie = view.cookie;
      assert.equal(
        await statusWithHost(view.port, { host: `127.0.0.1:${view.port}`, cookie }),
        200,
      );
      assert.equal(
        await statusWithHost(view.port, { host: `localhost:${view.port}`, cookie }),
        200,
      );
      for (
        const host of [`attacker.example:${view.port}`, "127.0.0.1", `127.0.0.1:${view.port + 1}`]
      ) {
        assert.equal(await statusWithHost(view.port, { host, cookie }), 403, host);
      }
    });
    await t.step(
      "a request another site started (Sec-Fetch-Site) → 403 even with the cookie",
      async () => {
        for (const site of ["cross-site", "same-site"]) {
          const response = await get("/api/trust", {
            headers: { cookie: view.cookie, "sec-fetch-site": site },
          });
          assert.equal(response.status, 403, site);
          await response.body?.cancel();
        }
      },
    );
    await t.step("an unknown page → 404, a bad seq → 400", async () => {
      const headers = { cookie: view.cookie };
      const missing = await get("/nope", { headers });
      assert.equal(missing.status, 404);
      await missing.body?.cancel();
      const bad = await get("/row?seq=-1", { headers });
      assert.equal(bad.status, 400);
      await bad.body?.cancel();
    });
  } finally {
    assert.equal(await view.stop(), 0);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("view filters sessions by project, time, kind and text", async () => {
  const { dir, db } = await smallStore();
  const view = await startTestView(db);
  const listed = async (query: string) => {
    const response = await fetch(`${view.origin}/?${query}`, { headers: { cookie: view.cookie } });
    assert.equal(response.status, 200, query);
    return (await response.text()).includes(`/session?id=${SESSION}`);
  };
  try {
    assert.equal(await listed(""), true);
    assert.equal(await listed("project=%2Fhome%2Fdev"), true);
    assert.equal(await listed("project=%2Fhome%2Fdevx"), false);
    assert.equal(await listed("kind=memory.claude_tool_use"), true);
    assert.equal(await listed("kind=memory.claude_capture_redaction_failed"), false);
    assert.equal(await listed("q=EXIT+CODE"), true);
    assert.equal(await listed("q=not+there"), false);
    const started = new Date(1_780_000_000_000);
    const local = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${
        String(d.getDate()).padStart(2, "0")
      }T${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
    const hourAfter = new Date(started.getTime() + 3_600_000);
    assert.equal(await listed(`since=${local(started)}`), true);
    assert.equal(await listed(`since=${local(hourAfter)}`), false);
    assert.equal(await listed(`until=${local(hourAfter)}`), true);
    const response = await fetch(`${view.origin}/?since=yesterday`, {
      headers: { cookie: view.cookie },
    });
    assert.equal(response.status, 400);
    await response.body?.cancel();
  } finally {
    await view.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("view's timeline shows a tool's subject and a kind it does not know, as inert text", async () => {
  const { dir, db } = await smallStore();
  const store = openStore(db);
  const common = { session_id: SESSION, cwd: "/home/dev/acme", trace_id: "cd".repeat(16) };
  store.transaction(() => {
    store.append({
      frameId: "d".repeat(32),
      kind: ROW_KINDS.toolUse,
      payload: {
        ...common,
        tool_name: "Edit",
        tool_args_hash: "2".repeat(64),
        outcome: "success",
        duration_ms: 40,
        captured_at_ns: 1_780_000_004_000_000_000,
        subject: "src/<orders>.ts",
      },
    });
    store.append({
      frameId: "e".repeat(32),
      // A lifecycle kind newer than this view.
      kind: "memory.claude_session_end" as typeof ROW_KINDS.prompt,
      payload: { ...common, reason: "<logout>", captured_at_ns: 1_780_000_005_000_000_000 },
    });
  });
  store.close();
  const view = await startTestView(db);
  try {
    const response = await fetch(`${view.origin}/session?id=${SESSION}`, {
      headers: { cookie: view.cookie },
    });
    const body = await response.text();
    assert.match(body, /<span class="subject">src\/&lt;orders&gt;\.ts<\/span>/);
    assert.match(
      body,
      /<li class="row kind-other" data-seq="5"[^]*<span class="badge">session_end<\/span>[^]*&quot;reason&quot;:&quot;&lt;logout&gt;&quot;/,
    );
  } finally {
    await view.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("view pages a long session by 2,000 rows and goes live only on its last page", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-view-" });
  const db = `${dir}/capture.db`;
  const store = openStore(db);
  store.transaction(() => {
    for (let i = 1; i <= 2001; i++) {
      store.append({
        frameId: i.toString(16).padStart(32, "0"),
        kind: ROW_KINDS.prompt,
        payload: {
          session_id: SESSION,
          prompt_hash: "0".repeat(64),
          prompt_redacted: `prompt ${i}`,
          cwd: "/home/dev/acme",
          trace_id: "cd".repeat(16),
          captured_at_ns: 1_780_000_000_000_000_000 + i * 1_000_000,
          redaction_match_count: 0,
        },
      });
    }
  });
  store.close();
  const view = await startTestView(db);
  const get = async (path: string) => {
    const response = await fetch(`${view.origin}${path}`, { headers: { cookie: view.cookie } });
    assert.equal(response.status, 200, path);
    return await response.text();
  };
  try {
    const first = await get(`/session?id=${SESSION}`);
    assert.equal(first.match(/<li class="row /g)?.length, 2000);
    assert.match(first, /data-after="2000" data-live="false"/);
    assert.ok(first.includes(`<a href="/session?id=${SESSION}&amp;after=2000">Later rows →</a>`));
    const last = await get(`/session?id=${SESSION}&after=2000`);
    assert.equal(last.match(/<li class="row /g)?.length, 1);
    assert.match(last, /data-after="2001" data-live="true"/);
    assert.match(last, /prompt 2001/);
    assert.ok(last.includes(`<a href="/session?id=${SESSION}">← First rows</a>`));
  } finally {
    await view.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("view answers 500 with its headers when the store cannot be read, and keeps serving", async () => {
  const { dir, db } = await smallStore();
  // A rollback journal, so that one writer's exclusive lock keeps readers out.
  const locker = new DatabaseSync(db);
  locker.exec("PRAGMA journal_mode = DELETE");
  const view = await startTestView(db);
  const headers = { cookie: view.cookie };
  try {
    const before = await fetch(`${view.origin}/`, { headers });
    assert.equal(before.status, 200);
    await before.body?.cancel();
    // Another process holds the store locked past the view's busy timeout (2 s).
    locker.exec("BEGIN EXCLUSIVE");
    const response = await fetch(`${view.origin}/`, { headers });
    const body = await response.text();
    assert.equal(response.status, 500);
    assert.equal(
      response.headers.get("content-security-policy"),
      SECURITY_HEADERS["content-security-policy"],
    );
    assert.match(body, /Cannot read the store: /);
    assert.match(view.stderr(), /^cyberos-memory view: GET \/: /m);
    locker.exec("ROLLBACK");
    const again = await fetch(`${view.origin}/`, { headers });
    assert.equal(again.status, 200);
    await again.body?.cancel();
  } finally {
    locker.close();
    await view.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("view's banner names the first bad seq of a tampered chain", async () => {
  const { dir, db } = await smallStore();
  const raw = new DatabaseSync(db);
  raw.exec("DROP TRIGGER rows_no_update");
  raw.exec(
    "UPDATE rows SET payload = replace(payload, 'Exit code 1', 'Exit code 0') WHERE seq = 2",
  );
  raw.close();
  const view = await startTestView(db);
  try {
    let trust = { status: "verifying", text: "" };
    for (let i = 0; i < 100 && trust.status === "verifying"; i++) {
      const response = await fetch(`${view.origin}/api/trust`, {
        headers: { cookie: view.cookie },
      });
      trust = await response.json();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(trust.status, "broken");
    assert.match(trust.text, /Chain BROKEN at seq 2: hash does not match the row's content/);
  } finally {
    await view.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Signs a checkpoint of every row of `db` (its root changed when `wrongRoot`), by the store's key or another. */
async function addCheckpoint(db: string, options: { wrongRoot: boolean; otherKey: boolean }) {
  const origin = "cyberos-memory/0123456789abcdef";
  const key = () => NoteSigner.fromPrivateKey(origin, crypto.getRandomValues(new Uint8Array(32)));
  const storeKey = await key();
  const tree = new MerkleFrontier();
  for (const row of readRows(db)) tree.appendLeafHash(rowLeafHash(row.hash));
  const root = tree.root();
  if (options.wrongRoot) root[0]! ^= 1;
  const signer = options.otherKey ? await key() : storeKey;
  const note = await signCheckpoint({ origin, size: tree.size, root, extensions: [] }, signer);
  const store = openStore(db);
  store.setMeta(META_KEYS.origin, origin);
  store.setMeta(META_KEYS.verifierKey, formatVerifierKey(storeKey));
  store.appendCheckpoint({ size: tree.size, root: bytesToHex(root), note, signedAtMs: Date.now() });
  store.close();
}

Deno.test("view's banner checks the latest signed checkpoint against the rows and the store's key", async (t) => {
  const cases = [
    {
      wrongRoot: false,
      otherKey: false,
      status: "intact",
      says: "its signature verifies with the store's key and the rows still have its root",
    },
    {
      wrongRoot: true,
      otherKey: false,
      status: "broken",
      says: "the rows NO LONGER have its root",
    },
    {
      wrongRoot: false,
      otherKey: true,
      status: "broken",
      says: "its signature does NOT verify with the store's key",
    },
  ];
  for (const { says, status, ...options } of cases) {
    await t.step(says, async () => {
      const { dir, db } = await smallStore();
      await addCheckpoint(db, options);
      const view = await startTestView(db);
      try {
        let trust = { status: "verifying", text: "" };
        const judged = () =>
          trust.text.includes("rows, signed") && !trust.text.includes("next walk");
        for (let i = 0; i < 100 && !judged(); i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          const response = await fetch(`${view.origin}/api/trust`, {
            headers: { cookie: view.cookie },
          });
          trust = await response.json();
        }
        assert.match(trust.text, /Latest signed checkpoint: 3 rows, signed [\d.]+ (ms|s) ago; /);
        assert.ok(trust.text.includes(says), trust.text);
        assert.equal(trust.status, status);
      } finally {
        await view.stop();
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("deno task view: --help, unknown flags, a missing store", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-view-" });
  const task = async (args: string[]) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "view", ...args],
      cwd: ROOT,
      clearEnv: true,
      env: { PATH, DENO_DIR, HOME: dir, CYBEROS_MEMORY_DB: `${dir}/none.db` },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
  };
  try {
    await t.step("--help → usage, exit 0", async () => {
      const run = await task(["--help"]);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /^usage: deno task view \[--port N\]/);
    });
    await t.step("an unknown flag → exit 2", async () => {
      const run = await task(["--write"]);
      assert.equal(run.code, 2);
      assert.equal(
        run.stderr.trim(),
        'cyberos-memory view: unexpected argument "--write"; use --port N or --help',
      );
    });
    await t.step("a bad port → exit 2", async () => {
      const run = await task(["--port", "99999"]);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /^cyberos-memory view: --port needs a port from 1 to 65535/);
    });
    await t.step("no store yet → exit 1 saying how to make one", async () => {
      const run = await task([]);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /^cyberos-memory view: .*none\.db: no store yet; start the daemon/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task view prints a tokened URL and serves the store at it", async () => {
  const { dir, db } = await smallStore();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "view"],
    cwd: ROOT,
    clearEnv: true,
    env: { PATH, DENO_DIR, HOME: dir, CYBEROS_MEMORY_DB: db },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  let seen = "";
  try {
    while (!/\n/.test(seen)) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    const url = seen.split("\n")[0]!;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
    const redirect = await fetch(url, { redirect: "manual" });
    assert.equal(redirect.status, 303);
    const cookie = redirect.headers.get("set-cookie")!.split(";")[0]!;
    const response = await fetch(new URL("/", url), { headers: { cookie } });
    assert.equal(response.status, 200);
    assert.match(await response.text(), /\/home\/dev\/acme/);
  } finally {
    child.kill("SIGINT");
    await reader.cancel();
    await child.stderr.cancel();
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "visible() and markup`` make hostile text inert and its hidden characters visible",
  permissions: "none",
  fn() {
    assert.equal(visible("a\u202Eb\u2066c\u0007d\u200Be"), "a⟨U+202E⟩b⟨U+2066⟩c⟨U+0007⟩d⟨U+200B⟩e");
    assert.equal(visible("tab\tand\nnewline stay"), "tab\tand\nnewline stay");
    assert.equal(visible("lone \ud800 surrogate"), "lone ⟨U+D800⟩ surrogate");
    assert.equal(visible("pair \ud83d\ude00 kept"), "pair \ud83d\ude00 kept");
    const hostile = `<script>alert(1)</script>" onmouseover="x' javascript:alert(1)`;
    assert.equal(
      markup`<p title="${hostile}">${hostile}</p>`.markup,
      '<p title="&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover=&quot;x&#39; javascript:alert(1)">' +
        "&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover=&quot;x&#39; javascript:alert(1)</p>",
    );
    assert.equal(markup`<i>${markup`<b>${"<"}</b>`}</i>`.markup, "<i><b>&lt;</b></i>");
  },
});

Deno.test({
  name: "tokenMatches() accepts only the exact token",
  permissions: "none",
  fn() {
    const token = "ab".repeat(32);
    assert.equal(tokenMatches(token, token), true);
    assert.equal(tokenMatches(undefined, token), false);
    assert.equal(tokenMatches("", token), false);
    assert.equal(tokenMatches(token.slice(0, -1), token), false);
    assert.equal(tokenMatches(`${token}a`, token), false);
    assert.equal(tokenMatches(`${token.slice(0, -1)}c`, token), false);
  },
});

Deno.test({
  name:
    "app.js parses and sets no markup from data (no innerHTML, outerHTML, insertAdjacentHTML, document.write)",
  permissions: "none",
  fn() {
    assert.doesNotThrow(() => new Function(APP_JS));
    assert.doesNotMatch(APP_JS, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
  },
});
