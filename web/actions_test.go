package web

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/markdown"
	"github.com/recall-mem/recall/sqlite/sqlitetest"
)

// withProject gives the fixture's project a working file of entries,
// synced into the store, and returns the project root and the entries'
// ids in file order.
func (f *fixture) withProject(lines ...string) (string, []string) {
	f.t.Helper()
	root := filepath.Dir(f.eng.Location.Dir)
	body := "# Working memory\n\n"
	for _, l := range lines {
		body += "- " + l + "\n"
	}
	if err := os.WriteFile(filepath.Join(root, f.eng.Config.Working.File), []byte(body), 0o600); err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.eng.SyncProject(f.t.Context(), "", sqlitetest.Clock); err != nil {
		f.t.Fatal(err)
	}
	// The sync also writes the store's working memories into the file.
	file := f.read(root, f.eng.Config.Working.File)
	var ids []string
	for _, l := range lines {
		m := regexp.MustCompile(regexp.QuoteMeta(l) + ` \^(tr[0-9a-f]{10})`).FindStringSubmatch(file)
		if m == nil {
			f.t.Fatalf("no id for %q in %q", l, file)
		}
		ids = append(ids, m[1])
	}
	return root, ids
}

func (f *fixture) read(root, name string) string {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil && !os.IsNotExist(err) {
		f.t.Fatal(err)
	}
	return string(b)
}

// TestActions_Entry: each action of a memory's page goes through the
// engine as `recall demote` and the others do: the line moves between the
// managed files and the store's fields change with it.
func TestActions_Entry(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	root, ids := f.withProject("Deploys go through staging.", "Builds run on CI.")
	working := f.eng.Config.Working.File
	c := f.csrf()
	act := func(id, action string, extra ...string) *recall.Memory {
		t.Helper()
		form := url.Values{csrfField: {c.Value}, "action": {action}}
		for i := 0; i+1 < len(extra); i += 2 {
			form.Set(extra[i], extra[i+1])
		}
		w := f.post("/memories/"+id+"/act", form, c)
		if w.Code != http.StatusSeeOther {
			t.Fatalf("%s: got %d: %s", action, w.Code, w.Body)
		}
		contains(t, action+" page", f.get(w.Header().Get("Location")).Body.String(), `<p class="done" role="status" id="done">Done: `+action)
		m, err := f.eng.Get(t.Context(), id, "")
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if m := act(ids[0], "demote"); m.Tier != recall.TierRegister || !strings.Contains(f.read(root, markdown.InboxFile), ids[0]) || strings.Contains(f.read(root, working), ids[0]) {
		t.Fatalf("demote: tier %s, inbox %q", m.Tier, f.read(root, markdown.InboxFile))
	}
	if m := act(ids[0], "pin"); !m.Pinned {
		t.Fatal("pin did not pin")
	}
	if m := act(ids[0], "unpin"); m.Pinned {
		t.Fatal("unpin did not unpin")
	}
	if m := act(ids[0], "snooze", "days", "3"); m.SnoozedUntil == nil || !m.SnoozedUntil.Equal(sqlitetest.Clock.AddDate(0, 0, 3)) {
		t.Fatalf("snooze until %v", m.SnoozedUntil)
	}
	if m := act(ids[0], "review"); m.ReviewedAt == nil || !m.ReviewedAt.Equal(sqlitetest.Clock) {
		t.Fatalf("reviewed at %v", m.ReviewedAt)
	}
	if m := act(ids[1], "supersede"); m.Status != recall.StatusSuperseded {
		t.Fatalf("supersede: status %s", m.Status)
	}
	if m := act(ids[0], "archive"); m.Tier != recall.TierArchive || !strings.Contains(f.read(root, markdown.ArchiveFile), ids[0]) {
		t.Fatalf("archive: tier %s, archive file %q", m.Tier, f.read(root, markdown.ArchiveFile))
	}
	t.Run("Refused", func(t *testing.T) {
		if w := f.post("/memories/"+ids[1]+"/act", url.Values{csrfField: {c.Value}, "action": {"explode"}}, c); w.Code != http.StatusBadRequest {
			t.Errorf("unknown action: got %d", w.Code)
		}
		if w := f.post("/memories/"+ids[1]+"/act", url.Values{csrfField: {c.Value}, "action": {"snooze"}, "days": {"-1"}}, c); w.Code != http.StatusBadRequest {
			t.Errorf("negative snooze: got %d", w.Code)
		}
		if w := f.post("/memories/"+ids[1]+"/act", url.Values{"action": {"archive"}}, c); w.Code != http.StatusForbidden {
			t.Errorf("without CSRF: got %d", w.Code)
		}
	})
}

// TestActions_Maintain: the maintenance page shows the real plan of the
// project with one button per action, and a button applies it as
// `recall maintain --apply ID=ACTION` does.
func TestActions_Maintain(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	root, ids := f.withProject("Deploys go through staging.", "Builds run on CI.")
	c := f.csrf()
	// Superseded entries are proposed for the archive.
	if _, err := f.eng.Supersede(t.Context(), "", ids[1], sqlitetest.Clock); err != nil {
		t.Fatal(err)
	}
	body := f.get("/maintain", c).Body.String()
	contains(t, "maintain page", body, `<h2 id="superseded">Superseded</h2>`, `id="archive-`+ids[1]+`"`, `id="keep-`+ids[1]+`"`,
		`name="csrf" value="`+c.Value+`"`)
	w := f.post("/maintain/apply", url.Values{csrfField: {c.Value}, "id": {ids[1]}, "action": {"archive"}}, c)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("apply: got %d: %s", w.Code, w.Body)
	}
	m, err := f.eng.Get(t.Context(), ids[1], "")
	if err != nil {
		t.Fatal(err)
	}
	if m.Tier != recall.TierArchive || !strings.Contains(f.read(root, markdown.ArchiveFile), ids[1]) || strings.Contains(f.read(root, f.eng.Config.Working.File), ids[1]) {
		t.Fatalf("after apply: tier %s, archive %q", m.Tier, f.read(root, markdown.ArchiveFile))
	}
	contains(t, "after apply", f.get(w.Header().Get("Location")).Body.String(), "Applied archive to", `href="/memories/`+ids[1]+`"`)
	if w := f.post("/maintain/apply", url.Values{csrfField: {c.Value}, "id": {"../etc"}, "action": {"archive"}}, c); w.Code != http.StatusBadRequest {
		t.Errorf("a bad id: got %d", w.Code)
	}
}

// TestActions_Purge: the dry run lists what would go and changes nothing;
// the confirm button purges exactly that.
func TestActions_Purge(t *testing.T) {
	f := newFixture(t, Options{Loopback: true})
	c := f.csrf()
	body := f.get("/forget?search=site").Body.String()
	contains(t, "dry run", body, "Dry run: 1 observations would go", "please deploy the site", `id="purge-confirm"`,
		`<input type="hidden" name="search" value="site">`, "Retention policy", `id="sweep-preview"`)
	if _, n, _ := f.eng.Timeline(t.Context(), recall.ObservationFilter{Search: "site"}); n != 1 {
		t.Fatalf("the dry run deleted: %d left", n)
	}
	contains(t, "no filter", f.get("/forget?match=prefix").Body.String(), "Retention policy")
	contains(t, "bad filter", f.get("/forget?search=x&before=soon").Body.String(), "Before is a date")
	w := f.post("/forget/purge", url.Values{csrfField: {c.Value}, "search": {"site"}}, c)
	if w.Code != http.StatusOK {
		t.Fatalf("purge: got %d: %s", w.Code, w.Body)
	}
	contains(t, "purged", w.Body.String(), "Purged 1 observations")
	if _, n, _ := f.eng.Timeline(t.Context(), recall.ObservationFilter{Search: "site"}); n != 0 {
		t.Fatalf("purge left %d", n)
	}
	if w := f.post("/forget/purge", url.Values{csrfField: {c.Value}}, c); w.Code != http.StatusBadRequest {
		t.Errorf("purge without criteria: got %d", w.Code)
	}
}
