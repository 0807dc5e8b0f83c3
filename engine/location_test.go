package engine_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-mem/recall/engine"
)

func TestIsStoreURL(t *testing.T) {
	for s, want := range map[string]bool{
		"postgres://db/recall": true, "postgresql://u:p@h/db": true, "mysql://x": true,
		"/home/me/.recall": false, "./store": false, "C:\\store": false, "": false, "a.b://x": false,
	} {
		if got := engine.IsStoreURL(s); got != want {
			t.Errorf("IsStoreURL(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestResolveStore_URL checks the three ways to name a server's store and
// that the directory for config.toml and the managed files is still
// found, and that a password never shows.
func TestResolveStore_URL(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("RECALL_STORE", "")
	wd := t.TempDir()
	t.Chdir(wd)
	proj := filepath.Join(wd, engine.ProjectDir)
	if err := os.Mkdir(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	const url = "postgres://alice:s3cret@db.example/recall?namespace=web"

	loc, err := engine.ResolveStore(url, false)
	if err != nil || loc.URL != url || loc.Dir != proj || !strings.Contains(loc.Reason, "--store flag") {
		t.Fatalf("ResolveStore(--store URL) = %+v, %v", loc, err)
	}
	if loc.Store() != "postgres://alice:xxxxx@db.example/recall?namespace=web" || loc.DBPath() != url {
		t.Errorf("Store() = %q, DBPath() = %q", loc.Store(), loc.DBPath())
	}
	if err := engine.StoreExists(loc); err != nil {
		t.Errorf("StoreExists of a server's store: %v", err)
	}

	t.Setenv("RECALL_STORE", url)
	if loc, err = engine.ResolveStore("", false); err != nil || loc.URL != url || !strings.Contains(loc.Reason, "RECALL_STORE") {
		t.Fatalf("ResolveStore(RECALL_STORE=URL) = %+v, %v", loc, err)
	}
	t.Setenv("RECALL_STORE", "")

	if loc, err = engine.ResolveStore("", false); err != nil || loc.URL != "" || loc.DBPath() != filepath.Join(proj, engine.DBFile) {
		t.Fatalf("ResolveStore without a URL = %+v, %v: want the SQLite file", loc, err)
	}
	if err := os.WriteFile(filepath.Join(proj, engine.ConfigFile), []byte("[store]\nurl = \""+url+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if loc, err = engine.ResolveStore("", false); err != nil || loc.URL != url || !strings.Contains(loc.Reason, "[store] url") {
		t.Fatalf("ResolveStore with [store] url = %+v, %v", loc, err)
	}
	if strings.Contains(loc.Reason+loc.Store(), "s3cret") {
		t.Errorf("the password shows: %q, %q", loc.Reason, loc.Store())
	}
	if err := os.WriteFile(filepath.Join(proj, engine.ConfigFile), []byte("[store]\nurl = \"db.example\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.ResolveStore("", false); err == nil {
		t.Error("[store] url that is not a URL was accepted")
	}
}
