// Package buildinfo says which recall this binary is: the one place the
// CLI (recall version), MCP (serverInfo.version) and REST read it from, so
// they never disagree.
package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Info describes the build of the running binary.
type Info struct {
	Version string `json:"version"`        // module version, or "dev" for a build from a work tree
	Commit  string `json:"commit"`         // VCS revision, "" when the build recorded none
	Date    string `json:"date,omitempty"` // commit time (RFC 3339) when recorded
	Dirty   bool   `json:"dirty,omitempty"`
	Go      string `json:"go"` // Go toolchain version
}

// Read returns the build information of the running binary.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Version: "dev", Go: runtime.Version()}
	}
	return fromBuildInfo(bi)
}

// fromBuildInfo is Read's work on a given debug.BuildInfo, for tests.
func fromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Version: bi.Main.Version, Go: bi.GoVersion}
	if in.Version == "" || in.Version == "(devel)" {
		in.Version = "dev"
	}
	if in.Go == "" {
		in.Go = runtime.Version()
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Commit = s.Value
		case "vcs.time":
			in.Date = s.Value
		case "vcs.modified":
			in.Dirty = s.Value == "true"
		}
	}
	return in
}

// Version is the short version string servers report: the module version,
// else "dev" followed by the short commit when one was recorded.
func Version() string { return Read().Short() }

// Short is the one-word form of in: "v1.2.0", "dev", or "dev-0123abcd".
func (in Info) Short() string {
	if in.Version != "dev" || in.Commit == "" {
		return in.Version
	}
	return "dev-" + shortCommit(in.Commit)
}

// String is the one-line form `recall --version` prints.
func (in Info) String() string {
	var b strings.Builder
	b.WriteString("recall " + in.Version)
	if in.Commit != "" {
		b.WriteString(" (commit " + shortCommit(in.Commit))
		if in.Dirty {
			b.WriteString(", modified")
		}
		if in.Date != "" {
			b.WriteString(", " + in.Date)
		}
		b.WriteString(")")
	}
	b.WriteString(" " + in.Go)
	return b.String()
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}
