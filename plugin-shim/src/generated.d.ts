// Modules the build makes (scripts/build.mjs).

/** The wasm core as one zstd frame (scripts/compress.mjs), then packed (scripts/pack.mjs) into a comment. */
declare module "kessho:wasm" {
  /** A function whose body holds the packed zstd bytes in a block comment (src/engine/unpack.ts, packedIn). */
  export function packedSource(): string;
  /** How many zstd bytes packed holds. */
  export const compressedLength: number;
  /** The SHA-256 (hex) of the wasm module itself. */
  export const wasmSHA256: string;
}

/** The core's Web Worker: src/engine/worker-main.ts bundled into a classic script (scripts/build.mjs). */
declare module "kessho:worker" {
  export const source: string;
}

/** The bench's copy of the packed module (scripts/bench.mjs). */
declare module "bench-wasm" {
  export const packed: string;
  export const compressedLength: number;
}
