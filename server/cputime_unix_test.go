//go:build unix

package server_test

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) this process has used:
// client and server together, whatever else the machine runs.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// processSyscalls returns the read- and write-like system calls this
// process has made (syscr and syscw of /proc/self/io, Linux only).
func processSyscalls() (int64, bool) {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, false
	}
	var n int64
	found := 0
	for line := range strings.Lines(string(data)) {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if !ok || (k != "syscr" && k != "syscw") {
			continue
		}
		c, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, false
		}
		n += c
		found++
	}
	return n, found == 2
}
