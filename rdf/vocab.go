package rdf

// The namespaces of the vocabularies jrpcld writes and reads.
const (
	RDFNS  = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	RDFSNS = "http://www.w3.org/2000/01/rdf-schema#"
	OWLNS  = "http://www.w3.org/2002/07/owl#"
	XSDNS  = "http://www.w3.org/2001/XMLSchema#"
	// JRPCNS is the JSON-RPC ontology's namespace, whose classes type
	// messages and whose properties the blocks' contexts map members to.
	JRPCNS = "http://json-rpc.org/ontology#"
	// JLogNS is the namespace of jrpcld's own log terms: how messages sit in
	// a log (direction, position, time), which request a response answers,
	// what a message's id was, and what the context could not carry. The
	// terms are declared in ontology/log.ttl.
	JLogNS = "https://jrpcld.github.io/ns/log#"
)

// Terms of RDF and XML Schema.
const (
	RDFType       = RDFNS + "type"
	RDFJSON       = RDFNS + "JSON"
	RDFLangString = RDFNS + "langString"
	RDFFirst      = RDFNS + "first"
	RDFRest       = RDFNS + "rest"
	RDFNil        = RDFNS + "nil"

	XSDString   = XSDNS + "string"
	XSDInteger  = XSDNS + "integer"
	XSDDecimal  = XSDNS + "decimal"
	XSDDouble   = XSDNS + "double"
	XSDBoolean  = XSDNS + "boolean"
	XSDDateTime = XSDNS + "dateTime"
	// XSDBase64Binary is the datatype of bytes written in standard base64
	// (jlog:bytes).
	XSDBase64Binary = XSDNS + "base64Binary"

	// RDFSSeeAlso links a jlog:Finding to the section of the specification
	// that states its rule.
	RDFSSeeAlso = RDFSNS + "seeAlso"
	// SHViolation and SHWarning are SHACL's severities, which a
	// jlog:Finding's jlog:severity takes: a MUST broken, a SHOULD broken.
	SHViolation = "http://www.w3.org/ns/shacl#Violation"
	SHWarning   = "http://www.w3.org/ns/shacl#Warning"
)

// The classes of JSON-RPC messages.
const (
	JRPCRequest       = JRPCNS + "Request"
	JRPCNotification  = JRPCNS + "Notification"
	JRPCResponse      = JRPCNS + "Response"
	JRPCErrorResponse = JRPCNS + "ErrorResponse"
)

// jrpcld's log terms.
const (
	JLogLog               = JLogNS + "Log"
	JLogBatch             = JLogNS + "Batch"
	JLogUnansweredRequest = JLogNS + "UnansweredRequest"
	JLogOrphanResponse    = JLogNS + "OrphanResponse"
	JLogInLog             = JLogNS + "inLog"
	JLogPosition          = JLogNS + "position"
	JLogDirection         = JLogNS + "direction"
	JLogClientToServer    = JLogNS + "ClientToServer"
	JLogServerToClient    = JLogNS + "ServerToClient"
	JLogTimestamp         = JLogNS + "timestamp"
	// JLogSession names the MCP session of a message (a log envelope's
	// "session"), an xsd:string: responses answer the requests of their
	// own session only.
	JLogSession     = JLogNS + "session"
	JLogAnswers     = JLogNS + "answers"
	JLogMember      = JLogNS + "member"
	JLogMemberIndex = JLogNS + "memberIndex"
	JLogID          = JLogNS + "id"
	// JLogPatch carries what the block's context cannot: an RFC 6902 JSON
	// Patch (its JSON text, an xsd:string) that turns the message the way
	// back makes from a node's mapped properties into the message exactly
	// as it was sent.
	JLogPatch = JLogNS + "patch"
	// JLogInvalidMessage types a message that breaks the JSON-RPC 2.0
	// rules; JLogJSON holds its JSON text exactly as it was sent (an
	// xsd:string), from which the way back gives it again.
	JLogInvalidMessage = JLogNS + "InvalidMessage"
	JLogJSON           = JLogNS + "json"
	// JLogBytes holds, in place of JLogJSON, the exact bytes of a message
	// that is no JSON text (a log envelope's "bytes": text that is not
	// UTF-8), as an xsd:base64Binary literal.
	JLogBytes = JLogNS + "bytes"
	// JLogProblem links a message to what is wrong with it: a node with
	// JLogCode, JLogMessage and, where known, JLogPointer.
	JLogProblem = JLogNS + "problem"
	JLogCode    = JLogNS + "code"
	JLogMessage = JLogNS + "message"
	JLogPointer = JLogNS + "pointer"
	// JLogFinding links a message to a JLogFindingClass node: a rule it
	// breaks that a check across the log's messages found (the MCP rules),
	// with JLogRule (the rule's id), JLogSeverity (SHViolation or
	// SHWarning), JLogMessage, JLogPointer and rdfs:seeAlso, the
	// section of the specification that states the rule.
	JLogFinding      = JLogNS + "finding"
	JLogFindingClass = JLogNS + "Finding"
	JLogRule         = JLogNS + "rule"
	JLogSeverity     = JLogNS + "severity"
	// JLogRawTimestamp and JLogRawDirection keep an envelope's "ts" that
	// is not a string and a "dir" that is not "c2s" or "s2c": their JSON
	// text, as xsd:string literals.
	JLogRawTimestamp = JLogNS + "rawTimestamp"
	JLogRawDirection = JLogNS + "rawDirection"
)
