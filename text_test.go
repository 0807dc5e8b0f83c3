package recall

import "testing"

func TestWithoutTitle(t *testing.T) {
	for _, tc := range []struct{ text, title, want string }{
		{"# GPU patterns\n\nBatch small kernels.", "GPU patterns", "Batch small kernels."},
		{"# GPU patterns Batch small kernels.", "GPU patterns", "Batch small kernels."},
		{"# gpu PATTERNS\nBatch.", "GPU patterns", "Batch."},
		{"# Other heading\nBatch.", "GPU patterns", "# Other heading\nBatch."},
		{"# GPU patterns2 x", "GPU patterns", "# GPU patterns2 x"},
		{"Batch small kernels.", "GPU patterns", "Batch small kernels."},
		{"# GPU patterns\nBody", "", "# GPU patterns\nBody"},
	} {
		if got := WithoutTitle(tc.text, tc.title); got != tc.want {
			t.Errorf("WithoutTitle(%q, %q) = %q, want %q", tc.text, tc.title, got, tc.want)
		}
	}
}
