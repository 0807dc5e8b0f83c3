package bench

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

// Throughput is what concurrent clients got from one 'recall serve'
// process: requests per second over the run and latency per request.
type Throughput struct {
	Clients  int     `json:"clients"`
	Requests int     `json:"requests"`
	PerS     float64 `json:"requests_per_s"`
	// ServerCPUMS is the server process's CPU time (user + system) over
	// the run divided by the requests: what a request costs, which other
	// work on the machine moves least. 0 where the system does not say.
	ServerCPUMS float64 `json:"server_cpu_ms_per_request,omitempty"`
	// ServerPeakRSSMiB is the server's peak resident set by the end of
	// the run (its modes run one after the other, so a later one includes
	// the earlier), ServerOwnMiB the part of its resident set then that
	// is its own memory, not pages of the database file its readers map.
	// 0 where the system does not say.
	ServerPeakRSSMiB float64 `json:"server_peak_rss_mib,omitempty"`
	ServerOwnMiB     float64 `json:"server_own_rss_mib,omitempty"`
	// ClientCPUMS is the CPU time of the process running the clients over
	// the run divided by the requests: on one machine the load generator
	// shares the server's cores, so what a request costs them all is
	// ServerCPUMS plus this. 0 where the system does not say.
	ClientCPUMS float64 `json:"client_cpu_ms_per_request,omitempty"`
	Latency
}

// serveThroughput starts 'recall serve' on the store in dir and has
// clients goroutines send the queries over HTTP, in each mode, as fast as
// answers come. The server is a separate process, as users run it, so its
// figures do not include the clients' work (they share the cores,
// though).
func serveThroughput(ctx context.Context, exe, dir string, qs []string, clients int, modes ...string) (map[string]Throughput, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "--store", dir, "serve", "--addr", addr)
	cmd.Args[0] = "recall"
	cmd.Env = append(os.Environ(), "RECALL_TOKEN=")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	}()
	base := "http://" + addr
	if err := waitHealthy(ctx, base, exited, &stderr); err != nil {
		return nil, err
	}
	c := newServeClient(base, clients)
	defer c.hc.CloseIdleConnections()
	out := map[string]Throughput{}
	total := max(len(qs), 5*clients)
	for _, mode := range modes {
		// One request first: the server loads the encoder and the
		// vector index on its first search, which is cold start, not
		// throughput.
		if _, err := c.search(ctx, qs[0], mode, 10); err != nil {
			return nil, fmt.Errorf("serve %s: %w", mode, err)
		}
		lat := make([]time.Duration, total)
		var next atomic.Int64
		var firstErr error
		var once sync.Once
		var wg sync.WaitGroup
		cpu0, cpuKnown := processCPU(cmd.Process.Pid)
		own0 := selfCPU()
		start := time.Now()
		for range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := int(next.Add(1)) - 1
					if i >= total {
						return
					}
					t0 := time.Now()
					if _, err := c.search(ctx, qs[i%len(qs)], mode, 10); err != nil {
						once.Do(func() { firstErr = fmt.Errorf("serve %s: %w", mode, err) })
						return
					}
					lat[i] = time.Since(t0)
				}
			}()
		}
		wg.Wait()
		if firstErr != nil {
			return nil, firstErr
		}
		tp := Throughput{Clients: clients, Requests: total, PerS: float64(total) / time.Since(start).Seconds(), Latency: percentiles(lat)}
		if cpu1, ok := processCPU(cmd.Process.Pid); ok && cpuKnown {
			tp.ServerCPUMS = float64((cpu1 - cpu0).Microseconds()) / 1000 / float64(total)
		}
		if own1 := selfCPU(); own1 > 0 {
			tp.ClientCPUMS = float64((own1 - own0).Microseconds()) / 1000 / float64(total)
		}
		if peak, own, ok := processMemory(cmd.Process.Pid); ok {
			tp.ServerPeakRSSMiB, tp.ServerOwnMiB = float64(peak)/(1<<20), float64(own)/(1<<20)
		}
		out[mode] = tp
	}
	return out, nil
}

// freeAddr returns a loopback address with a port nothing listens on.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// waitHealthy polls the server until it answers, it exits, or a minute
// passes.
func waitHealthy(ctx context.Context, base string, exited <-chan error, stderr *lockedBuffer) error {
	deadline := time.Now().Add(time.Minute)
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/healthz", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case err := <-exited:
			return fmt.Errorf("serve exited (%v): %s", err, stderr.String())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("serve did not answer on %s within a minute: %s", base, stderr.String())
		}
	}
}

// lockedBuffer collects a child's stderr while it runs.
type lockedBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
