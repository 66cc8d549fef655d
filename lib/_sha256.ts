/**
 * SHA-256 (FIPS 180-4) for the Merkle tree's short inputs: one leaf is 33
 * bytes, one node 65, and the daemon hashes two of them per row. A general
 * library allocates a hasher, buffers and a view per call, which for inputs
 * this short costs more than the compression; this one reuses its buffers
 * and allocates only the 32-byte result. Checked against `@noble/hashes`
 * and the FIPS vectors in `tests/merkle_test.ts`.
 *
 * @module
 */

const K = new Uint32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);

const INITIAL = new Uint32Array([
  0x6a09e667,
  0xbb67ae85,
  0x3c6ef372,
  0xa54ff53a,
  0x510e527f,
  0x9b05688c,
  0x1f83d9ab,
  0x5be0cd19,
]);

const state = new Uint32Array(8);
const w = new Uint32Array(64);
const block = new Uint8Array(64);

function compress(): void {
  for (let i = 0; i < 16; i++) {
    w[i] = (block[4 * i]! << 24) | (block[4 * i + 1]! << 16) | (block[4 * i + 2]! << 8) |
      block[4 * i + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!;
  let e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/** SHA-256 of `data` (any length), 32 bytes. */
export function sha256(data: Uint8Array): Uint8Array {
  state.set(INITIAL);
  const length = data.length;
  let offset = 0;
  for (; offset + 64 <= length; offset += 64) {
    block.set(data.subarray(offset, offset + 64));
    compress();
  }
  // The last block(s): the rest, 0x80, zeros, and the length in bits (big-endian, 64 bits).
  const rest = length - offset;
  block.fill(0);
  block.set(data.subarray(offset));
  block[rest] = 0x80;
  if (rest >= 56) {
    compress();
    block.fill(0);
  }
  const bits = length * 8;
  const high = Math.floor(bits / 0x1_0000_0000);
  block[56] = high >>> 24;
  block[57] = high >>> 16;
  block[58] = high >>> 8;
  block[59] = high;
  block[60] = bits >>> 24;
  block[61] = bits >>> 16;
  block[62] = bits >>> 8;
  block[63] = bits;
  compress();
  const digest = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    const word = state[i]!;
    digest[4 * i] = word >>> 24;
    digest[4 * i + 1] = word >>> 16;
    digest[4 * i + 2] = word >>> 8;
    digest[4 * i + 3] = word;
  }
  return digest;
}
