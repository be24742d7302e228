// The plugin's lint: Obsidian's review rules (eslint-plugin-obsidianmd's
// recommended config, which brings ESLint's and typescript-eslint's
// type-checked recommended rules) over the plugin's sources and its
// package.json. `npm run lint` runs it; `make check` calls that.
import { defineConfig } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";
import tseslint from "typescript-eslint";

export default defineConfig([
  {
    // Built output, dependencies, and the tests and scripts that run in
    // Node (not in Obsidian) stay outside the review rules.
    ignores: ["main.js", "node_modules/**", "bench/**", "tests/**", "scripts/**", "eslint.config.mjs"],
  },
  ...obsidianmd.configs.recommended,
  {
    files: ["src/**/*.ts"],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // manifest.json, read as the expression it is, for the rule that
    // checks its fields as the plugin review does.
    files: ["manifest.json"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { extraFileExtensions: [".json"] },
    },
    plugins: { obsidianmd },
    rules: { "obsidianmd/validate-manifest": "warn" },
  },
]);
