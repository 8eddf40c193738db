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
// Usage: node jsonld-bench.js [--cached] CONTEXT.json SECONDS LOG.jsonl...
// Each way runs for SECONDS. Prints one JSON line:
// {"inline": {"messages": N, "seconds": S, "msgsPerSec": R}, "cached": {...}}.
// With --cached (first), only the cached way runs and "inline" is null.
//
// The way back: node jsonld-bench.js --from-rdf CONTEXT.json SECONDS FILE.nt...
// reads N-Triples (or N-Quads) that jrpcld wrote from a log, cuts them into
// one document per message (the statements about the message's IRI, later
// ones such as jlog:UnansweredRequest included, and those about the blank
// nodes it refers to; the log's own node is left out), and turns each into
// JSON with jsonld.fromRDF and then jsonld.compact with the context, inline
// or named by URL and cached as above: what a jsonld.js user does to get
// JSON back from the RDF that `jrpcld json` reads. Only the conversion loop
// is timed; the N-Triples are split before. Prints the same JSON line.
'use strict';
const fs = require('fs');
const jsonld = require('jsonld');

const argv = process.argv.slice(2);
const cachedOnly = argv[0] === '--cached';
if (cachedOnly) argv.shift();
const fromRDF = argv[0] === '--from-rdf';
if (fromRDF) argv.shift();
const [ctxFile, secondsArg, ...logs] = argv;
let context = JSON.parse(fs.readFileSync(ctxFile, 'utf8'));
if (context['@context'] !== undefined) context = context['@context'];
const ctxURL = 'https://jrpcld.invalid/context.jsonld';
const loader = async (url) => {
  if (url !== ctxURL) throw new Error('no remote documents: ' + url);
  return {contextUrl: null, documentUrl: url, document: {'@context': context}};
};

const msgs = [];
if (!fromRDF) {
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
}

// splitMessages cuts N-Triples or N-Quads text into one N-Quads document per
// message node (a subject typed with a class of the jrpc ontology), with the
// blank nodes it refers to, however deep.
function splitMessages(text) {
  const jrpc = '<http://json-rpc.org/ontology#';
  const rdfType = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';
  const bySubject = new Map();
  const order = [];
  const isMessage = new Set();
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    const sp = t.indexOf(' ');
    const subject = t.slice(0, sp);
    if (!bySubject.has(subject)) {
      bySubject.set(subject, []);
      order.push(subject);
    }
    bySubject.get(subject).push(t);
    const rest = t.slice(sp + 1);
    if (rest.startsWith(rdfType + ' ' + jrpc)) isMessage.add(subject);
  }
  const docs = [];
  for (const subject of order) {
    if (!isMessage.has(subject)) continue;
    const lines = [];
    const seen = new Set([subject]);
    const queue = [subject];
    while (queue.length > 0) {
      for (const l of bySubject.get(queue.shift()) || []) {
        lines.push(l);
        // An object that is a blank node: take its statements too (the
        // predicate, an IRI, holds no space).
        const p = l.indexOf(' ');
        const o = l.slice(l.indexOf(' ', p + 1) + 1);
        const m = /^_:[^ ]+/.exec(o);
        if (m && !seen.has(m[0])) {
          seen.add(m[0]);
          queue.push(m[0]);
        }
      }
    }
    docs.push(lines.join('\n') + '\n');
  }
  return docs;
}

const quads = [];
if (fromRDF) for (const f of logs) quads.push(...splitMessages(fs.readFileSync(f, 'utf8')));

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

// back turns each message's N-Quads into JSON with fromRDF and compact, the
// context given as ctx, for SECONDS after a warm-up round.
async function back(ctx) {
  const opts = {format: 'application/n-quads'};
  const copts = {documentLoader: loader, safe: false};
  for (const q of quads) await jsonld.compact(await jsonld.fromRDF(q, opts), ctx, copts);
  const limit = Number(secondsArg) * 1000;
  let n = 0;
  const start = Date.now();
  while (Date.now() - start < limit) {
    for (const q of quads) {
      await jsonld.compact(await jsonld.fromRDF(q, opts), ctx, copts);
      n++;
    }
  }
  const seconds = (Date.now() - start) / 1000;
  return {messages: n, seconds, msgsPerSec: n / seconds, documents: quads.length};
}

(async () => {
  const way = fromRDF ? back : run;
  const inline = cachedOnly ? null : await way(context);
  const cached = await way(ctxURL);
  console.log(JSON.stringify({inline, cached}));
})().catch((e) => { console.error(e); process.exit(1); });
