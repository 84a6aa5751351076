package jsonl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"strconv"

	"github.com/condense-dev/condense/store"
)

// Version is the version of the file format, in the header line.
const Version = 1

// The file format. One file per session, <id>.jsonl. The first line is the
// header:
//
//	{"condense":"session","version":1,"id":"s1"}
//
// Every other line is one record, its fields in this order, ending in a
// CRC-32C (Castagnoli) of the line's bytes before `,"crc"`:
//
//	{"k":"m","i":42,"m":{…condense JSON message…},"crc":"1a2b3c4d"}
//	{"k":"c","c":{…store.Checkpoint…},"crc":"…"}
//	{"k":"u","u":{"checkpoints":["c3"],"time":"…"},"crc":"…"}
//
// The last line of each appended batch carries "e":1 right after "k" (and
// "i"): a batch whose end line is missing was never acknowledged and is
// dropped on open, like a torn line.

type header struct {
	Condense string `json:"condense"`
	Version  int    `json:"version"`
	ID       string `json:"id"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

const crcSuffixLen = len(`,"crc":"00000000"}`)

// appendRecord appends one record line: prefix (starting with `{"k":`, the
// fields before the payload), the payload and the CRC suffix. A payload
// holding a line break (raw JSON kept byte for byte may have newlines
// between its tokens: an indented tool input, a provider block) is written
// as a JSON string instead, so one record stays one line; unwrap undoes it.
func appendRecord(buf []byte, prefix string, payload []byte) []byte {
	start := len(buf)
	buf = append(buf, prefix...)
	if bytes.ContainsAny(payload, "\n\r") {
		quoted, _ := json.Marshal(string(payload)) // a string always marshals
		payload = quoted
	}
	buf = append(buf, payload...)
	sum := crc32.Checksum(buf[start:], castagnoli)
	buf = append(buf, `,"crc":"`...)
	buf = fmt.Appendf(buf, "%08x", sum)
	return append(buf, "\"}\n"...)
}

func messagePrefix(i int, end bool) string {
	if end {
		return `{"k":"m","i":` + strconv.Itoa(i) + `,"e":1,"m":`
	}
	return `{"k":"m","i":` + strconv.Itoa(i) + `,"m":`
}

func otherPrefix(kind byte, end bool) string {
	e := ""
	if end {
		e = `,"e":1`
	}
	return `{"k":"` + string(kind) + `"` + e + `,"` + string(kind) + `":`
}

// record is one parsed line.
type record struct {
	kind byte // 'm', 'c', 'u'
	end  bool
	// index and the payload's position in the line, for messages
	index   int
	payload []byte
	cp      *store.Checkpoint
	undo    *store.Undo
}

// unwrap returns a payload as the JSON it holds: a payload written as a JSON
// string (see appendRecord) is unquoted, others are returned as they are.
func unwrap(payload []byte) ([]byte, error) {
	if len(payload) == 0 || payload[0] != '"' {
		return payload, nil
	}
	var s string
	if err := json.Unmarshal(payload, &s); err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// parseRecord checks a line's CRC and splits it. Messages are not decoded.
func parseRecord(line []byte) (record, error) {
	var r record
	if len(line) < len(`{"k":"m","m":`)+crcSuffixLen {
		return r, fmt.Errorf("record too short")
	}
	body, suffix := line[:len(line)-crcSuffixLen], line[len(line)-crcSuffixLen:]
	if !bytes.HasPrefix(suffix, []byte(`,"crc":"`)) || !bytes.HasSuffix(suffix, []byte(`"}`)) {
		return r, fmt.Errorf("no checksum")
	}
	want, err := strconv.ParseUint(string(suffix[8:16]), 16, 32)
	if err != nil {
		return r, fmt.Errorf("bad checksum field")
	}
	if crc32.Checksum(body, castagnoli) != uint32(want) {
		return r, fmt.Errorf("checksum mismatch")
	}
	rest, ok := bytes.CutPrefix(body, []byte(`{"k":"`))
	if !ok || len(rest) < 2 || rest[1] != '"' {
		return r, fmt.Errorf("no kind")
	}
	r.kind = rest[0]
	rest = rest[2:]
	if r.kind == 'm' {
		rest, ok = bytes.CutPrefix(rest, []byte(`,"i":`))
		if !ok {
			return r, fmt.Errorf("message without index")
		}
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 0 || n > 10 {
			return r, fmt.Errorf("bad message index")
		}
		r.index, _ = strconv.Atoi(string(rest[:n]))
		rest = rest[n:]
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"e":1`)); ok {
		r.end = true
	}
	switch r.kind {
	case 'm', 'c', 'u':
	default:
		return r, fmt.Errorf("unknown record kind %q", r.kind)
	}
	rest, ok = bytes.CutPrefix(rest, []byte(`,"`+string(r.kind)+`":`))
	if !ok || len(rest) == 0 {
		return r, fmt.Errorf("no payload")
	}
	r.payload = rest
	switch r.kind {
	case 'c':
		r.cp = new(store.Checkpoint)
		raw, err := unwrap(rest)
		if err != nil {
			return r, fmt.Errorf("checkpoint: %v", err)
		}
		if err := json.Unmarshal(raw, r.cp); err != nil {
			return r, fmt.Errorf("checkpoint: %v", err)
		}
		if err := r.cp.Validate(); err != nil {
			return r, err
		}
	case 'u':
		r.undo = new(store.Undo)
		raw, err := unwrap(rest)
		if err != nil {
			return r, fmt.Errorf("undo: %v", err)
		}
		if err := json.Unmarshal(raw, r.undo); err != nil {
			return r, fmt.Errorf("undo: %v", err)
		}
	}
	return r, nil
}
