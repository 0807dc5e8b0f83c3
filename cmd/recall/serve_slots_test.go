package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recall serve queues searches --search-slots at a time on a store whose
// searches are local CPU work (the built-in encoder on SQLite), and not
// with a remote embedder, whose searches mostly wait on the network; its
// first line says which.
func TestServe_SearchSlotsOnlyForLocalSearches(t *testing.T) {
	local := filepath.Join(t.TempDir(), "local")
	if _, line, _ := startServeLine(t, local, "--search-slots", "3"); !strings.Contains(line, "3 searches at a time") {
		t.Errorf("a built-in encoder's store: %q, want 3 searches at a time", line)
	}
	if _, line, _ := startServeLine(t, filepath.Join(t.TempDir(), "off"), "--search-slots", "0"); !strings.Contains(line, "searches not queued") {
		t.Errorf("--search-slots 0: %q, want searches not queued", line)
	}
	remote := filepath.Join(t.TempDir(), "remote")
	if err := os.MkdirAll(remote, 0o755); err != nil {
		t.Fatal(err)
	}
	config := "[retrieval]\nembedder = \"openai\"\nendpoint = \"http://127.0.0.1:9/v1\"\nmodel = \"nomic-embed-text\"\n"
	if err := os.WriteFile(filepath.Join(remote, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, line, _ := startServeLine(t, remote, "--search-slots", "3"); !strings.Contains(line, "searches not queued") {
		t.Errorf("an openai embedder's store: %q, want searches not queued", line)
	}
}
