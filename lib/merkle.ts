/**
 * Merkle trees as RFC 6962 and RFC 9162 define them (the trees of
 * Certificate Transparency, Sigstore's Rekor and the Go checksum database),
 * over SHA-256:
 *
 *     leaf hash = SHA-256(0x00 ‖ leaf data)
 *     node hash = SHA-256(0x01 ‖ left ‖ right)
 *
 * A tree of n leaves splits at the largest power of two below n, so its
 * root for the first n leaves never changes as leaves are appended: that is
 * what lets a checkpoint (size, root) made today be checked against the store
 * next year, and a consistency proof show the newer tree only grew.
 *
 * In the store, a row's leaf data is the 32 raw bytes of its chain `hash`
 * (see {@linkcode rowLeafHash}). {@linkcode MerkleFrontier} keeps a running
 * root in O(log n) memory; the proof functions take the leaf hashes of the
 * whole tree (32 bytes a row: 3.2 MB for 100,000 rows).
 *
 * SHA-256 is `_sha256.ts`, about three times as fast as a general library
 * on these 33- and 65-byte inputs, which matters since the daemon hashes
 * every row twice.
 *
 * Sizes and indexes are plain numbers (exact up to 2^53); the bit steps of
 * the RFC are written with arithmetic, since JavaScript's bit operators cut
 * numbers to 32 bits.
 *
 * @module
 */

import { sha256 } from "./_sha256.ts";

/** The length of every hash in the tree, in bytes. */
export const HASH_BYTES = 32;

/** The root of the empty tree: SHA-256 of no bytes. */
export const EMPTY_ROOT: Uint8Array = sha256(new Uint8Array(0));

/** SHA-256(0x00 ‖ data): the hash of one leaf. */
export function leafHash(data: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + data.length);
  input.set(data, 1);
  return sha256(input);
}

/** SHA-256(0x01 ‖ left ‖ right): the hash of an inner node. */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + left.length + right.length);
  input[0] = 1;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return sha256(input);
}

/** The value of each lowercase hex digit's char code, -1 for any other. */
const HEX_VALUES = Int8Array.from(
  { length: 128 },
  (_, code) => "0123456789abcdef".indexOf(String.fromCharCode(code)),
);

/**
 * The leaf hash of a store row: the leaf data is the 32 bytes its chain
 * `hash` column spells in hex. Decoded by hand: the daemon hashes every row.
 *
 * @throws {TypeError} when `chainHash` is not 64 lowercase hex characters.
 */
export function rowLeafHash(chainHash: string): Uint8Array {
  const input = new Uint8Array(1 + HASH_BYTES);
  let valid = chainHash.length === 2 * HASH_BYTES;
  for (let i = 0; valid && i < HASH_BYTES; i++) {
    const high = HEX_VALUES[chainHash.charCodeAt(2 * i)] ?? -1;
    const low = HEX_VALUES[chainHash.charCodeAt(2 * i + 1)] ?? -1;
    valid = high >= 0 && low >= 0;
    input[1 + i] = (high << 4) | low;
  }
  if (!valid) {
    throw new TypeError(`Cannot hash row into the tree: chain hash "${chainHash}" is not 64 hex`);
  }
  return sha256(input);
}

/** Lowercase hex of bytes. */
export function bytesToHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/**
 * Bytes of an even-length hex string.
 *
 * @throws {TypeError} when the text is not hex.
 */
export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new TypeError(
      `Cannot decode hex: "${hex.slice(0, 80)}" is not an even run of hex digits`,
    );
  }
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** Whether two byte arrays hold the same bytes. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/**
 * The running root of a tree that only grows: the roots of its perfect
 * subtrees, largest first (one per bit set in the size), so O(log n) memory
 * and O(1) amortised hashing per leaf.
 */
export class MerkleFrontier {
  #subtrees: { hash: Uint8Array; leaves: number }[] = [];
  #size = 0;

  /** How many leaves were appended. */
  get size(): number {
    return this.#size;
  }

  /** Appends a leaf by its leaf hash (see {@linkcode leafHash}). */
  appendLeafHash(hash: Uint8Array): void {
    let node = { hash, leaves: 1 };
    let last = this.#subtrees.at(-1);
    while (last !== undefined && last.leaves === node.leaves) {
      this.#subtrees.pop();
      node = { hash: nodeHash(last.hash, node.hash), leaves: 2 * node.leaves };
      last = this.#subtrees.at(-1);
    }
    this.#subtrees.push(node);
    this.#size++;
  }

  /** The root of the leaves appended so far ({@linkcode EMPTY_ROOT} for none). */
  root(): Uint8Array {
    const subtrees = this.#subtrees;
    if (subtrees.length === 0) return EMPTY_ROOT;
    let root = subtrees[subtrees.length - 1]!.hash;
    for (let i = subtrees.length - 2; i >= 0; i--) root = nodeHash(subtrees[i]!.hash, root);
    return root;
  }

  /** An independent copy that can grow apart from this one. */
  copy(): MerkleFrontier {
    const copy = new MerkleFrontier();
    copy.#subtrees = [...this.#subtrees];
    copy.#size = this.#size;
    return copy;
  }
}

/**
 * The root of the first `size` leaves (all by default), RFC 6962 MTH.
 *
 * @throws {RangeError} when `size` exceeds the leaves given.
 */
export function merkleRoot(
  leafHashes: readonly Uint8Array[],
  size = leafHashes.length,
): Uint8Array {
  checkSize(leafHashes, size);
  return subtreeRoot(leafHashes, 0, size);
}

/** Options for {@linkcode inclusionProof}. */
export interface InclusionProofOptions {
  /** The 0-based index of the leaf to prove. */
  index: number;
  /**
   * The size of the tree the proof is for.
   *
   * @default {leafHashes.length}
   */
  size?: number;
}

/**
 * The inclusion proof (audit path, RFC 9162 §2.1.3.1) of one leaf in the
 * tree of the first `size` leaves: sibling hashes from the leaf up.
 *
 * @throws {RangeError} when the index is not inside the tree or `size`
 * exceeds the leaves given.
 */
export function inclusionProof(
  leafHashes: readonly Uint8Array[],
  options: InclusionProofOptions,
): Uint8Array[] {
  const { index, size = leafHashes.length } = options;
  checkSize(leafHashes, size);
  if (!Number.isSafeInteger(index) || index < 0 || index >= size) {
    throw new RangeError(`Cannot prove inclusion: index ${index} is outside a tree of ${size}`);
  }
  const proof: Uint8Array[] = [];
  // PATH(m, D[start:end]) from the root down; the siblings are collected
  // top first and reversed, since the proof lists them leaf first.
  let start = 0;
  let end = size;
  let m = index;
  while (end - start > 1) {
    const k = largestPowerOfTwoBelow(end - start);
    if (m < k) {
      proof.push(subtreeRoot(leafHashes, start + k, end));
      end = start + k;
    } else {
      proof.push(subtreeRoot(leafHashes, start, start + k));
      start += k;
      m -= k;
    }
  }
  return proof.reverse();
}

/** What {@linkcode verifyInclusion} checks. */
export interface InclusionCheck {
  /** The leaf's hash (see {@linkcode leafHash}). */
  leafHash: Uint8Array;
  /** The 0-based index of the leaf. */
  index: number;
  /** The size of the tree. */
  size: number;
  /** The audit path, leaf first. */
  proof: readonly Uint8Array[];
  /** The root the path must lead to. */
  root: Uint8Array;
}

/**
 * Whether `proof` shows the leaf at `index` in the tree of `size` leaves
 * with that `root` (RFC 9162 §2.1.3.2). A malformed proof is false.
 */
export function verifyInclusion(check: InclusionCheck): boolean {
  const { leafHash, index, size, proof, root } = check;
  if (!isIndex(index) || !isIndex(size) || index >= size) return false;
  if (!isHash(leafHash) || !isHash(root) || !proof.every(isHash)) return false;
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r);
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && equalBytes(r, root);
}

/** Options for {@linkcode consistencyProof}. */
export interface ConsistencyProofOptions {
  /** The size of the older tree. */
  oldSize: number;
  /**
   * The size of the newer tree.
   *
   * @default {leafHashes.length}
   */
  newSize?: number;
}

/**
 * The consistency proof (RFC 9162 §2.1.4.1) that the tree of the first
 * `newSize` leaves extends the tree of the first `oldSize`: empty when the
 * sizes are equal or the old tree is empty.
 *
 * @throws {RangeError} when `oldSize` exceeds `newSize` or `newSize`
 * exceeds the leaves given.
 */
export function consistencyProof(
  leafHashes: readonly Uint8Array[],
  options: ConsistencyProofOptions,
): Uint8Array[] {
  const { oldSize, newSize = leafHashes.length } = options;
  checkSize(leafHashes, newSize);
  if (!isIndex(oldSize) || oldSize > newSize) {
    throw new RangeError(
      `Cannot prove consistency: old size ${oldSize} is not between 0 and new size ${newSize}`,
    );
  }
  if (oldSize === 0 || oldSize === newSize) return [];
  // SUBPROOF(m, D[start:end], b) from the root down, collected top first.
  const proof: Uint8Array[] = [];
  let start = 0;
  let end = newSize;
  let m = oldSize;
  let wholeOldTree = true;
  while (m !== end - start) {
    const k = largestPowerOfTwoBelow(end - start);
    if (m <= k) {
      proof.push(subtreeRoot(leafHashes, start + k, end));
      end = start + k;
    } else {
      proof.push(subtreeRoot(leafHashes, start, start + k));
      start += k;
      m -= k;
      wholeOldTree = false;
    }
  }
  // The subtree reached is all old leaves: the verifier knows it only when
  // it is the whole old tree (its root is the old root).
  if (!wholeOldTree) proof.push(subtreeRoot(leafHashes, start, end));
  return proof.reverse();
}

/** What {@linkcode verifyConsistency} checks. */
export interface ConsistencyCheck {
  /** The size of the older tree. */
  oldSize: number;
  /** The size of the newer tree. */
  newSize: number;
  /** The older tree's root. */
  oldRoot: Uint8Array;
  /** The newer tree's root. */
  newRoot: Uint8Array;
  /** The consistency proof. */
  proof: readonly Uint8Array[];
}

/**
 * Whether `proof` shows the tree of `newSize` leaves with `newRoot` extends
 * the tree of `oldSize` leaves with `oldRoot` (RFC 9162 §2.1.4.2). Equal
 * sizes need equal roots and an empty proof; an empty old tree is extended
 * by every tree. A malformed proof is false.
 */
export function verifyConsistency(check: ConsistencyCheck): boolean {
  const { oldSize, newSize, oldRoot, newRoot, proof } = check;
  if (!isIndex(oldSize) || !isIndex(newSize) || oldSize > newSize) return false;
  if (!proof.every(isHash)) return false;
  if (oldSize === newSize) return proof.length === 0 && equalBytes(oldRoot, newRoot);
  if (oldSize === 0) return proof.length === 0;
  if (!isHash(oldRoot) || !isHash(newRoot) || proof.length === 0) return false;
  const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof];
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (isOdd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && equalBytes(fr, oldRoot) && equalBytes(sr, newRoot);
}

/** MTH(D[start:end]) without recursion: a frontier over the range. */
function subtreeRoot(leafHashes: readonly Uint8Array[], start: number, end: number): Uint8Array {
  const frontier = new MerkleFrontier();
  for (let i = start; i < end; i++) frontier.appendLeafHash(leafHashes[i]!);
  return frontier.root();
}

function checkSize(leafHashes: readonly Uint8Array[], size: number): void {
  if (!isIndex(size) || size > leafHashes.length) {
    throw new RangeError(
      `Cannot use a tree of size ${size}: ${leafHashes.length} leaves are given`,
    );
  }
}

/** The largest power of two strictly below `n` (n ≥ 2): RFC 6962's split. */
function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function isPowerOfTwo(n: number): boolean {
  return n > 0 && largestPowerOfTwoBelow(n * 2) === n;
}

function isOdd(n: number): boolean {
  return n % 2 === 1;
}

function half(n: number): number {
  return Math.floor(n / 2);
}

function isIndex(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

function isHash(hash: Uint8Array): boolean {
  return hash instanceof Uint8Array && hash.length === HASH_BYTES;
}
