// A stdio MCP server (the TypeScript SDK's) with one tool whose input
// schema holds what Inspector --strict reports: a bare `true` where a
// schema is expected (an error) and a `type` array (a warning). The
// negative control of inspector.test.mjs: the check it passes on kessho
// mcp is one that fails here.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new Server({ name: "unportable", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{
    name: "unportable",
    inputSchema: { type: "object", properties: { anything: true, maybe: { type: ["null", "string"] } } },
  }],
}));
await server.connect(new StdioServerTransport());
