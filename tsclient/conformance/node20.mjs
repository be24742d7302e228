// Loaded with `node --import ./conformance/node20.mjs`: on a Node.js
// older than 22, whose fs has no globSync, the conformance suite's one
// module would not link (it imports globSync for its `tier-check`
// command, which this test never runs). Its `fs` then resolves to
// fs-shim.mjs: node:fs plus a globSync that says why it is missing.
// On Node.js 22 and later this does nothing.
import * as fs from "node:fs";
import { register } from "node:module";

if (typeof fs.globSync !== "function") {
  register("./node20-hooks.mjs", import.meta.url);
}
