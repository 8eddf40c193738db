// Package deps pins the module's dependencies while the packages that use
// them are being written. It is removed once each is imported for real.
package deps

import (
	_ "github.com/knakk/rdf"
	_ "github.com/piprate/json-gold/ld"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "gopkg.in/yaml.v3"
)
