// A test shim, not Oxigraph's own server: a small HTTP front on loopback
// around the Oxigraph engine (the npm package "oxigraph", compiled to
// WebAssembly), for jrpcld's tests of package gsp and of the SPARQL pack.
// It speaks as much of two W3C protocols as those tests use:
//
//   SPARQL 1.1 Graph Store HTTP Protocol, at /store:
//     PUT    ?graph=IRI | ?default  replace the graph with the body (204)
//     POST   ?graph=IRI | ?default  add the body to the graph (204)
//     POST   (no parameter)         add an N-Quads body to the dataset (204)
//     GET    ?graph=IRI | ?default  the graph as N-Triples (200, or 404)
//     DELETE ?graph=IRI             drop the graph (204, or 404)
//   The body's media type is read from Content-Type: text/turtle,
//   application/n-triples, application/n-quads (dataset only) or
//   application/ld+json. A body that does not parse is 400 with the
//   engine's message, and leaves the store as it was.
//   SPARQL 1.1 Protocol, at /query: GET ?query=... or POST with
//   application/sparql-query; SPARQL JSON results.
//
// Flags: --union-default-graph (queries see the union of all graphs as
// their default graph), --fail-first N (answer 503 with Retry-After: 0 to
// the first N uploads, to exercise retries).
//
// It listens on 127.0.0.1 on a free port, prints "listening URL" on one
// line of standard output, and exits when standard input closes.
"use strict";
const http = require("http");
const oxigraph = require("oxigraph");

const args = process.argv.slice(2);
const union = args.includes("--union-default-graph");
const failAt = args.indexOf("--fail-first");
let failures = failAt >= 0 ? Number(args[failAt + 1]) : 0;

const store = new oxigraph.Store();
const graphFormats = ["text/turtle", "application/n-triples", "application/ld+json"];

function send(res, status, body, type) {
  res.writeHead(status, { "Content-Type": type || "text/plain; charset=utf-8" });
  res.end(body || "");
}

function target(params) {
  if (params.has("graph") && params.has("default")) return { error: "both graph and default" };
  if (params.has("graph")) return { graph: oxigraph.namedNode(params.get("graph")) };
  if (params.has("default")) return { graph: oxigraph.defaultGraph() };
  return { dataset: true };
}

function store_(req, res, url, body) {
  const t = target(url.searchParams);
  if (t.error) return send(res, 400, t.error);
  const type = (req.headers["content-type"] || "").split(";")[0].trim().toLowerCase();
  if (req.method === "GET") {
    if (!t.graph) return send(res, 400, "GET needs ?graph or ?default");
    if (t.graph.termType === "NamedNode" && store.match(null, null, null, t.graph).length === 0) {
      return send(res, 404, "no such graph");
    }
    return send(res, 200, store.dump({ format: "application/n-triples", from_graph_name: t.graph }), "application/n-triples");
  }
  if (req.method === "DELETE") {
    if (!t.graph) return send(res, 400, "DELETE needs ?graph or ?default");
    const quads = store.match(null, null, null, t.graph);
    if (quads.length === 0 && t.graph.termType === "NamedNode") return send(res, 404, "no such graph");
    for (const q of quads) store.delete(q);
    return send(res, 204);
  }
  if (req.method !== "PUT" && req.method !== "POST") return send(res, 405, "method not allowed");
  if (failures > 0) {
    failures--;
    res.setHeader("Retry-After", "0");
    return send(res, 503, "failing on purpose (--fail-first)");
  }
  const ok = t.dataset ? type === "application/n-quads" : graphFormats.includes(type);
  if (!ok) return send(res, 415, "unsupported media type " + JSON.stringify(type) + (t.dataset ? " for a dataset" : " for a graph"));
  // Parse first, so that a bad body changes nothing.
  let quads;
  try {
    const opts = { format: type };
    if (t.graph) opts.to_graph_name = t.graph;
    if (t.graph && t.graph.termType === "NamedNode") opts.base_iri = t.graph.value;
    quads = oxigraph.parse(body, opts);
  } catch (e) {
    return send(res, 400, String(e && e.message ? e.message : e));
  }
  if (req.method === "PUT") {
    const old = t.dataset ? store.match() : store.match(null, null, null, t.graph);
    for (const q of old) store.delete(q);
  }
  for (const q of quads) store.add(q);
  return send(res, 204);
}

function query(req, res, url, body) {
  let text;
  if (req.method === "GET") text = url.searchParams.get("query");
  else if (req.method === "POST") text = body;
  else return send(res, 405, "method not allowed");
  if (!text) return send(res, 400, "no query");
  try {
    const out = store.query(text, { results_format: "application/sparql-results+json", use_default_graph_as_union: union });
    return send(res, 200, out, "application/sparql-results+json");
  } catch (e) {
    return send(res, 400, String(e && e.message ? e.message : e));
  }
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const url = new URL(req.url, "http://127.0.0.1");
    const body = Buffer.concat(chunks).toString("utf8");
    try {
      if (url.pathname === "/store") return store_(req, res, url, body);
      if (url.pathname === "/query") return query(req, res, url, body);
      return send(res, 404, "not found");
    } catch (e) {
      return send(res, 500, String(e && e.message ? e.message : e));
    }
  });
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write("listening http://127.0.0.1:" + server.address().port + "\n");
});
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
