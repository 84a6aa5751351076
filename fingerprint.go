package condense

import (
	"encoding/binary"
	"hash"
	"hash/fnv"
)

// Fingerprint returns a deterministic 64-bit hash of everything in m: id,
// role, status, pinned flag and every part. Equal messages have equal
// fingerprints in every process, so fingerprints may be stored.
func Fingerprint(m *Message) uint64 {
	h := fnv.New64a()
	writeMessage(h, m)
	return h.Sum64()
}

// Fingerprint returns a deterministic 64-bit hash of the request's system
// text, tool definitions and messages, in order; the model name and the
// budget (output cap, thinking budget) are left out, so a request re-sent
// to another model or with other settings keeps its fingerprint. Journals
// store it to recognise the request a recorded call answered.
func (r *Request) Fingerprint() uint64 {
	h := fnv.New64a()
	str := func(s string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	str(r.System)
	for _, t := range r.Tools {
		str(t.Name)
		str(t.Description)
		str(string(t.InputSchema))
	}
	acc := h.Sum64()
	for i := range r.Messages {
		acc = chain(acc, Fingerprint(&r.Messages[i]))
	}
	return acc
}

// chain folds a message fingerprint into a rolling hash of a history:
// chain(chain(0, a), b) identifies the history [a, b].
func chain(prev, fingerprint uint64) uint64 {
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], prev)
	binary.LittleEndian.PutUint64(buf[8:], fingerprint)
	h := fnv.New64a()
	h.Write(buf[:])
	return h.Sum64()
}

func writeMessage(h hash.Hash64, m *Message) {
	writeField(h, m.ID)
	writeField(h, string(m.Role))
	writeField(h, string(m.Status))
	if m.Pinned {
		h.Write([]byte{1})
	} else {
		h.Write([]byte{0})
	}
	writeParts(h, m.Parts)
}

func writeParts(h hash.Hash64, parts []Part) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(parts)))
	h.Write(n[:])
	for i := range parts {
		p := &parts[i]
		writeField(h, string(p.Type))
		writeField(h, p.Text)
		writeField(h, p.ID)
		writeField(h, p.CallID)
		writeField(h, p.Name)
		writeBytes(h, p.Input)
		if p.IsError {
			h.Write([]byte{1})
		} else {
			h.Write([]byte{0})
		}
		writeField(h, p.Signature)
		writeField(h, p.Redacted)
		writeField(h, p.MediaType)
		writeBytes(h, p.Data)
		writeField(h, p.URL)
		binary.LittleEndian.PutUint64(n[:], uint64(p.Width)<<32|uint64(uint32(p.Height)))
		h.Write(n[:])
		writeField(h, p.Provider)
		writeBytes(h, p.Raw)
		writeParts(h, p.Content)
	}
}

func writeField(h hash.Hash64, s string) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	h.Write([]byte(s))
}

func writeBytes(h hash.Hash64, b []byte) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}
