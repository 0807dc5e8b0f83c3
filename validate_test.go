package recall

import "testing"

func TestMemoryFilterValidate(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, tc := range []struct {
		f  MemoryFilter
		ok bool
	}{
		{MemoryFilter{}, true},
		{MemoryFilter{Tier: s("working"), Status: s("any"), Type: s("decision"), Limit: 10, Offset: 5}, true},
		{MemoryFilter{Status: s("*")}, true},
		{MemoryFilter{Tier: s("hot")}, false},
		{MemoryFilter{Status: s("bogus")}, false},
		{MemoryFilter{Type: s("two words")}, false},
		{MemoryFilter{Limit: -1}, false},
		{MemoryFilter{Offset: -1}, false},
	} {
		err := tc.f.Validate()
		if (err == nil) != tc.ok {
			t.Errorf("Validate(%+v) = %v, want ok=%v", tc.f, err, tc.ok)
		}
		if err != nil && ErrorCode(err) != EINVALID {
			t.Errorf("Validate(%+v): code %s, want EINVALID", tc.f, ErrorCode(err))
		}
	}
}

func TestValidateType(t *testing.T) {
	for typ, ok := range map[string]bool{"": true, "decision": true, "how-to": true, "Decision": true,
		"two words": false, "tab\there": false, "line\nbreak": false} {
		if err := ValidateType(typ); (err == nil) != ok {
			t.Errorf("ValidateType(%q) = %v, want ok=%v", typ, err, ok)
		}
	}
}
