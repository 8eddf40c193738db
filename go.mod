module github.com/jrpcld/jrpcld

go 1.26.0

require (
	github.com/dlclark/regexp2/v2 v2.13.0
	github.com/itchyny/gojq v0.12.20
	github.com/knakk/rdf v0.0.0-20260317081859-15b52521cde6
	github.com/ohler55/ojg v1.28.5
	github.com/piprate/json-gold v0.9.1
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
	github.com/yuin/goldmark v1.8.7
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/text v0.14.0
)

require (
	github.com/cayleygraph/quad v1.3.0 // indirect
	github.com/cpuguy83/go-md2man/v2 v2.0.6 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/itchyny/timefmt-go v0.1.9 // indirect
	github.com/pquerna/cachecontrol v0.2.0 // indirect
	github.com/russross/blackfriday/v2 v2.1.0 // indirect
)
