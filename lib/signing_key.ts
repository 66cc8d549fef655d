/**
 * The key that signs a store's checkpoints: an Ed25519 private key in
 * PKCS #8 DER (48 bytes; `openssl pkey -inform DER` reads it) at exactly
 * `<store>.signing.key`, mode 0600, made by the daemon at first start. Only
 * the daemon opens it: the hook never can (its grants name the trace dir and
 * socket only) and the readers print the verifier key the store keeps.
 *
 * @module
 */

/** The signing key file of the store at `db`. */
export function signingKeyPath(db: string): string {
  return `${db}.signing.key`;
}

/** A fresh origin naming one store: `cyberos-memory/` and 16 random hex digits, nothing personal. */
export function newOrigin(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `cyberos-memory/${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** A key file that is missing, not ours or open to others. */
export class SigningKeyError extends Error {
  /** Makes the error for the key file at `path`. */
  constructor(path: string, detail: string) {
    super(`Cannot use signing key ${path}: ${detail}`);
    this.name = "SigningKeyError";
  }
}

/**
 * Writes a new key file: created exclusively (`O_CREAT|O_EXCL`, so nothing
 * already there, symlinks included, is followed or overwritten) with mode
 * 0600, then synced to disk.
 *
 * @throws {SigningKeyError} when something already exists at `path`.
 */
export function writeSigningKey(path: string, pkcs8: Uint8Array): void {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { write: true, createNew: true, mode: 0o600 });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new SigningKeyError(path, "something already exists there");
    }
    throw error;
  }
  try {
    for (let written = 0; written < pkcs8.length;) {
      written += file.writeSync(pkcs8.subarray(written));
    }
    file.syncSync();
  } finally {
    file.close();
  }
}

/**
 * Reads the key file after checking it is a regular file (not a symlink)
 * owned by `uid` and closed to group and others; the file read must be the
 * one checked (same inode).
 *
 * @throws {Deno.errors.NotFound} when there is no key file.
 * @throws {SigningKeyError} when the file is not safe to use.
 */
export function readSigningKey(path: string, options: { uid: number }): Uint8Array {
  const info = Deno.lstatSync(path);
  if (!info.isFile) throw new SigningKeyError(path, "it is not a regular file");
  if (info.uid !== options.uid) {
    throw new SigningKeyError(path, `it is owned by uid ${info.uid}, not ${options.uid}`);
  }
  if (((info.mode ?? 0) & 0o077) !== 0) {
    throw new SigningKeyError(
      path,
      `its mode ${((info.mode ?? 0) & 0o777).toString(8)} lets others read it; chmod 600 it`,
    );
  }
  const file = Deno.openSync(path, { read: true });
  try {
    if (file.statSync().ino !== info.ino) {
      throw new SigningKeyError(path, "it was replaced while being opened");
    }
    const bytes = new Uint8Array(info.size);
    for (let read = 0; read < bytes.length;) {
      const n = file.readSync(bytes.subarray(read));
      if (n === null) break;
      read += n;
    }
    return bytes;
  } finally {
    file.close();
  }
}
