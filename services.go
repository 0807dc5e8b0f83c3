package recall

// Services is the set of domain services a transport (MCP, HTTP) exposes.
// A nil field means the capability is not available in this process: the
// transport leaves out its tools or routes and says so, instead of failing
// at call time.
type Services struct {
	Memories     MemoryService
	Search       Searcher
	Observations ObservationService
	Context      ContextBuilder
	Sessions     SessionService
	Maintainer   Maintainer
}

// Missing names the services that are nil, for health reports and help.
func (s Services) Missing() []string {
	var out []string
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"memories", s.Memories != nil},
		{"search", s.Search != nil},
		{"observations", s.Observations != nil},
		{"context", s.Context != nil},
		{"sessions", s.Sessions != nil},
		{"maintain", s.Maintainer != nil},
	} {
		if !c.ok {
			out = append(out, c.name)
		}
	}
	return out
}
