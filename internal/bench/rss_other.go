//go:build !unix

package bench

import (
	"os"
	"time"
)

// selfCPU is 0 where the system does not report it.
func selfCPU() time.Duration { return 0 }

// maxRSS is 0 where the system does not report a child's peak memory.
func maxRSS(*os.ProcessState) int64 { return 0 }
