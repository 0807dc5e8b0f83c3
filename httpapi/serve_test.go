package httpapi_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/recall-mem/recall"
	"github.com/recall-mem/recall/httpapi"
)

// slowPuts holds every put until release is closed, so a test can stop
// the server while a write is in flight.
type slowPuts struct {
	httpapi.Engine
	started chan struct{}
	release chan struct{}
}

func (s *slowPuts) Put(ctx context.Context, m *recall.Memory) (*recall.PutResult, error) {
	close(s.started)
	<-s.release
	return s.Engine.Put(ctx, m)
}

func TestServer_Serve(t *testing.T) {
	t.Run("ShutdownFinishesInFlightWrites", func(t *testing.T) {
		slow := &slowPuts{Engine: openEngine(t), started: make(chan struct{}), release: make(chan struct{})}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		served := make(chan error, 1)
		go func() { served <- (&httpapi.Server{Engine: slow, Loopback: true}).Serve(ctx, ln) }()

		c := httpapi.NewClient("http://"+ln.Addr().String(), "")
		put := make(chan error, 1)
		go func() {
			_, err := c.PutMemory(context.Background(), &recall.Memory{Key: "k", Content: "in flight"})
			put <- err
		}()
		<-slow.started
		stop() // as SIGTERM would
		select {
		case err := <-served:
			t.Fatalf("Serve returned %v before the in-flight write finished", err)
		case <-time.After(50 * time.Millisecond):
		}
		close(slow.release)
		if err := <-put; err != nil {
			t.Fatalf("in-flight put failed: %v", err)
		}
		if err := <-served; err != nil {
			t.Fatalf("Serve: %v", err)
		}
		if _, err := slow.Engine.Get(context.Background(), "k", ""); err != nil {
			t.Fatalf("the write was lost: %v", err)
		}
		if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
			t.Fatal("still accepting after shutdown")
		}
	})
}

func TestCheckBind(t *testing.T) {
	for _, c := range []struct {
		addr, token string
		loopback    bool
		code        string
	}{
		{"127.0.0.1:7077", "", true, ""},
		{"localhost:7077", "", true, ""},
		{"[::1]:7077", "", true, ""},
		{"127.0.0.1:0", "", true, ""},
		{"0.0.0.0:7077", "", false, recall.EINVALID},
		{":7077", "", false, recall.EINVALID},
		{"192.168.1.5:7077", "", false, recall.EINVALID},
		{"0.0.0.0:7077", "tok", false, ""},
		{"nonsense", "tok", false, recall.EINVALID},
	} {
		loopback, err := httpapi.CheckBind(c.addr, c.token)
		if loopback != c.loopback || recall.ErrorCode(err) != c.code {
			t.Errorf("CheckBind(%q, %q) = %v, %v; want %v, %q", c.addr, c.token, loopback, err, c.loopback, c.code)
		}
	}
}

func TestIsLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST:80": true, "app.localhost": true, "127.0.0.1:7077": true, "127.5.5.5": true,
		"[::1]:7077": true, "::1": true, "localhost.": true,
		"evil.example": false, "127.0.0.1.evil.example": false, "localhost.evil.example": false, "10.0.0.1": false, "": false,
	} {
		if got := httpapi.IsLoopbackHost(host); got != want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}
