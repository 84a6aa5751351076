//go:build !unix

package server_test

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
func processSyscalls() (int64, bool)    { return 0, false }
