package main

import (
	"math"
	"os"
	"runtime/debug"
)

// The binary's soft memory limit. Go's collector lets the heap grow to
// about twice what is live before it collects; on a large transcript that
// headroom, not the live data, decides the resident size. Unless
// GOMEMLIMIT is set, main sets a soft limit (runtime/debug.SetMemoryLimit)
// from the input's size once it is known, so the heap is collected before
// it outgrows memLimitFactor times the input. GOMEMLIMIT set to a size
// replaces the limit; GOMEMLIMIT=off lifts it. Run, which tests and
// embedders call in-process, sets no limit: the process is theirs.

// memLimitFactor is the soft memory limit as a multiple of the input's
// size: what a compaction keeps live (about 1.5 times the input: the
// transcript read, about the input's size, and the compaction's working
// set) with room to collect in.
const memLimitFactor = 2.5

// memLimitFloor is the least soft memory limit set: below it the limit
// would cost collections and save nothing worth having.
const memLimitFloor = 64 << 20

// memoryLimitFor returns the soft memory limit for an input of size bytes.
func memoryLimitFor(size int64) int64 {
	l := float64(size) * memLimitFactor
	if l >= math.MaxInt64 {
		return math.MaxInt64
	}
	return max(memLimitFloor, int64(l))
}

// setMemoryLimit is the binary's sizeHint (see env): the soft memory limit
// for an input of size bytes, unless GOMEMLIMIT is set (the runtime has
// applied it, or "off" lifted the limit).
func setMemoryLimit(size int64) {
	if os.Getenv("GOMEMLIMIT") != "" || size <= 0 {
		return
	}
	debug.SetMemoryLimit(memoryLimitFor(size))
}
