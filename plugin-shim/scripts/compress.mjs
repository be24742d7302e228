// compress turns the wasm core into one zstd frame for main.js, at level
// 22, zstd's highest: about 20% smaller than zopfli's gzip, which keeps
// main.js under its 2.5 MB budget as the core grows (level 19 is 0.02%
// larger, for about 30% less time; see RATIONALE.md). The compressor is
// zstd compiled to wasm (@bokuweb/zstd-wasm, build time only); the plugin
// decompresses with fzstd (src/engine/wasm.ts). Level 22 takes about 12 s,
// so the result is cached by the module's SHA-256 in .cache/ (which npm
// ci leaves alone), or in KESSHO_ZSTD_CACHE (scripts/reproduce.sh gives
// an empty folder, so that its second build compresses again).

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compress as zstd, init } from "@bokuweb/zstd-wasm";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cacheDir = process.env.KESSHO_ZSTD_CACHE || join(root, ".cache");

/** The zstd level main.js is built with. */
const level = 22;

/** compress returns the zstd frame of wasm (a Buffer). */
export async function compress(wasm) {
  const key = createHash("sha256").update(wasm).digest("hex");
  const cached = join(cacheDir, `${key}.${level}.zst`);
  if (existsSync(cached)) return readFileSync(cached);
  await init();
  const zst = Buffer.from(zstd(wasm, level));
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cached, zst);
  return zst;
}
