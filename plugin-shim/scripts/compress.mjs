// compress gzips the wasm core for main.js with zopfli (about 6% smaller
// than zlib's best, which keeps main.js under its 2.5 MB budget as the core
// grows). Zopfli is slow (about 15 s), so the result is cached by the
// module's SHA-256 in .cache/ (which npm ci leaves alone).

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import zopfli from "@gfx/zopfli";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cacheDir = join(root, ".cache");

/** compress returns the gzip bytes of wasm (a Buffer). */
export async function compress(wasm) {
  const key = createHash("sha256").update(wasm).digest("hex");
  const cached = join(cacheDir, key + ".gz");
  if (existsSync(cached)) return readFileSync(cached);
  const gz = await new Promise((resolve, reject) =>
    zopfli.gzip(wasm, { numiterations: 1, blocksplitting: true }, (err, out) => (err ? reject(err) : resolve(Buffer.from(out)))),
  );
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cached, gz);
  return gz;
}
