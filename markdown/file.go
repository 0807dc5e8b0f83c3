package markdown

import (
	"fmt"
	"strings"
)

// File is a managed markdown file held as lines that keep their
// terminators, so that edits touch whole lines and everything else stays
// byte for byte as it was.
type File struct {
	Path  string // slash-separated, relative to the project root
	Tier  string
	Lines []string
	Dirty bool // changed since it was read
	IsNew bool // does not exist on disk yet
	grew  bool // gained a line: written before files that lost one
	orig  []byte
}

// NewFile returns a file holding src.
func NewFile(path, tier string, src []byte) *File {
	return &File{Path: path, Tier: tier, Lines: SplitLines(src), orig: src}
}

// Bytes returns the file's content.
func (f *File) Bytes() []byte { return []byte(strings.Join(f.Lines, "")) }

// Items returns the file's single-line list items.
func (f *File) Items() []Item { return ParseItems(f.Bytes()) }

// lineEnding is the terminator new lines get: CRLF when the file already
// uses it, else LF.
func (f *File) lineEnding() string {
	for _, l := range f.Lines {
		if e := eol(l); e != "" {
			return e
		}
	}
	return "\n"
}

// findID returns the 0-based index of the entry line carrying id, or -1.
func (f *File) findID(id string) int {
	for _, it := range f.Items() {
		if it.ID == id {
			return it.Line - 1
		}
	}
	return -1
}

// Remove cuts the entry line carrying id and returns it whole, terminator
// included. No other line changes.
func (f *File) Remove(id string) (string, error) {
	i := f.findID(id)
	if i < 0 {
		return "", fmt.Errorf("%s: no entry ^%s", f.Path, id)
	}
	line := f.Lines[i]
	f.Lines = append(f.Lines[:i:i], f.Lines[i+1:]...)
	f.Dirty = true
	return line, nil
}

// Append adds a whole line at the end of the file, or at the end of its
// last managed section (before "<!-- recall:end -->") when it has one. A
// last line without a terminator first gets the file's own; a line without
// one gets it too.
func (f *File) Append(line string) {
	end := f.lineEnding()
	if i := sectionEnd(f.Lines); i >= 0 {
		if eol(line) == "" {
			line += end
		}
		f.Lines = append(f.Lines[:i:i], append([]string{line}, f.Lines[i:]...)...)
		f.Dirty, f.grew = true, true
		return
	}
	if n := len(f.Lines); n > 0 && eol(f.Lines[n-1]) == "" {
		f.Lines[n-1] += end
	}
	if eol(line) == "" {
		line += end
	}
	f.Lines = append(f.Lines, line)
	f.Dirty, f.grew = true, true
}

// SetText rewrites the text of the entry carrying id, keeping its id, its
// trailing spaces and its terminator.
func (f *File) SetText(id, text string) error {
	i := f.findID(id)
	if i < 0 {
		return fmt.Errorf("%s: no entry ^%s", f.Path, id)
	}
	line := f.Lines[i]
	end := eol(line)
	body := trimEOL(line)
	loc := idTokenRE().FindStringIndex(body)
	tail := body[loc[0]:]
	if !strings.HasPrefix(tail, " ") && !strings.HasPrefix(tail, "\t") {
		tail = " " + tail
	}
	f.Lines[i] = "- " + text + tail + end
	f.Dirty = true
	return nil
}

// Tag appends " ^id" to the item on line n (1-based), before any trailing
// spaces, leaving the rest of the line as it was.
func (f *File) Tag(n int, id string) {
	line := f.Lines[n-1]
	end := eol(line)
	body := trimEOL(line)
	content := strings.TrimRight(body, " \t")
	f.Lines[n-1] = content + " ^" + id + body[len(content):] + end
	f.Dirty = true
}

// EntryLine formats a new entry line without a terminator.
func EntryLine(text, id string) string {
	return "- " + text + " ^" + id
}
