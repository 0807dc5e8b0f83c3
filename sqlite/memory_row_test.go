package sqlite

import "testing"

// fillScanner fills a memory row's destinations with the values of an
// empty memory ("[]" lists, "{}" metadata at column 18, zero times) and,
// past the row, extra int64 columns with 7: without allocating, so that
// testing.AllocsPerRun counts scanMemory's own allocations.
type fillScanner struct{ columns int }

func (f fillScanner) Scan(dest ...any) error {
	for i, d := range dest {
		switch p := d.(type) {
		case *string:
			*p = "[]"
			if i == 18 {
				*p = "{}"
			}
		case *int64:
			*p = 0
			if i >= f.columns {
				*p = 7
			}
		}
	}
	return nil
}

// TestScanMemory_KeepsNoDestinationList: scanning a memory row allocates
// the memory and its side columns (two values), not also the list of 25
// destinations (and, with a column after the row, a second list): a
// search scans 133 full-text rows and about 100 vector candidates, and
// the lists were a fifth of what a hybrid search allocated.
func TestScanMemory_KeepsNoDestinationList(t *testing.T) {
	var row scanner = fillScanner{columns: 25}
	if n := testing.AllocsPerRun(200, func() {
		if _, err := scanMemory(row); err != nil {
			t.Fatal(err)
		}
	}); n > 2 {
		t.Errorf("scanMemory: %.1f allocations a row, want 2 (the memory and its side columns)", n)
	}
	var seq int64
	if n := testing.AllocsPerRun(200, func() {
		if _, err := scanMemoryWith(row, &seq); err != nil {
			t.Fatal(err)
		}
	}); n > 2 {
		t.Errorf("scanMemoryWith: %.1f allocations a row, want 2", n)
	}
	if seq != 7 {
		t.Errorf("the column after the row: %d, want 7", seq)
	}
}
