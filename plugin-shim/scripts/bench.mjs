// npm run bench: builds the plugin when needed, then runs bench/bench.ts
// (bundled with esbuild, the fake "obsidian" in place of the real one).

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { compress } from "./compress.mjs";
import { pack } from "./pack.mjs";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const run = (args) => {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, KESSHO_PLUGIN_DIR: root } });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run([join(root, "scripts", "build.mjs")]);

// The same packed module main.js carries, to time its parts.
const wasm = readFileSync(process.env.KESSHO_WASM || join(root, "..", "host", "engine", "module", "kessho.wasm"));
const zst = await compress(wasm);
const out = join(root, ".test-build");
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(root, "bench", "bench.ts")],
  outfile: join(out, "bench.mjs"),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  alias: { obsidian: join(root, "tests", "fake", "obsidian.ts") },
  // The Chromium part drives the browser and bundles its page (tests/browser/chromium.ts).
  external: ["playwright-core", "esbuild"],
  plugins: [
    {
      name: "bench-wasm",
      setup(b) {
        b.onResolve({ filter: /bench-wasm$/ }, () => ({ path: "bench-wasm", namespace: "bench-wasm" }));
        b.onLoad({ filter: /.*/, namespace: "bench-wasm" }, () => ({
          contents: `export const packed = ${JSON.stringify(pack(zst))};\nexport const compressedLength = ${zst.length};\n`,
          loader: "js",
        }));
      },
    },
  ],
  logLevel: "warning",
});
run([join(out, "bench.mjs"), ...process.argv.slice(2)]);
