package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recall-mem/recall/internal/pgtest"
	"github.com/recall-mem/recall/postgres"
	"github.com/recall-mem/recall/rollup"
)

// BenchmarkStats reads the store statistics (the web UI's overview) and
// the tier statistics (its rollups page) over RECALL_PG_BENCH_MEMORIES
// synthetic memories (default 10,000), reporting the server's CPU per
// read: the work is the server's, and wall time on a shared machine is
// mostly waiting.
//
//	RECALL_PG_BENCH_MEMORIES=100000 go test ./postgres -run '^$' -bench Stats -benchtime 10x
func BenchmarkStats(b *testing.B) {
	n := 10000
	if s := os.Getenv("RECALL_PG_BENCH_MEMORIES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			b.Fatalf("RECALL_PG_BENCH_MEMORIES=%q: want a positive count", s)
		}
	}
	ctx := context.Background()
	dbURL := pgtest.NewDatabase(b)
	db, err := postgres.Open(ctx, dbURL)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ms := postgres.NewMemoryService(db)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < n; i += 1000 {
		if _, err := ms.ImportMemories(ctx, synthetic(rng, i, min(1000, n-i))); err != nil {
			b.Fatal(err)
		}
	}
	// A store in use has been vacuumed and analyzed by autovacuum: its
	// index-only scans need not visit the rows.
	execSQL(b, dbURL, "VACUUM ANALYZE")
	policy, err := rollup.NewPolicy("UTC")
	if err != nil {
		b.Fatal(err)
	}
	rs, fs := postgres.NewRollupService(db, policy), postgres.NewForgetService(db)
	server := serverPID(b, dbURL)
	for _, c := range []struct {
		name string
		read func() error
	}{
		{"StoreStats", func() error { _, err := fs.StoreStats(ctx, time.Now()); return err }},
		{"TierStats", func() error { _, err := rs.TierStats(ctx); return err }},
	} {
		b.Run(c.name, func(b *testing.B) {
			cpu, reads := clusterCPU(b, server), 0
			for b.Loop() {
				reads++
				if err := c.read(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(clusterCPU(b, server)-cpu)/float64(reads), "server-cpu-ms/op")
		})
	}
}

// serverPID is the process id of the cluster's postmaster: the parent of
// a backend.
func serverPID(tb testing.TB, dbURL string) int {
	var backend int
	if err := connect(tb, dbURL).QueryRow(context.Background(), "SELECT pg_backend_pid()").Scan(&backend); err != nil {
		tb.Fatal(err)
	}
	f := procStat(tb, backend)
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		tb.Fatal(err)
	}
	return ppid
}

// clusterCPU is the CPU time, in milliseconds, of the postmaster and every
// process it started that is still running: the backends among them.
func clusterCPU(tb testing.TB, server int) float64 {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		tb.Skip("no /proc:", err)
	}
	ticks := 0
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		f := procStat(tb, pid)
		if f == nil || (pid != server && f[1] != strconv.Itoa(server)) {
			continue
		}
		utime, _ := strconv.Atoi(f[11])
		stime, _ := strconv.Atoi(f[12])
		ticks += utime + stime
	}
	return float64(ticks) * 10 // USER_HZ is 100 on Linux
}

// procStat is the fields of /proc/pid/stat after the command's name, from
// the state on (field 3 of proc(5) is index 0), or nil if the process is
// gone.
func procStat(tb testing.TB, pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	s := string(b)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
}
