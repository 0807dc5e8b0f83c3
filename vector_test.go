package recall_test

import (
	"testing"

	"github.com/recall-mem/recall"
)

func TestDot(t *testing.T) {
	a := []float32{1, 2, 3, 4, 5, 6, 7}
	b := []float32{7, 6, 5, 4, 3, 2, 1}
	if got := recall.Dot(a, b); got != 84 {
		t.Errorf("Dot = %g, want 84", got)
	}
	if got := recall.Dot(nil, nil); got != 0 {
		t.Errorf("Dot of empty vectors = %g, want 0", got)
	}
}
