// Confirmation for what cannot be undone, with both official TypeScript
// clients (SDK 1.32 and SDK 2, pinned in package.json) over streamable
// HTTP: a client that declared elicitation is asked before
// mem_rollback_archive deletes the newest archive, the question naming
// it; accept deletes it, decline deletes nothing and answers DECLINED; a
// client without elicitation is not asked and the rollback deletes as
// it always did. On 2025-11-25 (SDK 1.32, and SDK 2 by default) the
// server sends elicitation/create; on 2026-07-28 (SDK 2 pinned to it) the
// question comes back as an input-required result, which the client
// answers by calling again with the user's answer and the request state.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";

import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Transport1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from "@modelcontextprotocol/client";

import { bin, serveHTTP, vaultCopy } from "./kessho.mjs";

const archive = "10-episodes/projects/alpha/archives/2026-11-26-16h40-alpha-reader-cache.md";

// Each client: its name, classes, how it handles an elicitation, its
// options, and the revision it must negotiate.
const onElicit1 = (client, handler) => client.setRequestHandler(ElicitRequestSchema, handler);
const onElicit2 = (client, handler) => client.setRequestHandler("elicitation/create", handler);
const sdks = [
  ["SDK 1.32", Client1, Transport1, onElicit1, {}, "2025-11-25"],
  ["SDK 2", Client2, Transport2, onElicit2, {}, "2025-11-25"],
  ["SDK 2, newest revision", Client2, Transport2, onElicit2, { versionNegotiation: { mode: { pin: "2026-07-28" } } }, "2026-07-28"],
];

for (const [sdk, Client, Transport, onElicit, options, revision] of sdks) {
  for (const action of ["accept", "decline", null]) {
    const name = action ? `the user answers ${action}` : "a client without elicitation";
    test(`TypeScript ${sdk}, mem_rollback_archive: ${name}`, { timeout: 120_000 }, async (t) => {
      assert.ok(bin, "KESSHO_BIN names the kessho binary (make test-mcp-clients sets it)");
      const dir = vaultCopy(t);
      const url = await serveHTTP(t, dir, ["--token", "s3cret"]);
      const asked = [];
      const client = new Client({ name: "kessho-confirm-test", version: "1" }, { ...options, ...(action ? { capabilities: { elicitation: { form: {} } } } : {}) });
      if (action) {
        onElicit(client, async (req) => {
          asked.push(req.params);
          return { action };
        });
      }
      const transport = new Transport(new URL(url), { requestInit: { headers: { Authorization: "Bearer s3cret" } } });
      await client.connect(transport);
      t.after(() => client.close());
      assert.equal(client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion, revision, "the revision negotiated");

      const res = await client.callTool({ name: "mem_rollback_archive", arguments: { slug: "alpha" } });
      const answer = JSON.parse(res.content[0].text);
      if (action) {
        assert.equal(asked.length, 1, "asked once");
        assert.ok(asked[0].message.includes(archive), `the question names the archive: ${asked[0].message}`);
        assert.match(asked[0].message, /^Delete .*\?$/, "one sentence, a question");
      } else {
        assert.equal(asked.length, 0);
      }
      if (action === "decline") {
        assert.equal(res.isError, true, res.content[0].text);
        assert.equal(answer.error.code, "DECLINED");
        assert.equal(answer.error.details.action, "decline");
        assert.match(answer.error.message, /nothing was written/);
        assert.ok(existsSync(join(dir, archive)), "declined: the archive is kept");
      } else {
        assert.equal(res.isError ?? false, false, res.content[0].text);
        assert.deepEqual(res.structuredContent.removed, [archive]);
        assert.ok(!existsSync(join(dir, archive)), "the archive is deleted");
      }
    });
  }
}
