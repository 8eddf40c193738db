// Runs the generated queries of rdf/sparql's differential test
// (gendiff_test.go) in Oxigraph, the npm package "oxigraph", all in this
// one process.
//
// Standard input is one JSON object:
//   {"datasets": ["N-TRIPLES", ...],
//    "cases": [{"data": INDEX, "form": "SELECT|ASK|CONSTRUCT", "query": "TEXT"}, ...]}
// Each dataset is loaded once, into a store of its own. Standard output is
// a JSON array, one item per case in order: {"results": "SPARQL 1.1 JSON
// results"} for SELECT and ASK, {"graph": "N-TRIPLES"} for CONSTRUCT, or
// {"error": "message"}.
"use strict";
const fs = require("fs");
const oxigraph = require("oxigraph");

const req = JSON.parse(fs.readFileSync(0, "utf8"));
const stores = req.datasets.map((nt) => {
  const store = new oxigraph.Store();
  store.load(nt, { format: "application/n-triples" });
  return store;
});
const out = req.cases.map((c) => {
  try {
    if (c.form === "CONSTRUCT") {
      return { graph: stores[c.data].query(c.query, { results_format: "application/n-triples" }) };
    }
    return { results: stores[c.data].query(c.query, { results_format: "application/sparql-results+json" }) };
  } catch (e) {
    return { error: String(e && e.message ? e.message : e) };
  }
});
process.stdout.write(JSON.stringify(out));
