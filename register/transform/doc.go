// Package transform runs what a building block declares on top of its
// examples, as the OGC building-block tool chain (bblocks-postprocess)
// does: the transforms of its transforms.yaml, each applied to every
// example snippet of a media type it takes, and the steps of its
// semantic-uplift.yaml, applied to an example's JSON before it is uplifted
// to RDF (jq) and to the graph after (SHACL rules, SPARQL updates and
// CONSTRUCT queries), after the inheritable steps of the blocks it depends
// on when it inherits them.
//
// A transform runs where a Go library does the job: jq programs (gojq),
// JSON-LD framing (json-gold, which never fetches a context), SHACL-AF
// triple rules (package shacl) and SPARQL Update and CONSTRUCT (package
// sparql, run as the tool chain runs them with rdflib: the graph's
// prefixes and rdflib's own in scope). The other types need a runtime
// jrpcld does not embed: XSLT (lxml), Python, Node.js, the ogc-na-tools
// uplift and plugin types. Run reports them with a *NotRunError that names
// what would run them, and the caller reports them as the tool chain
// reports a transform that failed: nothing is skipped in silence.
//
// The code of a transform or step comes from the register's authors, and a
// few lines of it can ask for gigabytes or run for ever. A Sandbox runs it
// in a child process (jrpcld itself, started with ChildArg) whose memory
// and processor time are bounded, so that a step past a limit fails as a
// transform fails and the caller goes on; Transform.Run, Uplift.Pre and
// Uplift.Post run it in this process.
//
// Declarations keep the tool chain's forms: Parse reads transforms.yaml
// and normalises each transform's media types as the tool chain writes
// them in register.json; ParseUplift reads semantic-uplift.yaml.
package transform
