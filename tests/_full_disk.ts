/**
 * Test helpers for a full disk without root: the daemon runs in its own user
 * and mount namespace (`unshare -rm`) with its store's folder a small tmpfs,
 * which no other process sees.
 *
 * @module
 */

import type { Frame } from "../lib/frame.ts";
import { startTestDaemon, type TestDaemon, testFrame } from "./_daemon.ts";
import { spoolFrames } from "./_spool.ts";

/** Runs the daemon in its own mount namespace, its store's folder a tmpfs of `size`. */
function onSmallDisk(folder: string, size: string): string[] {
  return [
    "unshare",
    "-rm",
    "sh",
    "-c",
    `mount -t tmpfs -o size=${size} tmpfs "$0" && exec "$@"`,
    folder,
  ];
}

/** Whether an unprivileged user namespace may mount a tmpfs here (else the tests are skipped). */
export async function canMountTmpfs(): Promise<boolean> {
  const dir = await Deno.makeTempDir();
  try {
    const probe = await new Deno.Command("unshare", {
      args: ["-rm", "sh", "-c", `mount -t tmpfs -o size=64k tmpfs "${dir}"`],
      stderr: "null",
    }).output();
    return probe.success;
  } catch {
    return false;
  } finally {
    await Deno.remove(dir);
  }
}

/** A daemon started on a full disk, with what waits for it in the spool. */
export interface FullDiskStart {
  /** The temporary folder (`store/` the tmpfs, `traces/` the trace dir). */
  dir: string;
  /** The daemon, started; its store's folder is a 384 KiB tmpfs. */
  daemon: TestDaemon;
  /** The six frames spooled before it started. */
  frames: Frame[];
  /** Their spool files. */
  spooled: string[];
}

/**
 * Spools six frames of 128 KiB each and starts a daemon whose store's folder
 * is a 384 KiB tmpfs: 768 KiB of frames waiting for a 384 KiB disk, so the
 * first drain's one batch cannot fit.
 */
export async function startOnFullDisk(): Promise<FullDiskStart> {
  const dir = await Deno.makeTempDir({ prefix: "cyberos-full-" });
  await Deno.mkdir(`${dir}/store`);
  const big = "x".repeat(128 * 1024);
  const frames = Array.from({ length: 6 }, (_, i) => testFrame(i + 1, { text: `${i} ${big}` }));
  const spooled = spoolFrames(`${dir}/traces`, frames);
  const daemon = await startTestDaemon({ dir, wrapper: onSmallDisk(`${dir}/store`, "384k") });
  return { dir, daemon, frames, spooled };
}
