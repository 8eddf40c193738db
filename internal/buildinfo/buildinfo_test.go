package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestOf(t *testing.T) {
	setting := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	tests := []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"no build information", nil, false, "(unknown version: the binary carries no build information)"},
		{"go install of a tag", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}},
			true, "v1.2.3, revision unknown, built with go1.26.8"},
		{"a clone with changes", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: setting("vcs", "git", "vcs.revision", "46a4607abc", "vcs.time", "2026-11-20T09:00:00Z", "vcs.modified", "true")},
			true, "(devel), revision 46a4607abc (2026-11-20T09:00:00Z) with uncommitted changes, built with go1.26.8"},
		{"a clean clone", &debug.BuildInfo{Main: debug.Module{}, Settings: setting("vcs.revision", "abc", "vcs.modified", "false")},
			true, "(devel), revision abc"},
	}
	for _, tt := range tests {
		if got := Of(tt.info, tt.ok); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
