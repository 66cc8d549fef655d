/**
 * The store's session tallies: what the writer counts as it appends always
 * equals what a fresh count of the rows says, also after a rolled-back batch.
 *
 * @module
 */

import assert from "node:assert/strict";
import { openStore, type Store } from "../lib/store.ts";
import { ROW_KINDS, type RowKind, TASK_NOTIFICATION_SOURCE } from "../lib/kinds.ts";

const SESSION = "0f1e2d3c-4b5a-4968-8776-655443322110";
const OTHER = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

let frames = 0;

function append(
  store: Store,
  kind: RowKind,
  fields: { session?: string; capturedAtNs: number; promptSource?: string },
): void {
  const payload: Record<string, unknown> = {
    session_id: fields.session ?? SESSION,
    captured_at_ns: fields.capturedAtNs,
  };
  if (fields.promptSource !== undefined) payload.prompt_source = fields.promptSource;
  const frameId = (++frames).toString(16).padStart(32, "0");
  store.transaction(() => store.append({ frameId, kind, payload }));
}

function freshCount(path: string, session: string) {
  const reader = openStore(path, { readOnly: true });
  try {
    return reader.sessionCounts(session);
  } finally {
    reader.close();
  }
}

Deno.test("sessionCounts: the writer's tally equals a fresh count after appends and a rollback", () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/capture.db`;
  const store = openStore(path);
  try {
    append(store, ROW_KINDS.prompt, { capturedAtNs: 1_800_000_000_000_000_000 });
    append(store, ROW_KINDS.toolUse, { capturedAtNs: 1_800_000_000_000_001_000 });
    assert.deepEqual(store.sessionCounts(SESSION), freshCount(path, SESSION));

    // Counted from here on by the tally, not by SQL.
    append(store, ROW_KINDS.prompt, {
      capturedAtNs: 1_800_000_000_000_002_000,
      promptSource: TASK_NOTIFICATION_SOURCE,
    });
    append(store, ROW_KINDS.prompt, { capturedAtNs: 1_800_000_000_000_003_000 });
    append(store, ROW_KINDS.toolUse, { capturedAtNs: 1_799_999_999_999_999_000 });
    append(store, ROW_KINDS.redactionFailed, { capturedAtNs: 1_800_000_000_000_004_000 });
    append(store, ROW_KINDS.toolUse, { session: OTHER, capturedAtNs: 1_700_000_000_000_000_000 });
    const counted = store.sessionCounts(SESSION);
    assert.deepEqual(counted, freshCount(path, SESSION));
    assert.deepEqual(counted, {
      promptCount: 2,
      toolUseCount: 2,
      firstCapturedAtNs: 1_799_999_999_999_999_000,
    });

    assert.throws(() =>
      store.transaction(() => {
        store.append({
          frameId: "f".repeat(32),
          kind: ROW_KINDS.toolUse,
          payload: { session_id: SESSION, captured_at_ns: 1_800_000_000_000_005_000 },
        });
        throw new Error("the batch fails");
      })
    );
    assert.deepEqual(store.sessionCounts(SESSION), freshCount(path, SESSION));
    assert.equal(store.sessionCounts(SESSION).toolUseCount, 2);
  } finally {
    store.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
