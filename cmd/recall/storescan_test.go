package main

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// storeHolds is the script command "storeholds [-frag N] DIR SECRET...":
// it succeeds when some file under DIR (database, WAL, shared memory,
// vector cache, markdown views) holds a SECRET, as written or in lower case
// as the full-text index keeps tokens; with -frag N, any N bytes in a row
// of it. "! storeholds" is the byte scan that proves a secret is gone.
func storeHolds(ts *testscript.TestScript, neg bool, args []string) {
	fl := flag.NewFlagSet("storeholds", flag.ContinueOnError)
	frag := fl.Int("frag", 0, "")
	if err := fl.Parse(args); err != nil || fl.NArg() < 2 {
		ts.Fatalf("usage: storeholds [-frag N] DIR SECRET...")
	}
	var needles []string
	for _, s := range fl.Args()[1:] {
		n := len(s)
		if *frag > 0 && *frag < n {
			n = *frag
		}
		for i := 0; i+n <= len(s); i++ {
			needles = append(needles, s[i:i+n], strings.ToLower(s[i:i+n]))
		}
	}
	var hits []string
	err := filepath.WalkDir(ts.MkAbs(fl.Arg(0)), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		buf, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, n := range needles {
			if bytes.Contains(buf, []byte(n)) {
				hits = append(hits, filepath.Base(path)+" holds "+n)
				break
			}
		}
		return nil
	})
	ts.Check(err)
	for _, h := range hits {
		ts.Logf("%s", h)
	}
	if neg && len(hits) > 0 {
		ts.Fatalf("the secret is still in the store (%d files)", len(hits))
	}
	if !neg && len(hits) == 0 {
		ts.Fatalf("no file holds the secret")
	}
}
