// Converts JSON-RPC messages to RDF (N-Quads) with jsonld.js, the reference
// JSON-LD processor, for comparison with jrpcld: the same messages, the same
// context, used two ways:
//
//   inline: the context object is in every document ({"@context": {...}}),
//           as a JSON-LD user writes one document and hands it over, and as
//           json-gold's plain ToRDF is measured;
//   cached: every document names the context by URL and a document loader
//           serves it, so that jsonld.js processes it once and takes it from
//           its cache afterwards.
//
// Usage: node jsonld-bench.js CONTEXT.json SECONDS LOG.jsonl...
// Each way runs for SECONDS. Prints one JSON line:
// {"inline": {"messages": N, "seconds": S, "msgsPerSec": R}, "cached": {...}}.
'use strict';
const fs = require('fs');
const jsonld = require('jsonld');

const [ctxFile, secondsArg, ...logs] = process.argv.slice(2);
let context = JSON.parse(fs.readFileSync(ctxFile, 'utf8'));
if (context['@context'] !== undefined) context = context['@context'];
const ctxURL = 'https://jrpcld.invalid/context.jsonld';
const loader = async (url) => {
  if (url !== ctxURL) throw new Error('no remote documents: ' + url);
  return {contextUrl: null, documentUrl: url, document: {'@context': context}};
};

const msgs = [];
for (const f of logs) {
  for (const line of fs.readFileSync(f, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let v = JSON.parse(line);
    if (v.msg !== undefined && v.jsonrpc === undefined) v = v.msg;
    if (Array.isArray(v) || typeof v !== 'object' || v === null) continue;
    // As jrpcld does: members named like keywords are data, left out.
    const doc = {'@id': 'http://example.com/corpus#m' + msgs.length};
    for (const k of Object.keys(v)) if (!k.startsWith('@')) doc[k] = v[k];
    msgs.push(doc);
  }
}

// run converts the messages, each with the given "@context", for SECONDS
// after a warm-up round.
async function run(ctx) {
  const docs = msgs.map((m) => Object.assign({'@context': ctx}, m));
  const opts = {base: 'http://example.com/corpus/', format: 'application/n-quads', documentLoader: loader, safe: false};
  for (const d of docs) await jsonld.toRDF(d, opts);
  const limit = Number(secondsArg) * 1000;
  let n = 0;
  const start = Date.now();
  while (Date.now() - start < limit) {
    for (const d of docs) {
      await jsonld.toRDF(d, opts);
      n++;
    }
  }
  const seconds = (Date.now() - start) / 1000;
  return {messages: n, seconds, msgsPerSec: n / seconds};
}

(async () => {
  const inline = await run(context);
  const cached = await run(ctxURL);
  console.log(JSON.stringify({inline, cached}));
})().catch((e) => { console.error(e); process.exit(1); });
