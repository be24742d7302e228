// Modules the build makes (scripts/build.mjs).

/** The wasm core as one zstd frame (scripts/compress.mjs), then packed into a string (scripts/pack.mjs). */
declare module "kessho:wasm" {
  /** The packed zstd bytes. */
  export const packed: string;
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
