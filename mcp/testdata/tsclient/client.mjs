// The official MCP TypeScript SDK as a client of `recall mcp`: every
// response passes the SDK's schema validation or the client throws. Run by
// cmd/recall/testdata/script/mcp_tsclient.txtar; `recall` must be on PATH
// and the working directory must hold a store.
//
// Each step prints one line, "step: result", for the script to match.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const client = new Client({ name: "recall-tsclient", version: "1.0.0" });
const transport = new StdioClientTransport({ command: "recall", args: ["mcp"], stderr: "inherit" });
await client.connect(transport);

const say = (step, value) => console.log(`${step}: ${typeof value === "string" ? value : JSON.stringify(value)}`);

// Every resource, read while the store has nothing to show.
async function readAll(label) {
  const { resources } = await client.listResources();
  for (const r of resources) {
    const res = await client.readResource({ uri: r.uri });
    for (const c of res.contents) {
      say(`${label} ${c.uri}`, `text=${typeof c.text === "string"} length=${(c.text ?? "").length}`);
    }
  }
}

const { tools } = await client.listTools();
say("tools", tools.length);
await readAll("empty");

let r = await client.callTool({ name: "memory_context", arguments: {} });
say("empty memory_context", `isError=${r.isError === true} text=${typeof r.content[0].text === "string"}`);
r = await client.callTool({ name: "memory_search", arguments: { query: "staging" } });
say("empty memory_search", r.structuredContent);

r = await client.callTool({ name: "memory_put", arguments: { title: "Deploy rule", content: "Deploys go through staging first.", tags: ["ops"] } });
say("memory_put", `isError=${r.isError === true} version=${r.structuredContent.version}`);
r = await client.callTool({ name: "memory_pin", arguments: { id: r.structuredContent.id } });
say("memory_pin", `isError=${r.isError === true}`);
r = await client.callTool({ name: "memory_search", arguments: { query: "staging" } });
say("memory_search", r.structuredContent.hits.map((h) => h.title));
await readAll("full");

// A tool error is a result with isError, not a protocol failure.
r = await client.callTool({ name: "memory_get", arguments: { id: "tr000000dead" } });
say("missing memory_get", `isError=${r.isError === true}`);

await client.close();
say("done", "ok");
