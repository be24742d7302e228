// The modules of src/ import one another without a cycle: in a cycle, what
// a module finds of another at load time depends on which of them was
// imported first, and neither can be read, tested or moved alone.

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { pluginDir } from "./node";

const src = join(pluginDir, "src");

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** The specifiers a module imports: import and export … from (type-only ones too: they are a dependency of its text), bare imports and import(). */
function specifiers(text: string): string[] {
  const out: string[] = [];
  const patterns = [/\b(?:import|export)\s[^;"']*?\sfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\bimport\(\s*["']([^"']+)["']\s*\)/g];
  for (const re of patterns) for (const m of text.matchAll(re)) out.push(m[1]!);
  return out;
}

/** resolveIn is the src/ module a relative specifier of file names, or null for a package, a virtual module or data (JSON, made by the build). */
function resolveIn(file: string, spec: string): string | null {
  if (!spec.startsWith(".") || /\.(json|wasm|css)$/.test(spec)) return null;
  const base = resolve(dirname(file), spec);
  for (const p of [base, base + ".ts", join(base, "index.ts")]) if (existsSync(p) && statSync(p).isFile()) return p;
  throw new Error(`${relative(src, file)}: import "${spec}" names no module`);
}

/** cycles returns each import cycle of graph once, as the modules along it, first one repeated at the end. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const seen = new Set<string>();
  const key = (c: string[]) => [...c.slice(0, -1)].sort().join(" ");
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (m: string) => {
    state.set(m, "open");
    path.push(m);
    for (const d of graph.get(m) ?? []) {
      if (state.get(d) === "open") {
        const c = [...path.slice(path.indexOf(d)), d];
        if (!seen.has(key(c))) {
          seen.add(key(c));
          found.push(c);
        }
      } else if (!state.has(d)) visit(d);
    }
    path.pop();
    state.set(m, "done");
  };
  for (const m of [...graph.keys()].sort()) if (!state.has(m)) visit(m);
  return found;
}

test("src/ has no import cycle", () => {
  const graph = new Map<string, string[]>();
  for (const f of walk(src).filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts"))) {
    const deps = specifiers(readFileSync(f, "utf8"))
      .map((s) => resolveIn(f, s))
      .filter((p): p is string => p !== null);
    graph.set(f, [...new Set(deps)].sort());
  }
  assert.ok(graph.size > 10, `only ${graph.size} modules found under ${src}`);
  const found = cycles(graph).map((c) => c.map((p) => relative(src, p)).join(" → "));
  assert.deepEqual(found, []);
});

test("the cycle check finds a cycle", () => {
  const g = new Map([
    ["a", ["b"]],
    ["b", ["c"]],
    ["c", ["a", "d"]],
    ["d", []],
  ]);
  assert.deepEqual(cycles(g), [["a", "b", "c", "a"]]);
  assert.deepEqual(cycles(new Map([["a", ["b"]], ["b", []]])), []);
});
