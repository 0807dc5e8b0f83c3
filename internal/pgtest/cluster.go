package pgtest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cluster is a running throw-away PostgreSQL cluster.
type Cluster struct {
	dir    string      // the temporary directory: data/, the log and the socket
	as     *owner      // the system user the server runs as; nil for this process's
	server *os.Process // the postmaster
	exited chan error  // receives the server's exit
}

// Start initialises a cluster in a new temporary directory and starts it,
// listening only on a unix socket in that directory. Durability is off
// (fsync, full-page writes): the cluster is thrown away after the tests.
func Start() (*Cluster, error) {
	if _, err := os.Stat(filepath.Join(BinDir, "initdb")); err != nil {
		return nil, fmt.Errorf("PostgreSQL 15 not found in %s (install postgresql-15)", BinDir)
	}
	share, err := exec.Command(filepath.Join(BinDir, "pg_config"), "--sharedir").Output()
	if err != nil {
		return nil, fmt.Errorf("pg_config --sharedir: %v", err)
	}
	if _, err := os.Stat(filepath.Join(strings.TrimSpace(string(share)), "extension", "vector.control")); err != nil {
		return nil, fmt.Errorf("pgvector is not installed for PostgreSQL 15 (.ci/run builds it from source)")
	}
	as, err := serverOwner()
	if err != nil {
		return nil, err
	}
	// The socket path must stay under the 107 bytes a unix socket allows,
	// so the directory is short and directly in the system temp dir.
	dir, err := os.MkdirTemp("", "pgtest")
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, as: as}
	if err := c.chown(dir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	data := filepath.Join(dir, "data")
	if err := c.run("initdb", "-D", data, "-U", superuser, "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := c.serve(data); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%v\n%s", err, log)
	}
	return c, nil
}

// serve runs the server as a child of this process rather than through
// pg_ctl's daemon, so that it cannot outlive a test binary that dies
// without cleaning up (a timeout, a kill): on Linux it is told to quit
// when its parent goes. The child is started, and waited for, on a thread
// of its own that stays alive, since the signal follows the parent thread.
func (c *Cluster) serve(data string) error {
	log, err := os.Create(filepath.Join(c.dir, "log"))
	if err != nil {
		return err
	}
	cmd := exec.Command(filepath.Join(BinDir, "postgres"), "-D", data, "-k", c.dir, "-c", "listen_addresses=",
		"-c", "fsync=off", "-c", "full_page_writes=off", "-c", "synchronous_commit=off")
	cmd.Dir, cmd.Stdout, cmd.Stderr = c.dir, log, log
	c.as.apply(cmd)
	dieWithParent(cmd)
	started := make(chan error, 1)
	c.exited = make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the server
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		c.exited <- cmd.Wait()
		log.Close()
	}()
	if err := <-started; err != nil {
		log.Close()
		return err
	}
	c.server = cmd.Process
	return c.waitReady()
}

// waitReady waits until the server accepts connections, or fails if it
// exits or takes more than a minute.
func (c *Cluster) waitReady() error {
	deadline := time.Now().Add(time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		conn, err := pgx.Connect(ctx, c.URL("postgres"))
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		select {
		case werr := <-c.exited:
			return fmt.Errorf("postgres exited: %v", werr)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.server.Kill()
			return fmt.Errorf("postgres did not accept connections within a minute: %v", err)
		}
	}
}

// Dir is the cluster's temporary directory.
func (c *Cluster) Dir() string { return c.dir }

// PID is the server's process id.
func (c *Cluster) PID() int { return c.server.Pid }

// Stop shuts the server down at once (SIGQUIT: immediate shutdown; the
// data is thrown away anyway) and removes its directory.
func (c *Cluster) Stop() error {
	err := c.server.Signal(syscall.SIGQUIT)
	if err == nil {
		<-c.exited
	}
	if rmErr := os.RemoveAll(c.dir); err == nil {
		err = rmErr
	}
	return err
}

// run runs a PostgreSQL binary as the cluster's owner and returns its
// output in the error when it fails.
func (c *Cluster) run(name string, args ...string) error {
	cmd := exec.Command(filepath.Join(BinDir, name), args...)
	cmd.Dir = c.dir // a working directory the server's user can enter
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	c.as.apply(cmd)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %v\n%s", name, err, bytes.TrimSpace(out.Bytes()))
	}
	return nil
}
