package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"},
			{Key: "vcs.time", Value: "2026-11-24T08:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	in := fromBuildInfo(bi)
	if in.Version != "dev" || in.Commit != "0123456789abcdef0123" || in.Date != "2026-11-24T08:00:00Z" || !in.Dirty || in.Go != "go1.99" {
		t.Fatalf("fromBuildInfo = %+v", in)
	}
	if got, want := in.Short(), "dev-0123456789ab"; got != want {
		t.Errorf("Short = %q, want %q", got, want)
	}
	if got, want := in.String(), "recall dev (commit 0123456789ab, modified, 2026-11-24T08:00:00Z) go1.99"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	tagged := fromBuildInfo(&debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "v1.2.0"}})
	if tagged.Short() != "v1.2.0" || tagged.String() != "recall v1.2.0 go1.99" {
		t.Errorf("tagged = %q / %q", tagged.Short(), tagged.String())
	}
}

func TestReadHasGoVersion(t *testing.T) {
	if in := Read(); in.Go == "" || in.Version == "" {
		t.Errorf("Read = %+v: Go and Version must be set", in)
	}
}
