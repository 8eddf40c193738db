// Runs SPARQL queries in Oxigraph (the npm package "oxigraph": the Oxigraph
// engine compiled to WebAssembly) for jrpcld's tests (package oxitest).
//
// Standard input is one JSON object:
//   {"data": [{"file": "...", "format": "MEDIA TYPE"}, ...],
//    "union": false,
//    "queries": ["FILE", ...]}
// Each data file is loaded into one in-memory store: a graph format into the
// default graph, N-Quads into the named graphs it names. With "union", each
// query sees the union of all graphs as its default graph
// (use_default_graph_as_union), as a store set up that way does.
// Standard output is a JSON array, one item per query in order: {"results":
// the SPARQL 1.1 JSON results} or {"error": "message"}.
"use strict";
const fs = require("fs");
const oxigraph = require("oxigraph");

const req = JSON.parse(fs.readFileSync(0, "utf8"));
const store = new oxigraph.Store();
for (const d of req.data) {
  store.load(fs.readFileSync(d.file, "utf8"), { format: d.format });
}
const out = [];
for (const file of req.queries) {
  try {
    const text = store.query(fs.readFileSync(file, "utf8"), {
      results_format: "application/sparql-results+json",
      use_default_graph_as_union: !!req.union,
    });
    out.push({ results: JSON.parse(text) });
  } catch (e) {
    out.push({ error: String(e && e.message ? e.message : e) });
  }
}
process.stdout.write(JSON.stringify(out));
