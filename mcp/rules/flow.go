package rules

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/internal/jsonparse"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/schema"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// capNeed is the capability a method needs: of which peer, at which path
// of its capabilities object. A request needs its receiver's; a
// notification (own) its sender's.
type capNeed struct {
	rule *Rule
	of   side
	path []string
	own  bool
}

// requestCaps and notificationCaps are the capabilities the methods of
// the specification need.
var (
	requestCaps = map[string]capNeed{
		"tools/list":               {ruleCapTools, server, []string{"tools"}, false},
		"tools/call":               {ruleCapTools, server, []string{"tools"}, false},
		"resources/list":           {ruleCapResources, server, []string{"resources"}, false},
		"resources/read":           {ruleCapResources, server, []string{"resources"}, false},
		"resources/templates/list": {ruleCapResources, server, []string{"resources"}, false},
		"resources/subscribe":      {ruleCapSubscribe, server, []string{"resources", "subscribe"}, false},
		"resources/unsubscribe":    {ruleCapSubscribe, server, []string{"resources", "subscribe"}, false},
		"prompts/list":             {ruleCapPrompts, server, []string{"prompts"}, false},
		"prompts/get":              {ruleCapPrompts, server, []string{"prompts"}, false},
		"logging/setLevel":         {ruleCapLogging, server, []string{"logging"}, false},
		"completion/complete":      {ruleCapCompletions, server, []string{"completions"}, false},
		"sampling/createMessage":   {ruleCapSampling, client, []string{"sampling"}, false},
		"roots/list":               {ruleCapRoots, client, []string{"roots"}, false},
		"elicitation/create":       {ruleCapElicitation, client, []string{"elicitation"}, false},
	}
	notificationCaps = map[string]capNeed{
		"notifications/message":                {ruleCapLogging, server, []string{"logging"}, true},
		"notifications/tools/list_changed":     {ruleCapListChanged, server, []string{"tools", "listChanged"}, true},
		"notifications/prompts/list_changed":   {ruleCapListChanged, server, []string{"prompts", "listChanged"}, true},
		"notifications/resources/list_changed": {ruleCapListChanged, server, []string{"resources", "listChanged"}, true},
		"notifications/resources/updated":      {ruleCapSubscribe, server, []string{"resources", "subscribe"}, true},
		"notifications/roots/list_changed":     {ruleCapListChanged, client, []string{"roots", "listChanged"}, true},
	}
	// taskCaps are where a receiver declares that it takes a method
	// augmented with a task (2025-11-25), and resultOf the definition of
	// the result tasks/result gives for a task the method made.
	taskCaps = map[string][]string{
		"tools/call":             {"tasks", "requests", "tools", "call"},
		"sampling/createMessage": {"tasks", "requests", "sampling", "createMessage"},
		"elicitation/create":     {"tasks", "requests", "elicitation", "create"},
	}
	resultOf = map[string]string{
		"tools/call":             "CallToolResult",
		"sampling/createMessage": "CreateMessageResult",
		"elicitation/create":     "ElicitResult",
	}
)

// has reports whether the capabilities caps declare path: an object
// there, or true.
func has(caps map[string]any, path ...string) bool {
	var v any = caps
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if v, ok = m[p]; !ok {
			return false
		}
	}
	switch v := v.(type) {
	case bool:
		return v
	case map[string]any:
		return true
	}
	return false
}

// capsOf returns the capabilities peer p declared in the session; nil
// while unknown.
func (s *session) capsOf(p side) map[string]any {
	switch p {
	case client:
		return s.clientCaps
	case server:
		if s.ok {
			return s.serverCaps
		}
	}
	return nil
}

// pathString writes a capability path as "resources.subscribe".
func pathString(path []string) string {
	out := ""
	for i, p := range path {
		if i > 0 {
			out += "."
		}
		out += p
	}
	return out
}

// checkCap reports x when its sender uses a capability its peer did not
// declare.
func (c *Checker) checkCap(ch *schema.Choice, x *msg, need capNeed) {
	s := c.sess
	sender := need.of.other()
	if need.own {
		sender = need.of
	}
	if !s.handshake || x.side != sender {
		return
	}
	caps := s.capsOf(need.of)
	if caps == nil {
		return
	}
	path := need.path
	if x.m.Method == "elicitation/create" && x.version == "2025-11-25" {
		// An elicitation names its mode; {} declares form mode only.
		mode, _ := x.params()["mode"].(string)
		el, _ := caps["elicitation"].(map[string]any)
		switch {
		case el == nil:
		case mode == "url":
			path = []string{"elicitation", "url"}
		case len(el) == 0:
			return
		default:
			path = []string{"elicitation", "form"}
		}
	}
	if !has(caps, path...) {
		c.report(ch, x, need.rule, "/method", "%s, but the %s did not declare the capability %s in the initialize handshake",
			describe(x.m), need.of, pathString(path))
	}
}

// request checks a request and notes it as open.
func (c *Checker) request(ch *schema.Choice, x *msg) {
	s := c.sess
	method := x.m.Method
	p := &pending{index: x.o.Index, line: x.o.Line, method: method, side: x.side}
	if method == "tools/list" {
		_, p.cursor = x.params()["cursor"]
	}
	if method == "initialize" && s.handshake && s.initKey == "" && x.side != server {
		s.initKey = jsonrpc.IDKey(x.m.ID)
		params := x.params()
		s.asked, _ = params["protocolVersion"].(string)
		s.clientCaps, _ = params["capabilities"].(map[string]any)
		if s.clientCaps == nil {
			s.clientCaps = map[string]any{}
		}
	} else if s.handshake && s.twoSided {
		c.lifecycle(ch, x)
	}
	if need, ok := requestCaps[method]; ok {
		c.checkCap(ch, x, need)
	}
	var params map[string]any
	switch {
	case method == "tools/call" || method == "tasks/result" || x.mayHold(`"_meta"`) || x.mayHold(`"task"`):
		params = x.params()
	}
	if method == "tasks/list" || method == "tasks/cancel" {
		c.checkCap(ch, x, capNeed{ruleCapTasks, x.side.other(), []string{"tasks", method[len("tasks/"):]}, false})
	}
	if method == "tasks/result" {
		p.taskOf, _ = params["taskId"].(string)
	}
	if _, ok := params["task"]; ok && taskCaps[method] != nil {
		p.task = true
		c.checkCap(ch, x, capNeed{ruleCapTasks, x.side.other(), taskCaps[method], false})
	}
	if method == "tools/call" {
		c.toolCall(ch, x, p.task)
	}
	c.checkID(ch, x)
	meta, _ := params["_meta"].(map[string]any)
	if tok, ok := meta["progressToken"]; ok && tok != nil {
		k := tokenKey{x.side, jsonrpc.IDKey(tok)}
		if _, active := s.tokens[k]; active {
			c.report(ch, x, ruleProgressUnique, "/params/_meta/progressToken",
				"progress token %s is already that of an active request", show(tok))
		} else {
			if s.tokens == nil {
				s.tokens = map[tokenKey]*progress{}
			}
			s.tokens[k] = &progress{}
			p.token = &k
		}
	}
	if _, ok := meta["io.modelcontextprotocol/logLevel"]; ok {
		p.logLevel = true
		s.openWithLogLevel++
	}
	s.open.Request(x.o.Dir, x.m.ID, p)
}

// lifecycle checks a request, other than the session's initialize, of a
// session opened by initialize.
func (c *Checker) lifecycle(ch *schema.Choice, x *msg) {
	s := c.sess
	method := x.m.Method
	if method == "ping" || strings.HasPrefix(method, "notifications/") {
		return // a notification sent with an id is the schema's to report
	}
	switch x.side {
	case client:
		switch {
		case !s.answered:
			c.report(ch, x, ruleWaitForInitialize, "/method",
				"%s before the server answered initialize: until then the client sends only ping", describe(x.m))
		case s.ok && !s.initialized && !s.flaggedInit:
			s.flaggedInit = true
			c.report(ch, x, ruleInitialized, "/method",
				"%s before notifications/initialized: after the answer to initialize (line %d), the client sends notifications/initialized first",
				describe(x.m), s.answerLine)
		}
	case server:
		if !s.initialized {
			c.report(ch, x, ruleServerWaits, "/method",
				"%s before the client sent notifications/initialized: until then the server sends only ping (and log messages)", describe(x.m))
		}
	}
}

// checkID checks a request's id against those its sender used before.
func (c *Checker) checkID(ch *schema.Choice, x *msg) {
	s := c.sess
	if _, ok := ruleIDInFlight.In(x.version); ok {
		if s.open.IsOpen(x.o.Dir, x.m.ID) {
			c.report(ch, x, ruleIDInFlight, "/id", "request id %s is that of a request of the same sender still unanswered", show(x.m.ID))
		}
		return
	}
	if x.side == noSide {
		return // a request either peer may send, in a log without directions
	}
	if !s.used[x.side].add(x.m.ID) {
		c.report(ch, x, ruleIDReused, "/id", "request id %s was used before in this session by the same %s", show(x.m.ID), x.side)
	}
}

// toolCall checks a tools/call against the tools the session listed.
func (c *Checker) toolCall(ch *schema.Choice, x *msg, task bool) {
	s := c.sess
	if !s.complete() {
		return
	}
	name, ok := x.params()["name"].(string)
	if !ok {
		return
	}
	// The specification does not ask for a tools/list before a call: a
	// tool is known not to be offered only where the session listed the
	// tools in full, every page, and they have not changed since.
	support, listed := s.tools[name]
	switch {
	case s.toolsComplete && !s.toolsFull[name]:
		c.report(ch, x, ruleToolListed, "/params/name", "tools/call of tool %q, which the session's tools/list, answered in full (its last page at line %d), did not offer", name, s.toolsListLine)
	case !listed:
	case task && (support == "" || support == "forbidden") && has(s.capsOf(server), taskCaps["tools/call"]...):
		c.report(ch, x, ruleTaskSupport, "/params/task", "tools/call of tool %q as a task, but its execution.taskSupport is %s", name, orAbsent(support))
	case !task && support == "required":
		c.report(ch, x, ruleTaskSupport, "/params", "tools/call of tool %q without a task, but its execution.taskSupport is \"required\"", name)
	}
}

func orAbsent(s string) string {
	if s == "" {
		return "absent"
	}
	return strconv.Quote(s)
}

// notification checks a notification.
func (c *Checker) notification(ch *schema.Choice, x *msg) {
	s := c.sess
	method := x.m.Method
	var params map[string]any
	switch method {
	case "notifications/cancelled", "notifications/progress", "notifications/tasks/status":
		params = x.params()
	}
	switch method {
	case "notifications/initialized":
		if !s.handshake || x.side == server || !s.twoSided {
			break
		}
		if !s.ok {
			s.flaggedInit = true
			c.report(ch, x, ruleInitialized, "/method", "notifications/initialized before a successful answer to initialize")
		}
		s.initialized = true
	case "notifications/tools/list_changed":
		if x.side != client {
			s.toolsComplete = false // the tools may have changed: listed in full no more
		}
	case "notifications/cancelled":
		c.cancelled(ch, x, params)
	case "notifications/progress":
		c.progress(ch, x, params)
	case "notifications/message":
		if s.stateless && s.openWithLogLevel == 0 {
			c.report(ch, x, ruleLogLevel, "/method",
				"notifications/message, but no open request set io.modelcontextprotocol/logLevel in its _meta")
		}
	case "notifications/tasks/status":
		if id, ok := params["taskId"].(string); ok {
			c.taskStatus(id, params)
		}
	}
	if need, ok := notificationCaps[method]; ok {
		c.checkCap(ch, x, need)
	}
}

// cancelled checks a notifications/cancelled.
func (c *Checker) cancelled(ch *schema.Choice, x *msg, params map[string]any) {
	s := c.sess
	id, ok := params["requestId"]
	if !ok || !s.handshake {
		return
	}
	if x.side != server && s.initKey != "" && jsonrpc.IDKey(id) == s.initKey {
		c.report(ch, x, ruleCancelInitialize, "/params/requestId", "notifications/cancelled of the initialize request")
		return
	}
	sides := []side{x.side}
	if x.side == noSide {
		sides = []side{noSide, client, server}
	}
	for _, sd := range sides {
		if s.used[sd].has(id) {
			return
		}
	}
	c.report(ch, x, ruleCancelUnknown, "/params/requestId",
		"notifications/cancelled of request %s, which its sender (the %s) never issued in this session", show(id), x.side)
}

// progress checks a notifications/progress.
func (c *Checker) progress(ch *schema.Choice, x *msg, params map[string]any) {
	s := c.sess
	tok, ok := params["progressToken"]
	if !ok || !s.complete() || s.stateless {
		return
	}
	key := jsonrpc.IDKey(tok)
	sides := []side{x.side.other()}
	if x.side == noSide {
		sides = []side{noSide, client, server}
	}
	var p *progress
	for _, sd := range sides {
		if p = s.tokens[tokenKey{sd, key}]; p != nil {
			break
		}
	}
	if p == nil {
		c.report(ch, x, ruleProgressToken, "/params/progressToken",
			"notifications/progress of token %s, which no active request of the other peer gave", show(tok))
		return
	}
	v, ok := number(params["progress"])
	if !ok {
		return
	}
	if p.seen && v <= p.last {
		c.report(ch, x, ruleProgressIncreases, "/params/progress",
			"progress %s is not greater than the %s before it for token %s", show(params["progress"]), strconv.FormatFloat(p.last, 'g', -1, 64), show(tok))
	}
	p.last, p.seen = v, true
}

// number returns the value of a JSON number.
func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// taskStatus forgets the progress token of a task that reached a terminal
// status.
func (c *Checker) taskStatus(id string, task map[string]any) {
	s := c.sess
	switch task["status"] {
	case "completed", "failed", "cancelled":
		if k, ok := s.taskTokens[id]; ok {
			delete(s.tokens, k)
			delete(s.taskTokens, id)
		}
	}
}

// response pairs a response with its request and checks it.
func (c *Checker) response(ch *schema.Choice, x *msg) {
	s := c.sess
	if !x.m.HasID || x.m.ID == nil {
		return // an error about a request whose id could not be read
	}
	p, ok := s.open.Answer(x.o.Dir, x.m.ID)
	if !ok {
		if s.complete() {
			c.report(ch, x, ruleUnmatched, "/id",
				"response with id %s, but no request with that id waits for an answer in this session: a notification is never answered, a request only once",
				show(x.m.ID))
		}
		return
	}
	if x.side == noSide {
		x.side = p.side.other()
	}
	keepToken := false
	if p.logLevel {
		s.openWithLogLevel--
	}
	result := x.m.Kind == jsonrpc.KindResponse
	switch {
	case p.method == "initialize" && s.handshake && !s.answered:
		c.answer(x, result)
	case p.method == "tools/list" && result:
		c.listTools(x, p.cursor)
	case p.method == "tools/list":
		s.toolsPage = nil // a listing that failed is not in full
	case p.task && x.version == "2025-11-25":
		caps := s.capsOf(p.side.other())
		switch {
		case caps == nil:
			ch.Results = []string{"CreateTaskResult", ""}
		case has(caps, taskCaps[p.method]...):
			ch.Results = []string{"CreateTaskResult"}
		}
		if task, ok := x.result()["task"].(map[string]any); ok && result {
			if id, ok := task["taskId"].(string); ok {
				if s.taskMethods == nil {
					s.taskMethods, s.taskTokens = map[string]string{}, map[string]tokenKey{}
				}
				s.taskMethods[id] = p.method
				if p.token != nil {
					s.taskTokens[id] = *p.token
					keepToken = true
				}
				c.taskStatus(id, task)
			}
		}
	case p.method == "tasks/result" && result:
		if def := resultOf[s.taskMethods[p.taskOf]]; def != "" {
			ch.Results = []string{def}
		}
	case (p.method == "tasks/get" || p.method == "tasks/cancel") && result:
		if id, ok := x.result()["taskId"].(string); ok {
			c.taskStatus(id, x.result())
		}
	}
	if p.token != nil && !keepToken {
		delete(s.tokens, *p.token)
	}
}

// answer notes the server's answer to the session's initialize.
func (c *Checker) answer(x *msg, result bool) {
	s := c.sess
	s.answered, s.ok = true, result
	s.answerIndex, s.answerLine = x.o.Index, x.o.Line
	if !result {
		return
	}
	r := x.result()
	s.answeredVersion, _ = r["protocolVersion"].(string)
	s.serverCaps, _ = r["capabilities"].(map[string]any)
	if s.serverCaps == nil {
		s.serverCaps = map[string]any{}
	}
	c.answers = append(c.answers, handshake{session: s.number, asked: s.asked, answered: s.answeredVersion, index: x.o.Index, line: x.o.Line})
}

// listTools notes the tools a tools/list result offers, on the page a
// request with a cursor (next) or without one (the first) asked for. A
// listing is in full once its pages, from the first, end with one without
// nextCursor. The result is read on its text where it has one, the longest
// of most logs, without decoding it.
func (c *Checker) listTools(x *msg, next bool) {
	s := c.sess
	tools, more, ok := toolsOfText(x)
	if !ok {
		r := x.result()
		list, _ := r["tools"].([]any)
		tools = map[string]string{}
		for _, t := range list {
			t, _ := t.(map[string]any)
			exec, _ := t["execution"].(map[string]any)
			if name, ok := t["name"].(string); ok {
				tools[name], _ = exec["taskSupport"].(string)
			}
		}
		_, more = r["nextCursor"]
	}
	if s.tools == nil {
		s.tools = map[string]string{}
	}
	if !next {
		s.toolsPage = map[string]bool{}
	}
	for name, support := range tools {
		s.tools[name] = support
		if s.toolsPage != nil {
			s.toolsPage[name] = true
		}
	}
	if !more && s.toolsPage != nil {
		s.toolsFull, s.toolsPage, s.toolsComplete, s.toolsListLine = s.toolsPage, nil, true, x.o.Line
	}
}

// toolsOfText reads the tools a tools/list result offers, and whether it
// has a next page, on the message's text; ok is false when it cannot (no
// text, a batch member, a name with an escape).
func toolsOfText(x *msg) (tools map[string]string, more, ok bool) {
	if x.o.Raw == nil || x.ptr != "" {
		return nil, false, false
	}
	result, ok := member(x.o.Raw, "result")
	if !ok {
		return nil, false, false
	}
	list, ok := member(result, "tools")
	if !ok {
		return nil, false, false
	}
	_, more = member(result, "nextCursor")
	tools = map[string]string{}
	for _, t := range jsonparse.Elements(list) {
		nameText, ok := member(t, "name")
		if !ok {
			continue
		}
		name, ok := jsonparse.AppendString(nil, nameText)
		if !ok {
			continue
		}
		support := ""
		if exec, ok := member(t, "execution"); ok {
			if st, ok := member(exec, "taskSupport"); ok {
				b, _ := jsonparse.AppendString(nil, st)
				support = string(b)
			}
		}
		tools[string(name)] = support
	}
	return tools, more, true
}

// member returns the text of the last member name of the object text, JSON
// a log reader accepted; false when text is no object, has no such member,
// or a name holds an escape.
func member(text []byte, name string) ([]byte, bool) {
	i := jsonparse.SkipSpace(text, 0)
	if i >= len(text) || text[i] != '{' {
		return nil, false
	}
	var buf [16]jsonparse.Member
	ms, ok := jsonparse.AppendMembers(buf[:0], text[i:])
	if !ok {
		return nil, false
	}
	for k := len(ms) - 1; k >= 0; k-- {
		if string(ms[k].Name) == name {
			return ms[k].Value, true
		}
	}
	return nil, false
}

// show writes a JSON value of a message for a finding.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil || len(b) > 80 {
		return "(a value)"
	}
	return string(b)
}

// idSet is the request ids one peer used: integers as ranges, which a
// counter fills in order, others by their key, up to maxOtherIDs of them
// (then those are no longer remembered, and none is found used twice).
type idSet struct {
	ranges [][2]int64 // sorted, disjoint, not adjacent
	others map[string]struct{}
	full   bool
}

// maxOtherIDs bounds the ids that are not integers an idSet remembers.
const maxOtherIDs = 1 << 20

// add adds id and reports whether it was new.
func (s *idSet) add(id any) bool {
	if n, ok := intID(id); ok {
		i := sort.Search(len(s.ranges), func(i int) bool { return s.ranges[i][1] >= n })
		if i < len(s.ranges) && s.ranges[i][0] <= n {
			return false
		}
		joinsNext := i < len(s.ranges) && s.ranges[i][0] == n+1
		joinsPrev := i > 0 && s.ranges[i-1][1] == n-1
		switch {
		case joinsPrev && joinsNext:
			s.ranges[i-1][1] = s.ranges[i][1]
			s.ranges = append(s.ranges[:i], s.ranges[i+1:]...)
		case joinsPrev:
			s.ranges[i-1][1] = n
		case joinsNext:
			s.ranges[i][0] = n
		default:
			s.ranges = append(s.ranges, [2]int64{})
			copy(s.ranges[i+1:], s.ranges[i:])
			s.ranges[i] = [2]int64{n, n}
		}
		return true
	}
	if s.full {
		return true
	}
	k := jsonrpc.IDKey(id)
	if _, ok := s.others[k]; ok {
		return false
	}
	if s.others == nil {
		s.others = map[string]struct{}{}
	}
	if len(s.others) == maxOtherIDs {
		s.full, s.others = true, nil
		return true
	}
	s.others[k] = struct{}{}
	return true
}

// has reports whether id was added (true for any id once the set is
// full: nothing is then known not to be used).
func (s *idSet) has(id any) bool {
	if s.full {
		if _, ok := intID(id); !ok {
			return true
		}
	}
	if n, ok := intID(id); ok {
		i := sort.Search(len(s.ranges), func(i int) bool { return s.ranges[i][1] >= n })
		return i < len(s.ranges) && s.ranges[i][0] <= n
	}
	_, ok := s.others[jsonrpc.IDKey(id)]
	return ok
}

// intID returns an id that is an integer JSON number, as written without
// a fraction or exponent, in the range of int64.
func intID(id any) (int64, bool) {
	n, ok := id.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	return i, err == nil && i > -1<<62 && i < 1<<62
}
