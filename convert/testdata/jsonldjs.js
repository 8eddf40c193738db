// Reads JSON lines on standard input: the first is a JSON-LD context, each
// of the others {"id": IRI, "base": IRI, "msg": {...}}. For each message it
// writes one JSON line: the N-Quads jsonld.js makes of the message with the
// context and "@id" set to id, or the error it gives.
const readline = require("readline");
const jsonld = require("jsonld");

// No document is ever loaded: a context that names another is an error.
const nothing = async (url) => {
  throw new Error("jsonldjs.js loads no document: " + url);
};

async function main() {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let context;
  for await (const line of lines) {
    if (line.trim() === "") continue;
    if (context === undefined) {
      context = JSON.parse(line);
      continue;
    }
    const item = JSON.parse(line);
    const doc = Object.assign({ "@context": context, "@id": item.id }, item.msg);
    try {
      const nq = await jsonld.toRDF(doc, { base: item.base, format: "application/n-quads", documentLoader: nothing });
      process.stdout.write(JSON.stringify({ nq }) + "\n");
    } catch (e) {
      process.stdout.write(JSON.stringify({ error: String(e && e.message || e) }) + "\n");
    }
  }
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + "\n");
  process.exit(1);
});
