// shacl-engine.mjs validates a data graph against a shapes graph with
// shacl-engine (npm), the fastest JavaScript SHACL engine, for
// bench/shacl.sh: node bench/shacl-engine.mjs SHAPES DATA. The files are
// read with N3.js (Turtle, N-Triples) into an rdf-ext dataset; it prints
// the time each step took, sh:conforms and the number of results.
// The packages are loaded from the folders of NODE_PATH (ES modules do
// not read it themselves): .ci/run installs them in
// ~/.cache/jrpcld/shacl-npm.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const modules = (process.env.NODE_PATH || '').split(path.delimiter).find(d => d && fs.existsSync(path.join(d, 'shacl-engine')))
if (!modules) {
  console.error('shacl-engine.mjs: no folder of NODE_PATH holds shacl-engine')
  process.exit(3)
}
const esm = async (name, file) => import(pathToFileURL(path.join(modules, name, file)).href)
const N3 = createRequire(path.join(modules, 'x.js'))('n3')
const factory = (await esm('rdf-ext', 'index.js')).default
const { Validator } = await esm('shacl-engine', 'index.js')

function load (file) {
  const ds = factory.dataset()
  const format = file.endsWith('.nt') ? 'N-Triples' : 'Turtle'
  const parser = new N3.Parser({ baseIRI: pathToFileURL(file).href, format })
  // The quads are remade by rdf-ext's factory: in a dataset of N3.js's
  // own quad objects, shacl-engine finds no focus node.
  for (const q of parser.parse(fs.readFileSync(file, 'utf8'))) {
    ds.add(factory.quad(q.subject, q.predicate, q.object))
  }
  return ds
}

const [shapesFile, dataFile] = process.argv.slice(2)
const t0 = performance.now()
const shapes = load(shapesFile)
const data = load(dataFile)
const t1 = performance.now()
const report = await new Validator(shapes, { factory }).validate({ dataset: data })
const t2 = performance.now()
console.log(JSON.stringify({
  triples: data.size,
  conforms: report.conforms,
  results: report.results.length,
  loadSeconds: (t1 - t0) / 1000,
  validateSeconds: (t2 - t1) / 1000
}))
