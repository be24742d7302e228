// An interactive client configured with an OAuth provider, on `kessho
// mcp --http` without a token: it meets the 401, probes for an OAuth
// server (RFC 9728's and RFC 8414's documents, then dynamic client
// registration), and must end on Kessho's words, "send Authorization:
// Bearer <token>, with the token kept in …", not on a bare 404 or a
// registration error that says nothing else. Both official TypeScript
// clients: the SDK 1.32 (@modelcontextprotocol/sdk) and the SDK 2
// (@modelcontextprotocol/client), pinned in package.json.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";

import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Transport1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from "@modelcontextprotocol/client";

import { bin, serveHTTP, temp, vaultCopy } from "./kessho.mjs";

// provider is an OAuth client provider as an interactive client has one:
// it would register, then send the user to the authorization page.
function provider(redirects) {
  let info, tokens, verifier;
  const redirect = "http://127.0.0.1:1/callback";
  return {
    get redirectUrl() { return redirect; },
    get clientMetadata() {
      return { client_name: "kessho-oauth-test", redirect_uris: [redirect], grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "none" };
    },
    clientInformation() { return info; },
    saveClientInformation(i) { info = i; },
    tokens() { return tokens; },
    saveTokens(t) { tokens = t; },
    redirectToAuthorization(url) { redirects.push(String(url)); },
    saveCodeVerifier(v) { verifier = v; },
    codeVerifier() { return verifier; },
  };
}

for (const [sdk, Client, Transport] of [["SDK 1.32", Client1, Transport1], ["SDK 2", Client2, Transport2]]) {
  test(`TypeScript ${sdk} with an OAuth provider, no token: the error says to send the Bearer token and where it is`, { timeout: 120_000 }, async (t) => {
    assert.ok(bin, "KESSHO_BIN names the kessho binary (make test-mcp-clients sets it)");
    const config = temp(t, "kessho-ts-config-");
    const url = await serveHTTP(t, vaultCopy(t), [], { XDG_CONFIG_HOME: config, KESSHO_MCP_TOKEN: undefined });
    const tokenFile = join(config, "kessho", "mcp-token");

    // Every request the client makes, and what it got.
    const seen = [];
    const fetchLogged = async (u, init) => {
      const res = await fetch(u, init);
      const body = await res.clone().text();
      seen.push({ method: init?.method ?? "GET", path: new URL(u).pathname, status: res.status, type: res.headers.get("content-type") ?? "", body });
      return res;
    };
    const redirects = [];
    const transport = new Transport(new URL(url), { authProvider: provider(redirects), fetch: fetchLogged });
    const client = new Client({ name: "kessho-oauth-test", version: "1" });
    t.after(() => client.close());
    const err = await client.connect(transport).then(() => null, (e) => e);

    assert.ok(err, "no token: the client does not connect");
    assert.match(err.message, /Authorization: Bearer <token>/, `the client's error names the header: ${err.message}`);
    assert.ok(err.message.includes(tokenFile), `the client's error says where the token is (${tokenFile}): ${err.message}`);
    assert.deepEqual(redirects, [], "the user is not sent to an authorization page");

    // What it probed answered OAuth-shaped JSON with the same words.
    const probes = seen.filter((s) => s.path !== "/mcp");
    assert.ok(probes.some((s) => s.path.startsWith("/.well-known/")), `the client looked for OAuth metadata: ${JSON.stringify(seen)}`);
    assert.ok(probes.some((s) => s.path === "/register" && s.status === 400), `the client tried to register: ${JSON.stringify(seen)}`);
    for (const p of probes) {
      assert.match(p.type, /^application\/json/, `${p.method} ${p.path}: JSON`);
      const body = JSON.parse(p.body);
      assert.equal(typeof body.error, "string", `${p.method} ${p.path}: an OAuth error code`);
      assert.ok(body.error_description.includes(tokenFile), `${p.method} ${p.path}: the description says where the token is`);
    }
  });
}
