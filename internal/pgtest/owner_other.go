//go:build !unix

package pgtest

import "os/exec"

// owner is unused where processes cannot change user: the server runs as
// this process's user.
type owner struct{}

func serverOwner() (*owner, error) { return nil, nil }

func (c *Cluster) chown(string) error { return nil }

func (o *owner) apply(*exec.Cmd) {}
