package rules

import (
	"slices"

	"github.com/jrpcld/jrpcld/diag"
)

// SpecURL is where the specification of each version is published; a
// Statement's Section is read below SpecURL + VERSION + "/".
const SpecURL = "https://modelcontextprotocol.io/specification/"

// Rule is one rule of MCP that spans messages, as the versions that state
// it state it.
type Rule struct {
	ID      string // stable, such as "mcp-lifecycle-initialize-first"
	Summary string // what it asks, in a line
	Stated  []Statement
}

// Statement is how one version states a rule: how strongly (MUST: an
// error; SHOULD: a warning) and where.
type Statement struct {
	Version  string
	Severity diag.Severity
	Section  string // the page and anchor below the version's specification
}

// URL returns the address of the section that states the rule.
func (s Statement) URL() string { return SpecURL + s.Version + "/" + s.Section }

// In returns the statement of r in version v; false when v does not
// state r.
func (r *Rule) In(v string) (Statement, bool) {
	for _, s := range r.Stated {
		if s.Version == v {
			return s, true
		}
	}
	return Statement{}, false
}

// The versions with an initialize handshake (legacy, as 2026-07-28 calls
// them), and the stateless ones.
var (
	handshakeVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}
	statelessVersions = []string{"2026-07-28"}
)

// stated returns the statements of the versions vs, all with severity sev
// at section.
func stated(sev diag.Severity, section string, vs ...string) []Statement {
	out := make([]Statement, len(vs))
	for i, v := range vs {
		out[i] = Statement{v, sev, section}
	}
	return out
}

// join returns the statements of several calls of stated as one list.
func join(lists ...[]Statement) []Statement { return slices.Concat(lists...) }

const (
	lifecycleInit = "basic/lifecycle#initialization"
	lifecycleOp   = "basic/lifecycle#operation"
)

// capabilityStated: using a capability that was not negotiated is a SHOULD
// NOT until 2025-03-26 and a MUST NOT since 2025-06-18.
func capabilityStated(vs ...string) []Statement {
	var out []Statement
	for _, v := range vs {
		sev := diag.Error
		if v < "2025-06-18" {
			sev = diag.Warning
		}
		out = append(out, Statement{v, sev, lifecycleOp})
	}
	return out
}

// The rules. Their ids never change: tools filter on them.
var (
	ruleInitializeFirst = &Rule{"mcp-lifecycle-initialize-first",
		"the initialize request is the first message of a session",
		stated(diag.Error, lifecycleInit, handshakeVersions...)}
	ruleWaitForInitialize = &Rule{"mcp-lifecycle-client-waits-for-initialize",
		"the client sends no request but ping before the server answers initialize",
		stated(diag.Warning, lifecycleInit, handshakeVersions...)}
	ruleServerWaits = &Rule{"mcp-lifecycle-server-waits-for-initialized",
		"the server sends no request but ping before notifications/initialized",
		stated(diag.Warning, lifecycleInit, handshakeVersions...)}
	ruleInitialized = &Rule{"mcp-lifecycle-initialized",
		"after a successful answer to initialize, the client sends notifications/initialized before anything but ping",
		stated(diag.Error, lifecycleInit, handshakeVersions...)}
	ruleVersionAnswer = &Rule{"mcp-version-server-answer",
		"a server that supports the version the client asks for answers that version",
		stated(diag.Error, "basic/lifecycle#version-negotiation", handshakeVersions...)}
	ruleVersionClient = &Rule{"mcp-version-client-disconnects",
		"a client that does not support the version the server answers disconnects",
		stated(diag.Warning, "basic/lifecycle#version-negotiation", handshakeVersions...)}

	ruleCapTools = &Rule{"mcp-capability-tools",
		"tools/list and tools/call only when the server declared tools",
		capabilityStated(handshakeVersions...)}
	ruleCapResources = &Rule{"mcp-capability-resources",
		"resources/list, resources/read and resources/templates/list only when the server declared resources",
		capabilityStated(handshakeVersions...)}
	ruleCapSubscribe = &Rule{"mcp-capability-resources-subscribe",
		"resources/subscribe, resources/unsubscribe and notifications/resources/updated only when the server declared resources.subscribe",
		capabilityStated(handshakeVersions...)}
	ruleCapPrompts = &Rule{"mcp-capability-prompts",
		"prompts/list and prompts/get only when the server declared prompts",
		capabilityStated(handshakeVersions...)}
	ruleCapLogging = &Rule{"mcp-capability-logging",
		"logging/setLevel and notifications/message only when the server declared logging",
		capabilityStated(handshakeVersions...)}
	ruleCapCompletions = &Rule{"mcp-capability-completions",
		"completion/complete only when the server declared completions",
		capabilityStated("2025-03-26", "2025-06-18", "2025-11-25")}
	ruleCapSampling = &Rule{"mcp-capability-sampling",
		"sampling/createMessage only when the client declared sampling",
		capabilityStated(handshakeVersions...)}
	ruleCapRoots = &Rule{"mcp-capability-roots",
		"roots/list only when the client declared roots",
		capabilityStated(handshakeVersions...)}
	ruleCapElicitation = &Rule{"mcp-capability-elicitation",
		"elicitation/create only when the client declared elicitation (url mode: elicitation.url)",
		capabilityStated("2025-06-18", "2025-11-25")}
	ruleCapListChanged = &Rule{"mcp-capability-list-changed",
		"a list_changed notification only when its sender declared listChanged for that list",
		capabilityStated(handshakeVersions...)}
	ruleCapTasks = &Rule{"mcp-capability-tasks",
		"tasks/list, tasks/cancel and task-augmented requests only when the receiver declared them under tasks",
		join(capabilityStated("2025-11-25"))}
	ruleTaskSupport = &Rule{"mcp-tasks-tool-support",
		"a tool is called as a task only when its execution.taskSupport allows it, and always when it is required",
		stated(diag.Error, "basic/utilities/tasks#tool-level-negotiation", "2025-11-25")}

	ruleBatch = &Rule{"mcp-batch-removed",
		"no JSON-RPC batches: each message travels alone",
		join(stated(diag.Error, "basic/transports#sending-messages-to-the-server", "2025-06-18", "2025-11-25"),
			stated(diag.Error, "basic/transports/streamable-http#sending-messages", "2026-07-28"))}
	ruleUnmatched = &Rule{"mcp-response-unmatched",
		"a response answers an open request of the other side, by its id: never a notification, never twice",
		join(stated(diag.Error, "basic/messages#responses", "2024-11-05"),
			stated(diag.Error, "basic#responses", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"))}
	ruleIDReused = &Rule{"mcp-request-id-reused",
		"a requestor never uses a request id twice in a session",
		join(stated(diag.Error, "basic/messages#requests", "2024-11-05"),
			stated(diag.Error, "basic#requests", "2025-03-26", "2025-06-18", "2025-11-25"))}
	ruleIDInFlight = &Rule{"mcp-request-id-in-flight",
		"a sender never uses the id of one of its requests still unanswered",
		stated(diag.Error, "basic#requests", statelessVersions...)}
	ruleCancelUnknown = &Rule{"mcp-cancel-unknown-request",
		"notifications/cancelled names a request its sender issued",
		stated(diag.Error, "basic/utilities/cancellation#behavior-requirements", handshakeVersions...)}
	ruleCancelInitialize = &Rule{"mcp-cancel-initialize",
		"the client never cancels initialize",
		stated(diag.Error, "basic/utilities/cancellation#behavior-requirements", handshakeVersions...)}
	ruleProgressToken = &Rule{"mcp-progress-unknown-token",
		"notifications/progress names the progress token of an active request of the other side",
		stated(diag.Error, "basic/utilities/progress#behavior-requirements", handshakeVersions...)}
	ruleProgressUnique = &Rule{"mcp-progress-token-unique",
		"a progress token is not that of another active request",
		stated(diag.Error, "basic/utilities/progress#progress-flow", handshakeVersions...)}
	ruleProgressIncreases = &Rule{"mcp-progress-increases",
		"each notifications/progress of a token has a greater progress than the one before",
		stated(diag.Error, "basic/utilities/progress#progress-flow", handshakeVersions...)}
	ruleToolListed = &Rule{"mcp-tool-not-listed",
		"tools/call names a tool a tools/list of the session offered",
		stated(diag.Warning, "server/tools#listing-tools", handshakeVersions...)}
	ruleLogLevel = &Rule{"mcp-logging-without-level",
		"notifications/message only for a request whose _meta set io.modelcontextprotocol/logLevel",
		stated(diag.Error, "server/utilities/logging", statelessVersions...)}
)

// all are the rules, in the order of docs/mcp-rules.md.
var all = []*Rule{
	ruleInitializeFirst, ruleWaitForInitialize, ruleServerWaits, ruleInitialized,
	ruleVersionAnswer, ruleVersionClient,
	ruleCapTools, ruleCapResources, ruleCapSubscribe, ruleCapPrompts, ruleCapLogging,
	ruleCapCompletions, ruleCapSampling, ruleCapRoots, ruleCapElicitation, ruleCapListChanged,
	ruleCapTasks, ruleTaskSupport,
	ruleBatch, ruleUnmatched, ruleIDReused, ruleIDInFlight,
	ruleCancelUnknown, ruleCancelInitialize,
	ruleProgressToken, ruleProgressUnique, ruleProgressIncreases,
	ruleToolListed, ruleLogLevel,
}

// All returns the rules, each a copy.
func All() []Rule {
	out := make([]Rule, len(all))
	for i, r := range all {
		out[i] = Rule{r.ID, r.Summary, slices.Clone(r.Stated)}
	}
	return out
}

// Lookup returns the rule with the given id.
func Lookup(id string) (Rule, bool) {
	for _, r := range all {
		if r.ID == id {
			return Rule{r.ID, r.Summary, slices.Clone(r.Stated)}, true
		}
	}
	return Rule{}, false
}
