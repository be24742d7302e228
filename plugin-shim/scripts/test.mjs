// npm test: builds the plugin, type-checks src and tests, bundles each
// tests/**/*.test.ts with esbuild (the fake "obsidian" in place of the
// real one), and runs them with node's test runner. The headless Chromium
// smoke test needs /usr/bin/chromium (scripts/ensure-chromium.sh installs it).
//
//	node scripts/test.mjs [filter]   (npm test [-- filter])

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const filter = process.argv[2] ?? "";
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run(process.execPath, [join(root, "scripts", "build.mjs")]);
run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", "tsconfig.json"]);
run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", "tsconfig.tests.json"]);

if (!existsSync("/usr/bin/chromium")) run("bash", [join(root, "scripts", "ensure-chromium.sh")]);

function walk(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
const tests = walk(join(root, "tests"))
  .filter((p) => p.endsWith(".test.ts") && relative(root, p).includes(filter))
  .sort();
const out = join(root, ".test-build");
rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: tests,
  outdir: out,
  outbase: join(root, "tests"),
  outExtension: { ".js": ".mjs" },
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  alias: { obsidian: join(root, "tests", "fake", "obsidian.ts") },
  // @bokuweb/zstd-wasm reads its zstd.wasm next to its own files.
  external: ["playwright-core", "esbuild", "@bokuweb/zstd-wasm"],
  loader: { ".wasm": "binary" },
  logLevel: "warning",
  sourcemap: "inline",
});
const built = tests.map((t) => join(out, relative(join(root, "tests"), t)).replace(/\.ts$/, ".mjs"));
const r = spawnSync(process.execPath, ["--test", "--test-concurrency=1", ...built], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, KESSHO_PLUGIN_DIR: root },
});
process.exit(r.status ?? 1);
