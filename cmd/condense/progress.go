package main

import (
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress shows a progress bar (github.com/schollz/progressbar/v3) on
// stderr for work that takes longer than progressDelay, only when stderr is
// a terminal (isTerminal). Elsewhere it only counts.
type progress struct {
	total int64
	done  atomic.Int64
	stop  chan struct{}
	wg    sync.WaitGroup
}

// progressDelay is how long work runs before its bar appears, so quick
// work shows none. Tests set it to zero to see the bar at once.
var progressDelay = time.Second

// startProgress starts a bar of total units named desc ("eval", "replay")
// counted in unit ("steps").
func startProgress(stderr io.Writer, desc, unit string, total int64) *progress {
	p := &progress{total: total, stop: make(chan struct{})}
	if total <= 0 || !isTerminal(stderr) {
		return p
	}
	delay := progressDelay
	newBar := func() *progressbar.ProgressBar {
		return progressbar.NewOptions64(total, progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription(desc),
			progressbar.OptionShowCount(), progressbar.OptionSetItsString(unit), progressbar.OptionShowIts(),
			progressbar.OptionSetElapsedTime(true), progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish(),
			progressbar.OptionSetRenderBlankState(true))
	}
	var bar *progressbar.ProgressBar
	if delay <= 0 {
		bar = newBar()
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		if bar == nil {
			select {
			case <-p.stop:
				return
			case <-time.After(delay):
			}
			bar = newBar()
		}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-p.stop:
				_ = bar.Set64(p.done.Load())
				_ = bar.Finish()
				return
			case <-tick.C:
				_ = bar.Set64(p.done.Load())
			}
		}
	}()
	return p
}

// add counts n more units done.
func (p *progress) add(n int) { p.done.Add(int64(n)) }

// set says how many units are done, never more than the total.
func (p *progress) set(n int64) { p.done.Store(min(n, p.total)) }

// finish stops the bar (cleared from the terminal) and waits for it.
func (p *progress) finish() {
	close(p.stop)
	p.wg.Wait()
}
