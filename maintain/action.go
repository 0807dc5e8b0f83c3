package maintain

import (
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// Actions on an entry (seed 000), plus verify and update for the secondary
// checks and unpin for undoing a pin.
const (
	ActKeep      = "keep"
	ActPin       = "pin"
	ActUnpin     = "unpin"
	ActSnooze    = "snooze"
	ActDemote    = "demote"
	ActArchive   = "archive"
	ActSupersede = "supersede"
	ActVerify    = "verify"
	ActUpdate    = "update"
)

// aliases maps what people type (the report's letters, the seed's names)
// to an action.
var aliases = map[string]string{
	"k": ActKeep, "keep": ActKeep,
	"p": ActPin, "pin": ActPin, "unpin": ActUnpin,
	"s": ActSnooze, "snooze": ActSnooze,
	"d": ActDemote, "demote": ActDemote,
	"a": ActArchive, "archive": ActArchive,
	"m": ActSupersede, "supersede": ActSupersede, "superseded": ActSupersede, "mark_superseded": ActSupersede, "mark-superseded": ActSupersede,
	"v": ActVerify, "verify": ActVerify, "review": ActVerify,
	"u": ActUpdate, "update": ActUpdate,
}

// ParseAction reads an action name or letter. Returns EINVALID for anything
// else.
func ParseAction(s string) (string, error) {
	if a, ok := aliases[strings.ToLower(strings.TrimSpace(s))]; ok {
		return a, nil
	}
	return "", recall.Errorf(recall.EINVALID, "Unknown action %q: use keep, pin, unpin, snooze, demote, archive, supersede or verify.", s)
}

// Choice is one action chosen for one entry.
type Choice struct {
	ID     string
	Action string
}

// ParseApply reads "ID=action,ID=action" (ids with or without the leading
// ^), keeping the order given. Returns EINVALID for a malformed pair, an
// unknown action, update (which needs new text), or an id given twice.
func ParseApply(s string) ([]Choice, error) {
	var out []Choice
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		id, act, ok := strings.Cut(part, "=")
		id = strings.TrimPrefix(strings.TrimSpace(id), "^")
		if !ok || !recall.IsID(id) {
			return nil, recall.Errorf(recall.EINVALID, "Invalid --apply item %q: use ID=action, like tr8f2a1c3d7e=demote.", part)
		}
		a, err := ParseAction(act)
		if err != nil {
			return nil, err
		}
		if a == ActUpdate {
			return nil, recall.Errorf(recall.EINVALID, "update needs new text: edit the line in its file and run `recall sync`, or use `recall update %s --content FILE`.", id)
		}
		if seen[id] {
			return nil, recall.Errorf(recall.EINVALID, "Entry %s is given twice in --apply: choose one action.", id)
		}
		seen[id] = true
		out = append(out, Choice{ID: id, Action: a})
	}
	if len(out) == 0 {
		return nil, recall.Errorf(recall.EINVALID, "--apply needs at least one ID=action.")
	}
	return out, nil
}

// Options parameterise Effect.
type Options struct {
	Now        time.Time
	SnoozeDays int               // 0 means recall.DefaultSnoozeDays
	Hashes     map[string]string // current hashes of anchored files, for verify
	Text       string            // the new text, for update
}

// Effect returns the store change an action makes to m and the tier whose
// file the entry must move to ("" when it stays). Every action but unpin
// counts as a review. Returns EINVALID when the action does not apply: a
// demote of an entry that is not working, an archive of an archived one.
func Effect(action string, m *recall.Memory, o Options) (recall.MemoryUpdate, string, error) {
	now := o.Now.UTC()
	upd := recall.MemoryUpdate{ReviewedAt: &now}
	yes, no := true, false
	switch action {
	case ActKeep:
	case ActVerify:
		if len(m.Anchors) > 0 {
			fresh := make([]recall.Anchor, len(m.Anchors))
			for i, a := range m.Anchors {
				fresh[i] = a
				if h, ok := o.Hashes[a.Path]; ok {
					fresh[i].Hash = h
				}
			}
			upd.Anchors = &fresh
		}
	case ActPin:
		upd.Pinned = &yes
	case ActUnpin:
		upd = recall.MemoryUpdate{Pinned: &no}
	case ActSnooze:
		days := o.SnoozeDays
		if days <= 0 {
			days = recall.DefaultSnoozeDays
		}
		until := now.AddDate(0, 0, days)
		upd.SnoozedUntil = &until
	case ActDemote:
		if m.Tier != recall.TierWorking {
			return upd, "", recall.Errorf(recall.EINVALID, "Memory %s is in the %s tier, not working: only working memory is demoted; use `recall archive %s` to archive it.", m.ID, m.Tier, m.ID)
		}
		tier := recall.TierRegister
		upd.Tier = &tier
		return upd, tier, nil
	case ActArchive:
		if m.Tier == recall.TierArchive && m.Status == recall.StatusArchived {
			return upd, "", recall.Errorf(recall.EINVALID, "Memory %s is already archived.", m.ID)
		}
		tier, status := recall.TierArchive, recall.StatusArchived
		upd.Tier, upd.Status = &tier, &status
		return upd, tier, nil
	case ActSupersede:
		status := recall.StatusSuperseded
		upd.Status = &status
	case ActUpdate:
		text := strings.TrimSpace(o.Text)
		if text == "" || strings.ContainsAny(text, "\r\n") {
			return upd, "", recall.Errorf(recall.EINVALID, "The new text of %s must be one non-empty line.", m.ID)
		}
		upd.Content = &text
		if m.Title == "" || m.Title == m.Content {
			upd.Title = &text
		}
	default:
		return upd, "", recall.Errorf(recall.EINVALID, "Unknown action %q.", action)
	}
	return upd, "", nil
}

// Recommended is what --yes applies: demote for pressure, archive for
// superseded.
func Recommended(p *recall.MaintainPlan) []Choice {
	var out []Choice
	for _, c := range p.PressureCandidates {
		out = append(out, Choice{ID: c.ID, Action: c.Action})
	}
	for _, c := range p.SupersededCandidates {
		out = append(out, Choice{ID: c.ID, Action: c.Action})
	}
	return out
}
