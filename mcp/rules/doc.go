// Package rules checks the MCP rules that span messages, which no schema
// can: the lifecycle (initialize first, answered before other requests,
// notifications/initialized), version negotiation, capabilities used
// without being negotiated, batches where a version removed them, answers
// to nothing, request ids used twice, cancellation and progress that name
// unknown requests or tokens, and tools called that no tools/list offered.
//
// A log is read twice: Scan finds the version of each of its messages (the
// handshake of its session, the _meta of a stateless version's requests,
// or, with Infer, the versions whose schemas accept them), and a Checker
// then follows the log in order beside schema.ValidateLog, as its
// schema.Observer: it chooses the schema of each message's version, the
// result a task-augmented request's response must match, and adds the rule
// findings to the message they are about. Each finding names a stable rule
// id (All lists them) and the section of the version's specification that
// states it; a MUST broken is an error, a SHOULD a warning, and a rule
// applies only to the versions that state it.
//
// Each session is checked apart: those the log's envelopes name (an MCP
// session id, a run of a stdio server), however their messages interleave,
// and, within one, or in a log whose envelopes name none, each opened by
// an initialize request after the one before. A session keeps its own
// version, capabilities, request ids, progress tokens and tools.
package rules
