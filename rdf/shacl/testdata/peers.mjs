// peers.mjs runs the JavaScript SHACL engines rdf-validate-shacl and
// shacl-engine for the differential tests of package shacl. It reads a JSON
// request on standard input, {"cases": [{"name", "shapes": [files],
// "data": [files]}]}, parses the files (Turtle or N-Triples, by extension,
// with the file's file: URL as base), validates each case with each engine
// and writes one JSON object per line: {"name", "engine", "conforms",
// "results": [key...], "error"}. A key is what the tests compare of a
// result: [focus node, path, value, source shape, constraint component,
// severity], terms as sig writes them (peers_test.go does the same in Go).
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

// ES modules ignore NODE_PATH: the packages are loaded from the folder it
// names (the first that holds them) by their files.
const modules = (process.env.NODE_PATH || '').split(path.delimiter).find(d => d && fs.existsSync(path.join(d, 'shacl-engine')))
if (!modules) {
  console.error('peers.mjs: no folder of NODE_PATH holds shacl-engine')
  process.exit(3)
}
const esm = async (name, file) => import(pathToFileURL(path.join(modules, name, file)).href)
const N3 = createRequire(path.join(modules, 'x.js'))('n3')
const factory = (await esm('rdf-ext', 'index.js')).default
const SHACLValidator = (await esm('rdf-validate-shacl', 'index.js')).default
const Engine = (await esm('shacl-engine', 'index.js')).Validator

const SH = 'http://www.w3.org/ns/shacl#'
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#'
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string'

function load (files, prefix) {
  const ds = factory.dataset()
  files.forEach((file, i) => {
    const text = fs.readFileSync(file, 'utf8')
    const format = file.endsWith('.nt') ? 'N-Triples' : 'Turtle'
    const parser = new N3.Parser({ baseIRI: pathToFileURL(file).href, format, blankNodePrefix: `${prefix}${i}_` })
    for (const q of parser.parse(text)) {
      ds.add(factory.quad(q.subject, q.predicate, q.object))
    }
  })
  return ds
}

function objects (ds, s, p) {
  return [...ds.match(s, factory.namedNode(p), null)].map(q => q.object)
}

function one (ds, s, p) {
  const os = objects(ds, s, p)
  return os.length ? os[0] : null
}

function quote (s) {
  return '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r') + '"'
}

// sig writes a term; a blank node as the sorted descriptions of its
// triples, three levels deep, so that both sides name it alike.
function sig (t, ds, depth = 0) {
  if (!t) return ''
  if (t.termType === 'NamedNode') return `<${t.value}>`
  if (t.termType === 'Literal') {
    let s = quote(t.value)
    if (t.language) s += '@' + t.language.toLowerCase()
    else if (t.datatype && t.datatype.value !== XSD_STRING) s += `^^<${t.datatype.value}>`
    return s
  }
  if (depth >= 3) return '[]'
  const parts = [...ds.match(t, null, null)].map(q => `<${q.predicate.value}> ${sig(q.object, ds, depth + 1)}`)
  parts.sort()
  return '[' + parts.join('; ') + ']'
}

function list (ds, n) {
  const items = []
  while (n && !(n.termType === 'NamedNode' && n.value === RDF + 'nil') && items.length < 100) {
    items.push(one(ds, n, RDF + 'first'))
    n = one(ds, n, RDF + 'rest')
  }
  return items
}

function pathOf (ds, n, nested) {
  if (n.termType === 'NamedNode') return `<${n.value}>`
  const wrap = s => nested ? `(${s})` : s
  if (one(ds, n, RDF + 'first')) return wrap(list(ds, n).map(i => pathOf(ds, i, true)).join('/'))
  let o
  if ((o = one(ds, n, SH + 'alternativePath'))) return wrap(list(ds, o).map(i => pathOf(ds, i, true)).join('|'))
  if ((o = one(ds, n, SH + 'inversePath'))) return '^' + pathOf(ds, o, true)
  if ((o = one(ds, n, SH + 'zeroOrMorePath'))) return pathOf(ds, o, true) + '*'
  if ((o = one(ds, n, SH + 'oneOrMorePath'))) return pathOf(ds, o, true) + '+'
  if ((o = one(ds, n, SH + 'zeroOrOnePath'))) return pathOf(ds, o, true) + '?'
  return '?'
}

function keys (report, data, shapes) {
  const ds = report.dataset
  const out = []
  for (const q of ds.match(null, factory.namedNode(SH + 'result'), null)) {
    const r = q.object
    const p = one(ds, r, SH + 'resultPath')
    out.push([
      sig(one(ds, r, SH + 'focusNode'), data),
      p ? pathOf(ds, p, false) : '',
      sig(one(ds, r, SH + 'value'), data),
      sig(one(ds, r, SH + 'sourceShape'), shapes),
      one(ds, r, SH + 'sourceConstraintComponent').value.replace(SH, ''),
      one(ds, r, SH + 'resultSeverity').value.replace(SH, '')
    ])
  }
  return out
}

const request = JSON.parse(fs.readFileSync(0, 'utf8'))
const engines = {
  'rdf-validate-shacl': async (shapes, data) => new SHACLValidator(shapes).validate(data),
  'shacl-engine': async (shapes, data) => new Engine(shapes, { factory }).validate({ dataset: data })
}
for (const c of request.cases) {
  let shapes, data
  try {
    shapes = load(c.shapes, 's')
    data = c.data.join('\n') === c.shapes.join('\n') ? shapes : load(c.data, 'd')
  } catch (e) {
    for (const name of Object.keys(engines)) {
      process.stdout.write(JSON.stringify({ name: c.name, engine: name, error: 'parse: ' + e.message }) + '\n')
    }
    continue
  }
  for (const [name, run] of Object.entries(engines)) {
    const out = { name: c.name, engine: name }
    try {
      const report = await run(shapes, data)
      out.conforms = report.conforms
      out.results = keys(report, data, shapes)
    } catch (e) {
      out.error = String(e && e.message || e)
    }
    process.stdout.write(JSON.stringify(out) + '\n')
  }
}
