// node:fs as the conformance suite imports it, on a Node.js without
// fs.globSync (see node20.mjs).
export * from "node:fs";
export { default } from "node:fs";

export function globSync() {
  throw new Error("fs.globSync needs Node.js 22 (the conformance suite's tier-check command)");
}
