//go:build unix

package pgtest

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"syscall"
)

// owner is the unprivileged system user a root process starts the server
// as: initdb and postgres refuse to run as root.
type owner struct{ uid, gid int }

// serverOwner returns nil when this process may run the server itself, or
// the "postgres" system user when it runs as root.
func serverOwner() (*owner, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root and there is no postgres system user to start the cluster as: %v", err)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("postgres user: uid %q gid %q", u.Uid, u.Gid)
	}
	return &owner{uid: uid, gid: gid}, nil
}

// chown hands path to the owner, so the server can write there; the
// directory stays 0700, and root reaches the socket regardless.
func (c *Cluster) chown(path string) error {
	if c.as == nil {
		return nil
	}
	return os.Chown(path, c.as.uid, c.as.gid)
}

func (o *owner) apply(cmd *exec.Cmd) {
	if o == nil {
		return
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(o.uid), Gid: uint32(o.gid)}}
}
