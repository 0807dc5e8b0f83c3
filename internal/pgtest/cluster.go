package pgtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Cluster is a running throw-away PostgreSQL cluster.
type Cluster struct {
	dir string // the temporary directory: data/, the log and the socket
	as  *owner // the system user the server runs as; nil for this process's
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
	opts := fmt.Sprintf("-k %s -c listen_addresses='' -c fsync=off -c full_page_writes=off -c synchronous_commit=off", dir)
	if err := c.run("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-o", opts, "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%v\n%s", err, log)
	}
	return c, nil
}

// Stop shuts the server down at once and removes its directory.
func (c *Cluster) Stop() error {
	err := c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w", "stop")
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
