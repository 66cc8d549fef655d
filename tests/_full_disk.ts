/**
 * Test helpers for a full disk without root: the daemon runs in its own user
 * and mount namespace (`unshare -rm`) with its store's folder a small tmpfs,
 * which no other process sees.
 *
 * @module
 */

/** Runs the daemon in its own mount namespace, its store's folder a tmpfs of `size`. */
export function onSmallDisk(folder: string, size: string): string[] {
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
