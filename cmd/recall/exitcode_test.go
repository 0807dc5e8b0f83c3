package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The README's promise: 1 for a data error, 2 for a usage error, whether
// the usage error is found by recall or by cobra's flag rules.
func TestExitCodes(t *testing.T) {
	t.Setenv("RECALL_STORE", t.TempDir())
	t.Setenv("RECALL_AGENT", "tester")
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"frobnicate"}, exitUsage},
		{[]string{"put", "--bogus"}, exitUsage},
		{[]string{"observe", "text"}, exitUsage}, // --type is required
		{[]string{"put", "--text", "x", "--title", "Deploy rule"}, exitOK},
		{[]string{"get", "nothing-here"}, exitData},
		{[]string{"get", "deploy-rule", "--version", "-1"}, exitUsage},
		{[]string{"list", "--tier", "hot"}, exitUsage},
		{[]string{"list", "--limit", "-1"}, exitUsage},
		{[]string{"put", "--text", "x", "--type", "two words"}, exitUsage},
		{[]string{"timeline", "--session", "NOPE"}, exitData},
	} {
		var out, errOut bytes.Buffer
		got := newApp(strings.NewReader(""), &out, &errOut).execute(context.Background(), tc.args)
		if got != tc.code {
			t.Errorf("recall %s: exit %d, want %d (stderr %q)", strings.Join(tc.args, " "), got, tc.code, errOut.String())
		}
	}
}
