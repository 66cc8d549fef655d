/**
 * The web view in a real headless Chromium, on rows a real daemon stored from
 * real hook runs: the sessions list, a session's timeline in order with its
 * outcomes, a row arriving while the page is open, a hostile prompt that runs
 * nothing, the token and method gates, and no request leaving the server.
 * Screenshots of both pages go to `test-output/` (git-ignored).
 *
 * @module
 */

import assert from "node:assert/strict";
import { launchBrowser } from "./_browser.ts";
import { ROOT, runHook, startTestDaemon, waitForRows } from "./_daemon.ts";
import { startTestView } from "./_view.ts";

const OUTPUT = `${ROOT}/test-output`;
const FIRST = "7d3f0b2a-1c4e-4f5a-8b6c-9d0e1f2a3b4c";
const SECOND = "0a9b8c7d-6e5f-4a3b-2c1d-0e9f8a7b6c5d";
const PROJECT = "/home/dev/src/acme-api";

/** A Claude Code payload of `event` for `session`, as Claude Code sends it. */
function payload(session: string, event: string, fields: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: `/home/dev/.claude/projects/-home-dev-src-acme-api/${session}.jsonl`,
    cwd: PROJECT,
    permission_mode: "default",
    hook_event_name: event,
    ...fields,
  });
}

const prompt = (session: string, text: string) =>
  payload(session, "UserPromptSubmit", { prompt: text });

const bash = (session: string, command: string, options: { failed: boolean; ms: number }) =>
  options.failed
    ? payload(session, "PostToolUseFailure", {
      tool_name: "Bash",
      tool_input: { command },
      tool_use_id: `toolu_${crypto.randomUUID().replaceAll("-", "")}`,
      error: `Exit code 1\n${command}: failed`,
      is_interrupt: false,
      duration_ms: options.ms,
    })
    : payload(session, "PostToolUse", {
      tool_name: "Bash",
      tool_input: { command },
      tool_response: { stdout: "ok", stderr: "", interrupted: false, isImage: false },
      tool_use_id: `toolu_${crypto.randomUUID().replaceAll("-", "")}`,
      duration_ms: options.ms,
    });

const stop = (session: string, message: string) =>
  payload(session, "Stop", { stop_hook_active: false, last_assistant_message: message });

/** What a hostile prompt tries: script, handlers, a javascript: link, bidi and control characters. */
const HOSTILE = [
  "<script>window.__pwned = 'script'</script>",
  `<img src="x" onerror="window.__pwned = 'img'">`,
  `<a href="javascript:window.__pwned = 'link'">click</a> [md](javascript:alert(1))`,
  "</p></li></ol><svg onload=\"window.__pwned = 'svg'\">",
  "admin\u202Etxt.exe\u202C and \u2066isolated\u2069, bell\u0007 escape\u001b[31m",
].join("\n");

Deno.test("view in Chromium: sessions, a timeline in order, live rows, hostile text, gates", async (t) => {
  await Deno.mkdir(OUTPUT, { recursive: true });
  const daemon = await startTestDaemon();
  let stored = 0;
  const hook = async (event: string, input: string) => {
    const run = await runHook(daemon, event, input);
    assert.equal(run.stderr, "", `hook ${event} warned`);
    await waitForRows(daemon.db, ++stored);
  };
  await hook("userpromptsubmit", prompt(FIRST, "Run the tests and fix what fails"));
  await hook("posttooluse", bash(FIRST, "npm test", { failed: false, ms: 6400 }));
  await hook("posttoolusefailure", bash(FIRST, "npm run lint", { failed: true, ms: 1600 }));
  await hook("stop", stop(FIRST, "Tests pass; lint fails on one file."));
  await hook(
    "userpromptsubmit",
    prompt(SECOND, "Rotate AKIAZ3MHQWERTY7ABCDE and mail jane.doe@acme-corp.io"),
  );

  const view = await startTestView(daemon.db);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();

    await t.step("the sessions list shows both sessions with their counts", async () => {
      assert.equal(await page.goto(view.url), 200);
      const rows = await page.evaluate<string[][]>(
        `[...document.querySelectorAll("#sessions tr")].map((tr) =>
           [...tr.cells].map((td) => td.textContent.trim()))`,
      );
      assert.equal(rows.length, 2);
      const [second, first] = rows;
      // Session, project, start, duration, prompts, tool calls, failures, redactions.
      assert.equal(first![0], FIRST.slice(0, 8));
      assert.equal(first![1], PROJECT);
      assert.deepEqual(first!.slice(4), ["1", "2", "1", "0"]);
      assert.equal(second![0], SECOND.slice(0, 8));
      assert.deepEqual(second!.slice(4), ["1", "0", "0", "2"]);
      await page.waitFor(`document.getElementById("trust").textContent.startsWith("Chain intact")`);
    });

    await t.step("the session page shows its rows in order with the right outcomes", async () => {
      // By keyboard: Tab through the page to the session's link, then Enter.
      const focused: string[] = [];
      for (let i = 0; i < 30; i++) {
        await page.press("Tab");
        focused.push(await page.evaluate<string>(`document.activeElement.textContent.trim()`));
        if (focused.at(-1) === FIRST.slice(0, 8)) break;
      }
      assert.equal(focused[0], "Skip to content");
      assert.ok(focused.includes("Filter"), focused.join(" | "));
      assert.equal(focused.at(-1), FIRST.slice(0, 8), focused.join(" | "));
      await page.press("Enter");
      await page.waitFor(`location.pathname === "/session" && document.getElementById("timeline")`);
      const rows = await page.evaluate<string[][]>(
        `[...document.querySelectorAll("#timeline > li")].map((li) => [
           li.dataset.seq,
           li.querySelector(".badge").textContent,
           li.querySelector(".title").textContent,
           li.querySelector(".outcome")?.textContent ?? "",
           li.querySelector(".bar")?.className ?? "",
         ])`,
      );
      assert.deepEqual(rows, [
        ["1", "prompt", "prompt", "", ""],
        ["2", "tool", "Bash", "success", "bar w100"],
        ["3", "tool", "Bash", "error", "bar w25"],
        ["4", "turn end", "turn end: 1 prompts, 2 tool uses so far", "", ""],
      ]);
      const traceIds = await page.evaluate<number>(
        `document.querySelectorAll(".facts code").length`,
      );
      assert.equal(traceIds, 1);
    });

    await t.step("a row stored meanwhile appears without a reload", async () => {
      await page.evaluate(`window.__samePage = true`);
      await hook(
        "posttooluse",
        bash(FIRST, "npm test -- --watch=false", { failed: false, ms: 12800 }),
      );
      await page.waitFor(`document.querySelectorAll("#timeline > li").length === 5`);
      assert.equal(await page.evaluate(`window.__samePage`), true);
      const widths = await page.evaluate<string[]>(
        `[...document.querySelectorAll("#timeline .bar")].map((bar) => bar.className)`,
      );
      // The new longest run rescales the others.
      assert.deepEqual(widths, ["bar w50", "bar w13", "bar w100"]);
    });

    await t.step("a hostile prompt, on the page and arriving live, runs no script", async () => {
      await hook("userpromptsubmit", prompt(FIRST, HOSTILE));
      await page.waitFor(`document.querySelectorAll("#timeline > li").length === 6`);
      const live = await page.evaluate<Record<string, unknown>>(`({
        pwned: window.__pwned ?? null,
        scripts: document.scripts.length,
        handlers: document.querySelectorAll("[onerror],[onload]").length,
        javascriptLinks: document.querySelectorAll('a[href^="javascript:"]').length,
        text: document.querySelector("#timeline > li:last-child .text").textContent,
      })`);
      await page.goto(`${view.origin}/session?id=${FIRST}`);
      const served = await page.evaluate<Record<string, unknown>>(`({
        pwned: window.__pwned ?? null,
        scripts: document.scripts.length,
        handlers: document.querySelectorAll("[onerror],[onload]").length,
        javascriptLinks: document.querySelectorAll('a[href^="javascript:"]').length,
        text: document.querySelector("#timeline > li:last-child .text").textContent,
        rows: document.querySelectorAll("#timeline > li").length,
      })`);
      for (const seen of [live, served]) {
        assert.equal(seen.pwned, null);
        assert.equal(seen.scripts, 1);
        assert.equal(seen.handlers, 0);
        assert.equal(seen.javascriptLinks, 0);
        const text = String(seen.text);
        assert.ok(text.includes("<script>window.__pwned = 'script'</script>"), text);
        assert.ok(text.includes("admin⟨U+202E⟩txt.exe⟨U+202C⟩"), text);
        assert.ok(text.includes("bell⟨U+0007⟩ escape⟨U+001B⟩[31m"), text);
      }
      assert.equal(served.rows, 6);
    });

    await t.step("a 1 MiB prompt is cut on the timeline and whole on its row page", async () => {
      const line = "x".repeat(1 << 20);
      await hook("userpromptsubmit", prompt(FIRST, line));
      await page.waitFor(`document.querySelectorAll("#timeline > li").length === 7`);
      const shown = await page.evaluate<string>(
        `document.querySelector("#timeline > li:last-child .text").textContent`,
      );
      assert.equal(shown, `${"x".repeat(2000)} … (cut; the row page shows all)`);
      const seq = await page.evaluate<string>(
        `document.querySelector("#timeline > li:last-child").dataset.seq`,
      );
      assert.equal(await page.goto(`${view.origin}/row?seq=${seq}`), 200);
      const payload = await page.evaluate<string>(`document.querySelector(".payload").textContent`);
      assert.ok(payload.includes(line));
      await page.goto(`${view.origin}/session?id=${FIRST}`);
    });

    await t.step(
      "the page's own script and style load under the CSP, and nothing else is asked for",
      () => {
        const origin = `${view.origin}/`;
        // Chromium draws the date picker's icon from a data: URL of its own.
        const elsewhere = page.requests.filter((url) =>
          !url.startsWith(origin) && !url.startsWith("data:")
        );
        assert.deepEqual(elsewhere, []);
        const problems = page.console.filter((line) => /^(error|warning|exception)/.test(line));
        assert.deepEqual(problems, []);
      },
    );

    await t.step(
      "the banner shows the daemon's latest signed checkpoint, checked against the rows",
      async () => {
        await page.waitFor(
          `document.getElementById("trust").textContent.includes("Latest signed checkpoint: ${stored} rows")`,
          { timeoutMs: 30_000 },
        );
        const banner = await page.evaluate<string>(`document.getElementById("trust").textContent`);
        assert.match(
          banner,
          /^Chain intact: \d+ rows verified .*Latest signed checkpoint: \d+ rows, signed [\d.]+ (ms|s) ago; (its signature verifies with the store's key and the rows still have its root|the rows it covers are checked against it on the next walk)\.$/,
        );
        await page.waitFor(
          `document.getElementById("trust").textContent.includes("the rows still have its root")`,
          { timeoutMs: 30_000 },
        );
        assert.equal(
          await page.evaluate(`document.getElementById("trust").className`),
          "banner banner-intact",
        );
      },
    );

    await t.step("screenshots of both pages, light and dark, at 1280×800", async () => {
      assert.equal(await page.goto(`${view.origin}/`), 200);
      await page.screenshot(`${OUTPUT}/view-sessions.png`);
      assert.equal(await page.goto(`${view.origin}/session?id=${FIRST}`), 200);
      await page.screenshot(`${OUTPUT}/view-session.png`);
      const background = `getComputedStyle(document.body).backgroundColor`;
      assert.equal(await page.evaluate(background), "rgb(255, 255, 255)");
      await page.colorScheme("dark");
      assert.equal(await page.evaluate(background), "rgb(13, 17, 23)");
      await page.screenshot(`${OUTPUT}/view-session-dark.png`);
      await page.colorScheme("light");
    });

    await t.step("a POST from the page gets 405", async () => {
      const status = await page.evaluate<number>(
        `fetch("/", { method: "POST", body: "x" }).then((r) => r.status)`,
      );
      assert.equal(status, 405);
    });

    await t.step("a browser without the token gets 403 on every page", async () => {
      const stranger = await browser.newPage({ isolated: true });
      for (const path of ["/", `/session?id=${FIRST}`, "/api/trust", "/app.js"]) {
        assert.equal(await stranger.goto(`${view.origin}${path}`), 403, path);
      }
      const text = await stranger.evaluate<string>(`document.body.textContent`);
      assert.doesNotMatch(text, new RegExp(FIRST));
    });
  } finally {
    await browser.close();
    await view.stop();
    await daemon.stop();
  }
});
