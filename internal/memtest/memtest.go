// Package memtest measures the peak heap of a piece of work, for
// benchmarks that report memory as a multiple of their input's size.
package memtest

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// heapInUse is the runtime metric sampled: bytes of heap objects, live or
// not yet swept. Its peak is the heap the work needed at its worst, which
// with the default GOGC is what the process's resident size follows.
const heapInUse = "/memory/classes/heap/objects:bytes"

// Peak runs fn and returns the largest heap in use seen while it ran, in
// bytes, sampled about every 200 µs and once more at the end. The garbage
// of earlier work is collected first, so the figure is fn's own. A sample
// can miss a short spike between two reads, so the figure is a lower bound
// close to the true peak; it is a measurement for benchmarks to report,
// not a number to assert on.
func Peak(fn func()) uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: heapInUse}}
	read := func() uint64 {
		metrics.Read(s)
		if s[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return s[0].Value.Uint64()
	}
	var (
		mu   sync.Mutex
		peak = read()
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	sample := func() {
		v := read()
		mu.Lock()
		peak = max(peak, v)
		mu.Unlock()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sample()
			}
		}
	}()
	fn()
	close(done)
	wg.Wait()
	sample()
	return peak
}
