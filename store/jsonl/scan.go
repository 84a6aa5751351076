package jsonl

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/condense-dev/condense/store"
)

// index is what opening a file learns without decoding messages: where each
// message's JSON lies, the checkpoints and undo markers.
type index struct {
	offs  []int64 // file offset of each message's JSON
	lens  []int32 // and its length
	cps   []store.Checkpoint
	undos []store.Undo
	// size is the end of the last complete batch: everything after it is
	// a torn tail.
	size int64
	// headerless: the file is empty or holds only a torn header line.
	headerless bool
	// tornLines counts the lines of the torn tail (complete or not).
	tornLines int
}

// scan reads a session file. A torn tail — a last line cut short or
// failing its checksum, or complete lines of a batch whose end line is
// missing — is left out of the index (ix.size stops before it). Anything
// bad before the tail is an error naming the line.
// tornHeader reports whether data, a file without a newline, is the start
// of the header a store writes for session id (any session's when id is
// ""): what a crash while creating the file leaves.
func tornHeader(data []byte, id string) bool {
	if id != "" {
		h, _ := json.Marshal(header{Condense: "session", Version: Version, ID: id})
		return bytes.HasPrefix(h, data)
	}
	lead := []byte(`{"condense":"session","version":`)
	return bytes.HasPrefix(lead, data) || bytes.HasPrefix(data, lead)
}

// inLastBatch reports whether rest, the lines after a bad one, hold no
// complete batch followed by more: at most the end of the batch the bad
// line belongs to. Then the bad line is part of the last batch, torn by a
// crash; otherwise it is damage in the middle of acknowledged data.
func inLastBatch(rest []byte) bool {
	for len(rest) > 0 {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return true
		}
		r, err := parseRecord(rest[:nl])
		rest = rest[nl+1:]
		if err == nil && r.end && len(bytes.TrimRight(rest, "\x00")) > 0 {
			return false
		}
	}
	return true
}

func scan(data []byte, id string) (*index, error) {
	ix := &index{}
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		// Empty, or a header torn while the file was created: the start of
		// the header this store writes, nothing else. Any other content is
		// a file that is not ours, which must never be overwritten.
		if !tornHeader(data, id) {
			return nil, fmt.Errorf("%w: line 1: not a condense session file (no header line); refusing to overwrite it", store.ErrCorrupt)
		}
		ix.headerless = true
		return ix, nil
	}
	var h header
	if err := json.Unmarshal(data[:nl], &h); err != nil || h.Condense != "session" {
		return nil, fmt.Errorf("%w: line 1: not a condense session header", store.ErrCorrupt)
	}
	if h.Version != Version {
		return nil, fmt.Errorf("%w: line 1: unsupported format version %d (want %d)", store.ErrCorrupt, h.Version, Version)
	}
	if id != "" && h.ID != id {
		return nil, fmt.Errorf("%w: line 1: header names session %q, file is for %q", store.ErrCorrupt, h.ID, id)
	}
	pos := int64(nl + 1)
	ix.size = pos
	var (
		pOffs  []int64
		pLens  []int32
		pCps   []store.Checkpoint
		pUndos []store.Undo
		pLines int
	)
	line := 1
	for pos < int64(len(data)) {
		line++
		rest := data[pos:]
		end := bytes.IndexByte(rest, '\n')
		last := end < 0 || pos+int64(end)+1 >= int64(len(data))
		if end < 0 {
			// A line cut short: only possible at the end.
			ix.tornLines = pLines + 1
			return ix, nil
		}
		r, err := parseRecord(rest[:end])
		if err == nil && r.kind == 'm' && r.index != len(ix.offs)+len(pOffs) {
			err = fmt.Errorf("message index %d, expected %d", r.index, len(ix.offs)+len(pOffs))
		}
		if err == nil && r.cp != nil && r.cp.HistoryCount > len(ix.offs)+len(pOffs) {
			err = fmt.Errorf("checkpoint %s counts %d messages, %d precede it", r.cp.ID, r.cp.HistoryCount, len(ix.offs)+len(pOffs))
		}
		if err != nil {
			if last || inLastBatch(data[pos+int64(end)+1:]) {
				// A torn write of the last batch: a power cut can leave
				// any subset of its sectors on disk, so a bad line may
				// be followed by good ones of the same batch. That batch
				// was never acknowledged (it was not synced); drop it.
				ix.tornLines = pLines + 1 + bytes.Count(data[pos+int64(end)+1:], []byte{'\n'})
				return ix, nil
			}
			return nil, fmt.Errorf("%w: line %d: %v", store.ErrCorrupt, line, err)
		}
		pLines++
		switch r.kind {
		case 'm':
			// payload is a subslice of data: its start is where its
			// capacity says.
			off := int64(cap(data) - cap(r.payload))
			pOffs = append(pOffs, off)
			pLens = append(pLens, int32(len(r.payload)))
		case 'c':
			pCps = append(pCps, *r.cp)
		case 'u':
			pUndos = append(pUndos, *r.undo)
		}
		pos += int64(end) + 1
		if r.end {
			ix.offs = append(ix.offs, pOffs...)
			ix.lens = append(ix.lens, pLens...)
			ix.cps = append(ix.cps, pCps...)
			ix.undos = append(ix.undos, pUndos...)
			pOffs, pLens, pCps, pUndos, pLines = pOffs[:0], pLens[:0], nil, nil, 0
			ix.size = pos
		}
	}
	ix.tornLines = pLines
	return ix, nil
}
