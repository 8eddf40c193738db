// Validates JSON-RPC messages with ajv, the JSON Schema validator most
// JavaScript projects use, for comparison with `jrpcld validate --schema`:
// the same messages, the same schema file, compiled once.
//
// Usage:
//   node ajv-bench.js SCHEMA SECONDS [--formats] [--dispatch]
//        [--definition NAME] [--parse] [--verdicts FILE] LOG...
//
// SCHEMA is a JSON or YAML schema file (YAML is read with the npm package
// yaml). Its "$schema" picks ajv's class: draft 2020-12 (ajv/dist/2020),
// 2019-09 (ajv/dist/2019), or draft-07 and earlier (ajv).
//
// Each LOG holds JSON lines: bare messages or envelopes
// {"dir":"c2s"|"s2c","ts":...,"msg":...}, which are unwrapped (their
// direction is kept for --dispatch). A batch is one record whose members are
// each checked, as jrpcld does. Lines are parsed before timing starts: only
// the validation loop is timed, which favours ajv (jrpcld's figure includes
// reading and decoding the log). With --parse the timed loop parses each
// line too (JSON.parse, and unwrapping its envelope) before validating it:
// closer to what jrpcld's figure covers, still without reading the file.
//
// What each record is checked against:
//   (default)       the whole schema, as jrpcld checks a schema without
//                   method constants (the embedded JSON-RPC block's);
//   --definition N  the definition $defs/N (or definitions/N), as
//                   `jrpcld validate --definition N` does;
//   --dispatch      what jrpcld does with an MCP schema (schema/check.go,
//                   schema/dispatch.go): first the JSON-RPC 2.0 rules (a
//                   message they reject is invalid, is not checked against
//                   the schema, and as a request is not paired with its
//                   response), then
//                   a request or notification against the definition whose
//                   properties.method.const is its method (several: any of
//                   them, those named ...Request/...Notification first;
//                   none: JSONRPCRequest or JSONRPCNotification), a success
//                   response against the Result definition of the request it
//                   answers (paired by id with the latest open request sent
//                   the other way; the whole message when that definition
//                   describes one, else the message against
//                   JSONRPCResultResponse and its "result" against the
//                   definition), or, when the request is not known, its
//                   "result" against ServerResult (s2c), ClientResult (c2s)
//                   or either (no direction); an error response against
//                   JSONRPCErrorResponse (or JSONRPCError). Every definition
//                   used is compiled once, before timing.
//
// "format" is asserted (with ajv-formats) as jrpcld asserts it: in draft-07
// and before, not in 2019-09 and 2020-12, where it is an annotation unless
// --formats is given (jrpcld validate --formats). ajv runs with strict: false
// (the MCP schema uses union types, which strict mode refuses to compile) and
// allErrors: false (it stops at a record's first failure; jrpcld collects
// every problem), its defaults otherwise.
//
// After one untimed pass (the warm-up, which also counts the verdicts), the
// records are validated again and again for SECONDS. Prints one JSON line:
//   {"messages": N, "seconds": S, "msgsPerSec": R, "valid": V, "invalid": I,
//    "records": distinct records, "mode": ..., "formats": asserted or not,
//    "parse": bool,
//    "definitions": definitions compiled}
// where messages counts records validated in the timed loop and valid and
// invalid are the verdicts of one pass. --verdicts FILE writes the indices
// (from 0, in log order) of the invalid records as one JSON object
// {"invalid": [...]}, to compare with jrpcld's findings.
'use strict';
const fs = require('fs');

function usage(msg) {
  if (msg) console.error('ajv-bench: ' + msg);
  console.error('usage: node ajv-bench.js SCHEMA SECONDS [--formats] [--dispatch] [--definition NAME] [--parse] [--verdicts FILE] LOG...');
  process.exit(2);
}

const args = process.argv.slice(2);
const opts = {formats: false, dispatch: false, parse: false, definition: '', verdicts: ''};
const positional = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--formats') opts.formats = true;
  else if (a === '--dispatch') opts.dispatch = true;
  else if (a === '--parse') opts.parse = true;
  else if (a === '--definition' || a === '--verdicts') {
    if (i + 1 >= args.length) usage(a + ' needs a value');
    opts[a.slice(2)] = args[++i];
  } else if (a.startsWith('--')) usage('unknown flag ' + a);
  else positional.push(a);
}
const [schemaFile, secondsArg, ...logs] = positional;
const seconds = Number(secondsArg);
if (!schemaFile || !(seconds > 0) || logs.length === 0) usage();
if (opts.dispatch && opts.definition) usage('--dispatch and --definition exclude one another');

// The schema, and ajv for its draft (2020-12 when it names none, as for
// jrpcld's validator).
const text = fs.readFileSync(schemaFile, 'utf8');
const doc = /\.ya?ml$/i.test(schemaFile) ? require('yaml').parse(text) : JSON.parse(text);
const draft = typeof doc.$schema === 'string' && doc.$schema !== '' ? doc.$schema : '2020-12';
let AjvClass;
if (draft.includes('2020-12')) AjvClass = require('ajv/dist/2020');
else if (draft.includes('2019-09')) AjvClass = require('ajv/dist/2019');
else AjvClass = require('ajv');
AjvClass = AjvClass.default || AjvClass;
const formats = opts.formats || !/2019-09|2020-12/.test(draft);
const ajv = new AjvClass({strict: false, allErrors: false, validateFormats: formats});
if (formats) require('ajv-formats')(ajv);
// The key the schema is registered under: its own $id, or a name of ours
// (ajv resolves "KEY#/$defs/Name" to that definition and compiles it alone).
const key = typeof doc.$id === 'string' && doc.$id !== '' ? doc.$id : 'https://jrpcld.invalid/schema.json';
ajv.addSchema(doc, key);

const defsKey = ['$defs', 'definitions'].find((k) => doc[k] && typeof doc[k] === 'object' && !Array.isArray(doc[k]));
const defs = defsKey ? doc[defsKey] : {};
const has = (name) => Object.prototype.hasOwnProperty.call(defs, name);
const escapeToken = (s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));
const compiled = new Map();
// compile returns ajv's validation function for a definition, compiled once.
function compile(name) {
  if (!compiled.has(name)) {
    const fn = ajv.getSchema(key + '#/' + defsKey + '/' + escapeToken(name));
    if (!fn) throw new Error('ajv cannot compile ' + defsKey + '/' + name);
    compiled.set(name, fn);
  }
  return compiled.get(name);
}
let whole = null;
const root = () => (whole = whole || ajv.getSchema(key));

// resolveLocal follows a "#/..." reference inside the document.
function resolveLocal(ref) {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return null;
  let v = doc;
  for (const tok of ref.slice(2).split('/')) {
    const t = decodeURIComponent(tok).replace(/~1/g, '/').replace(/~0/g, '~');
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, t)) return null;
    v = v[t];
  }
  return v;
}

// describesMessage tells, as jrpcld does, whether a definition describes a
// whole message (it names "jsonrpc", "result" or "method" among its
// properties or required members, itself or through $ref and allOf) rather
// than the value of "result".
function describesMessage(s, depth) {
  if (s === null || typeof s !== 'object' || depth > 16) return false;
  const props = s.properties && typeof s.properties === 'object' ? s.properties : {};
  const req = Array.isArray(s.required) ? s.required : [];
  for (const k of ['jsonrpc', 'result', 'method']) {
    if (Object.prototype.hasOwnProperty.call(props, k) || req.includes(k)) return true;
  }
  if (describesMessage(resolveLocal(s.$ref), depth + 1)) return true;
  return Array.isArray(s.allOf) && s.allOf.some((a) => describesMessage(a, depth + 1));
}

// def returns {name, fn, message} for the first of names the schema defines,
// or null.
function def(...names) {
  for (const n of names) {
    if (has(n)) return {name: n, fn: compile(n), message: describesMessage(defs[n], 0)};
  }
  return null;
}

// The dispatch table, built as schema/dispatch.go builds its own.
let dispatch = null;
if (opts.dispatch) {
  const methods = new Map();
  for (const n of Object.keys(defs).sort()) {
    const m = defs[n];
    const c = m && m.properties && m.properties.method && m.properties.method.const;
    if (typeof c !== 'string') continue;
    const md = def(n);
    md.result = n.endsWith('Request') ? def(n.slice(0, -'Request'.length) + 'Result') : null;
    if (!methods.has(c)) methods.set(c, []);
    methods.get(c).push(md);
  }
  const conventional = (n) => n.endsWith('Request') || n.endsWith('Notification');
  for (const list of methods.values()) {
    list.sort((a, b) => (conventional(a.name) === conventional(b.name) ? 0 : conventional(a.name) ? -1 : 1));
  }
  if (methods.size > 0) {
    dispatch = {
      methods,
      request: def('JSONRPCRequest'),
      notification: def('JSONRPCNotification'),
      resultResponse: def('JSONRPCResultResponse', 'JSONRPCResponse'),
      errorResponse: def('JSONRPCErrorResponse', 'JSONRPCError'),
      serverResult: def('ServerResult'),
      clientResult: def('ClientResult'),
    };
  } else {
    console.error('ajv-bench: the schema has no method constants: every message is checked against the whole schema, as jrpcld does');
  }
}
let single = null;
if (opts.definition) {
  if (!has(opts.definition)) usage('no definition ' + opts.definition + ' in ' + schemaFile);
  single = compile(opts.definition);
}
const mode = dispatch ? 'dispatch' : opts.definition ? 'definition ' + opts.definition : 'whole schema';
if (!dispatch && !single) root();

// parseLine returns [dir, value] for one line: value is undefined when the
// line is not JSON (an invalid record, as for jrpcld).
function parseLine(line) {
  let v;
  try {
    v = JSON.parse(line);
  } catch (e) {
    return ['', undefined];
  }
  let dir = '';
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && v.msg !== undefined && v.jsonrpc === undefined) {
    dir = v.dir === 'c2s' || v.dir === 's2c' ? v.dir : '';
    v = v.msg;
  }
  return [dir, v];
}

// The records: [dir, value, line], parsed once.
const records = [];
for (const f of logs) {
  for (const line of fs.readFileSync(f, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const [dir, v] = parseLine(line);
    records.push([dir, v, line]);
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

// idKey compares ids as jrpcld does: by type and value ("1" and 1 differ).
function idKey(id) {
  if (id === null) return 'z';
  if (typeof id === 'string') return 's' + id;
  if (typeof id === 'number') return 'n' + String(id);
  return '?';
}
const opposite = (dir) => (dir === 'c2s' ? 's2c' : dir === 's2c' ? 'c2s' : dir);

// open maps direction and id to the methods of the requests sent that way
// and not yet answered (the latest last); it is emptied before each pass.
let open = new Map();

const check = (d, v) => (d ? d.fn(v) : root()(v));

// validateResult checks a success response against a result definition.
function validateResult(d, v) {
  if (d.message) return d.fn(v);
  const envelope = check(dispatch.resultResponse, v);
  const result = d.fn(v.result); // both, as jrpcld reports both
  return envelope && result;
}

// The JSON-RPC 2.0 rules that make a message invalid in jrpcld
// (jsonrpc.Classify; its warnings change nothing here).
const idOK = (o) => !own(o, 'id') || o.id === null || typeof o.id === 'string' || typeof o.id === 'number';
function errorObjectOK(e) {
  if (!isObject(e) || !own(e, 'code') || !own(e, 'message')) return false;
  const c = e.code;
  return Number.isInteger(c) && c >= -9223372036854775808 && c < 9223372036854775808 && typeof e.message === 'string';
}
function rulesOK(o, hasMethod, hasResult, hasError) {
  if (o.jsonrpc !== '2.0' || !idOK(o)) return false;
  if (hasMethod) {
    if (hasResult || hasError || typeof o.method !== 'string') return false;
    return !own(o, 'params') || (o.params !== null && typeof o.params === 'object');
  }
  if (!hasResult && !hasError) return false;
  if (hasResult && hasError) return false;
  if (!own(o, 'id')) return false;
  return !hasError || errorObjectOK(o.error);
}

// checkDispatched checks one message (or batch member) v sent in direction
// dir, as jrpcld's Checker does with an MCP schema.
function checkDispatched(v, dir) {
  if (!isObject(v)) return false;
  const hasMethod = own(v, 'method');
  const hasResult = own(v, 'result');
  const hasError = own(v, 'error');
  if (!rulesOK(v, hasMethod, hasResult, hasError)) return false;
  if (hasMethod) {
    if (own(v, 'id')) {
      const k = dir + ' ' + idKey(v.id);
      const list = open.get(k);
      if (list) list.push(v.method);
      else open.set(k, [v.method]);
    }
    const mds = dispatch.methods.get(v.method);
    if (mds) {
      for (const md of mds) if (md.fn(v)) return true;
      return false;
    }
    return check(own(v, 'id') ? dispatch.request : dispatch.notification, v);
  }
  let answers;
  const k = opposite(dir) + ' ' + idKey(v.id);
  const list = open.get(k);
  if (list) {
    answers = list.pop();
    if (list.length === 0) open.delete(k);
  }
  if (hasError) return check(dispatch.errorResponse, v);
  const mds = typeof answers === 'string' ? dispatch.methods.get(answers) : undefined;
  if (mds && mds[0].result) return validateResult(mds[0].result, v);
  const cands = (dir === 's2c' ? [dispatch.serverResult] : dir === 'c2s' ? [dispatch.clientResult] : [dispatch.serverResult, dispatch.clientResult]).filter((c) => c);
  if (cands.length === 0) return check(dispatch.resultResponse, v);
  for (const c of cands) if (validateResult(c, v)) return true;
  return false;
}

// checkRecord returns whether one record is valid.
function checkRecord(dir, v) {
  if (v === undefined) return false;
  if (Array.isArray(v)) {
    if (v.length === 0) return false;
    let ok = true;
    for (const m of v) if (!checkOne(m, dir)) ok = false;
    return ok;
  }
  return checkOne(v, dir);
}

function checkOne(v, dir) {
  if (dispatch) return checkDispatched(v, dir);
  if (single) return single(v);
  return whole(v);
}

// The warm-up pass, which also gives the verdicts.
let valid = 0;
const invalid = [];
for (let i = 0; i < records.length; i++) {
  if (checkRecord(records[i][0], records[i][1])) valid++;
  else invalid.push(i);
}
if (opts.verdicts) fs.writeFileSync(opts.verdicts, JSON.stringify({invalid}) + '\n');

// The timed loop. It counts the valid records too, so that no verdict goes
// unused, and checks that every pass agrees with the first.
const limit = seconds * 1e9;
let n = 0;
let passes = 0;
let loopValid = 0;
const start = process.hrtime.bigint();
let elapsed = 0;
while (elapsed < limit) {
  open = new Map();
  if (opts.parse) {
    for (let i = 0; i < records.length; i++) {
      const [dir, v] = parseLine(records[i][2]);
      if (checkRecord(dir, v)) loopValid++;
    }
  } else {
    for (let i = 0; i < records.length; i++) if (checkRecord(records[i][0], records[i][1])) loopValid++;
  }
  n += records.length;
  passes++;
  elapsed = Number(process.hrtime.bigint() - start);
}
if (loopValid !== passes * valid) console.error('ajv-bench: the timed passes found ' + loopValid + ' valid records, not ' + passes * valid);
const secs = elapsed / 1e9;
console.log(JSON.stringify({
  messages: n, seconds: secs, msgsPerSec: n / secs, valid, invalid: invalid.length,
  records: records.length, mode, formats, parse: opts.parse, definitions: compiled.size + (whole ? 1 : 0),
}));
