// bench/sparql-oxigraph.js DATA.nt QUERY.rq: loads DATA (N-Triples) into
// an in-memory Oxigraph store (the npm package "oxigraph", 0.5.x) and
// runs QUERY once, writing its SPARQL JSON results to standard output and
// the time of the load and of the query (ms) to standard error, for
// bench/sparql.sh.
"use strict";
const fs = require("fs");
const oxigraph = require("oxigraph");

const [data, query] = process.argv.slice(2);
const t0 = process.hrtime.bigint();
const store = new oxigraph.Store();
store.load(fs.readFileSync(data, "utf8"), { format: "application/n-triples" });
const t1 = process.hrtime.bigint();
const out = store.query(fs.readFileSync(query, "utf8"), { results_format: "application/sparql-results+json" });
const t2 = process.hrtime.bigint();
process.stdout.write(out);
process.stderr.write(`load ${Number(t1 - t0) / 1e6} ms, query ${Number(t2 - t1) / 1e6} ms\n`);
