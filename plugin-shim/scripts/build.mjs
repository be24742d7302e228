// Builds the plugin: main.js with the wasm core inside it, next to
// manifest.json and styles.css (the three files Obsidian installs).
//
//	node scripts/build.mjs      (npm run build)
//
// Reads ../host/engine/module/kessho.wasm (make wasm) and the catalogue printed by
// ../bin/kessho catalog (make build), which it writes to
// src/generated/catalog.json.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { compress } from "./compress.mjs";
import { pack } from "./pack.mjs";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const repo = dirname(root);
// KESSHO_WASM and KESSHO_BIN point elsewhere (a development build);
// KESSHO_NO_MINIFY=1 keeps the functions' names (for a CPU profile);
// KESSHO_MAIN_OUT writes main.js there instead (scripts/reproduce.sh: a
// second build beside the first, to compare them).
const wasmPath = process.env.KESSHO_WASM || join(repo, "host", "engine", "module", "kessho.wasm");
const kessho = process.env.KESSHO_BIN || join(repo, "bin", "kessho");
const maxBytes = 3_000_000;

function fail(msg) {
  console.error(`plugin-shim build: ${msg}`);
  process.exit(1);
}

if (!existsSync(wasmPath)) fail(`${relative(process.cwd(), wasmPath)} is missing: run \`make wasm\` (or \`make build\`) at the repository's root first`);
if (!existsSync(kessho)) fail(`${relative(process.cwd(), kessho)} is missing: run \`make build\` at the repository's root first (the catalogue comes from \`kessho catalog\`)`);

// The catalogue, from the same core.
const catalog = execFileSync(kessho, ["catalog"], { encoding: "utf8" });
JSON.parse(catalog);
mkdirSync(join(root, "src", "generated"), { recursive: true });
const catalogPath = join(root, "src", "generated", "catalog.json");
if (!existsSync(catalogPath) || readFileSync(catalogPath, "utf8") !== catalog) writeFileSync(catalogPath, catalog);

// The core: one zstd frame, then packed (scripts/pack.mjs) into a block
// comment in the body of the function packedSource, which the plugin reads
// back with toString (src/engine/unpack.ts, packedIn): the parser skims a
// comment, where a 2 MB string literal blocked the UI thread for 30–60 ms
// while main.js loaded.
const wasm = readFileSync(wasmPath);
const zst = await compress(wasm);
const placeholder = "__KESSHO_WASM_PACKED__";
const wasmModule = {
  name: "kessho-wasm",
  setup(b) {
    b.onResolve({ filter: /^kessho:wasm$/ }, (args) => ({ path: args.path, namespace: "kessho-wasm" }));
    b.onLoad({ filter: /.*/, namespace: "kessho-wasm" }, () => ({
      contents:
        `export function packedSource() { return ${JSON.stringify(placeholder)}; }\n` +
        `export const compressedLength = ${zst.length};\n` +
        `export const wasmSHA256 = ${JSON.stringify(createHash("sha256").update(wasm).digest("hex"))};\n`,
      loader: "js",
    }));
  },
};

// The core's Web Worker (src/engine/worker-main.ts): a classic script of
// its own, which main.js carries as a string and starts from a Blob URL.
const workerBuild = await build({
  entryPoints: [join(root, "src", "engine", "worker-main.ts")],
  bundle: true,
  format: "iife",
  platform: "browser",
  target: "es2022",
  minify: process.env.KESSHO_NO_MINIFY !== "1",
  legalComments: "none",
  write: false,
  logLevel: "warning",
});
const workerModule = {
  name: "kessho-worker",
  setup(b) {
    b.onResolve({ filter: /^kessho:worker$/ }, (args) => ({ path: args.path, namespace: "kessho-worker" }));
    b.onLoad({ filter: /.*/, namespace: "kessho-worker" }, () => ({
      contents: `export const source = ${JSON.stringify(workerBuild.outputFiles[0].text)};\n`,
      loader: "js",
    }));
  },
};

const result = await build({
  entryPoints: [join(root, "src", "main.ts")],
  bundle: true,
  format: "cjs",
  platform: "browser",
  target: "es2022",
  // fs: Node's, which Obsidian's desktop app gives require (src/obsidian/vault-port.ts, desktopFS).
  external: ["obsidian", "electron", "fs", "@codemirror/*", "@lezer/*"],
  minify: process.env.KESSHO_NO_MINIFY !== "1",
  legalComments: "none",
  write: false,
  logLevel: "warning",
  banner: { js: "/* Kessho for Obsidian. Built from the Kessho repository (plugin-shim/); the wasm core is packed inside. */" },
  plugins: [wasmModule, workerModule],
});
let js = result.outputFiles[0].text;
const quoted = JSON.stringify(placeholder);
if (js.split(quoted).length !== 2) fail("the wasm placeholder is not in main.js exactly once");
const packed = pack(zst);
if (packed.includes("*/")) fail("the packed module would end its comment early");
js = js.replace(quoted, () => "/*" + packed + '*/""');
const out = process.env.KESSHO_MAIN_OUT || join(root, "main.js");
writeFileSync(out, js);

const size = statSync(out).size;
const mb = (n) => (n / 1e6).toFixed(2) + " MB";
console.log(`main.js ${mb(size)} (wasm ${mb(wasm.length)}, zstd ${mb(zst.length)}, packed ${mb(Buffer.byteLength(packed))})`);
if (size >= maxBytes) fail(`main.js is ${mb(size)}, over the budget of ${mb(maxBytes)}`);
