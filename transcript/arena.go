package transcript

import (
	"bytes"
	"strings"
	"unsafe"

	"github.com/condense-dev/condense"
)

// Where the texts of a JSON document are kept.
//
// A document is read whole: it is in memory while its records are decoded,
// and the transcript's texts (nearly all of its bytes) would be a second
// copy of it, so reading would hold about twice the input, and Go's
// collector lets garbage grow to as much again as what is live before it
// collects. When Read or ReadFile read the document into a buffer of
// their own, the texts are kept in that buffer instead: a record the
// reader is done with is never read again, so its bytes can hold the
// texts of the messages decoded from it and from the records before it.
// Decoded texts are never longer than the JSON they come from (escapes
// only shrink, base64 decodes to less), so they nearly always fit; one
// that does not stays where it is. The transcript then holds the
// document's buffer and little else, about the input's size, and reading
// peaks at a little over twice the input with the default collector.
//
// Readers take part by releasing each record (release, releaseUpTo) once
// they will read nothing before its end again, and keeping what they
// decoded from it: add keeps each message it is given, so a reader that
// releases a record before adding its messages needs nothing more, and
// one that releases it after calls keep or keepFrom. A reader must hold
// no view of a released record (a slice or string sharing its bytes)
// outside the messages it keeps. ReadBytes reads a buffer its caller owns
// and keeps the texts in their own memory: the document is then only
// read, never written.
//
// Decoders may hand out texts that share the document's memory (the
// OpenAI codec's strings without escapes). Every message kept is looked
// over: such a text is copied before the bytes it shares could be
// overwritten, or, when the buffer is the caller's, so that the transcript
// keeps none of it.

// docArena is the document being read and the part of it that holds kept
// texts.
type docArena struct {
	buf []byte
	// owned: buf is the reader's, and its released bytes may be reused.
	owned bool
	// buf[:used] holds kept texts; buf[used:free] is released: the reader
	// reads it no more.
	used, free int
}

// offset returns the offset in a.buf of the memory at p, and whether p is
// in a.buf.
func (a *docArena) offset(p unsafe.Pointer) (int, bool) {
	if p == nil || len(a.buf) == 0 {
		return 0, false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(a.buf)))
	off := uintptr(p) - base
	return int(off), uintptr(p) >= base && off < uintptr(len(a.buf))
}

// release records that the reader reads nothing of the document before
// the end of raw, a slice of it, again.
func (a *docArena) release(raw []byte) {
	if a == nil || !a.owned || len(raw) == 0 {
		return
	}
	off, ok := a.offset(unsafe.Pointer(unsafe.SliceData(raw)))
	if !ok {
		return
	}
	a.free = min(max(a.free, off+len(raw)), len(a.buf))
}

// release records that the reader is done with raw and everything before
// it in the document (see docArena).
func (b *builder) release(raw []byte) { b.arena.release(raw) }

// offsetOf returns the offset of raw in the document, 0 when it is not in
// it: for releaseUpTo.
func (b *builder) offsetOf(raw []byte) int {
	if b.arena == nil {
		return 0
	}
	off, ok := b.arena.offset(unsafe.Pointer(unsafe.SliceData(raw)))
	if !ok {
		return 0
	}
	return off
}

// releaseUpTo records that the reader reads nothing of the document's
// first n bytes again.
func (b *builder) releaseUpTo(n int) {
	if a := b.arena; a != nil && a.owned {
		a.free = min(max(a.free, n), len(a.buf))
	}
}

// keep gives the texts of messages a home that outlives the reading:
// copies of those that share the document's unreleased memory, then, when
// the document is the reader's, the released part of the document for
// every text that fits (see the comment at the top of the file). The
// values are unchanged, and keeping a message again moves only what did
// not fit before.
func (b *builder) keep(ms ...*condense.Message) {
	a := b.arena
	if a == nil || len(a.buf) == 0 {
		return
	}
	// First every text sharing the document beyond what is kept gets its
	// own copy, so that moving one text below cannot overwrite another.
	var strs []*string
	var raws []*[]byte
	for _, m := range ms {
		eachText(m, func(s *string) {
			if off, ok := a.offset(unsafe.Pointer(unsafe.StringData(*s))); ok {
				if off < a.used {
					return // kept already
				}
				*s = strings.Clone(*s)
			}
			strs = append(strs, s)
		}, func(p *[]byte) {
			if off, ok := a.offset(unsafe.Pointer(unsafe.SliceData(*p))); ok {
				if off < a.used {
					return
				}
				*p = bytes.Clone(*p)
			}
			raws = append(raws, p)
		})
	}
	if !a.owned || a.used >= a.free {
		return
	}
	for _, s := range strs {
		if n := len(*s); a.used+n <= a.free {
			dst := a.buf[a.used : a.used+n]
			copy(dst, *s)
			*s = unsafe.String(unsafe.SliceData(dst), n)
			a.used += n
		}
	}
	for _, p := range raws {
		if n := len(*p); a.used+n <= a.free {
			// No room to grow: an append must not write over the next text.
			dst := a.buf[a.used : a.used+n : a.used+n]
			copy(dst, *p)
			*p = dst
			a.used += n
		}
	}
}

// keepAll keeps ms, together (see keep).
func (b *builder) keepAll(ms []condense.Message) {
	if b.arena == nil {
		return
	}
	ptrs := make([]*condense.Message, len(ms))
	for i := range ms {
		ptrs[i] = &ms[i]
	}
	b.keep(ptrs...)
}

// keepFrom keeps the messages added from the i-th on, and the one before
// it, which a reader may have added parts to since it was added: for
// readers that release a record after adding what it holds.
func (b *builder) keepFrom(i int) {
	if b.arena == nil {
		return
	}
	ms := make([]*condense.Message, 0, len(b.msgs)-i+1)
	for k := max(i-1, 0); k < len(b.msgs); k++ {
		ms = append(ms, &b.msgs[k].m)
	}
	b.keep(ms...)
}

// eachText calls str with every non-empty string of m and raw with every
// non-empty byte slice (tool inputs, opaque blocks, image bytes), tool
// result content included.
func eachText(m *condense.Message, str func(*string), raw func(*[]byte)) {
	s := func(p *string) {
		if *p != "" {
			str(p)
		}
	}
	s(&m.ID)
	eachPartText(m.Parts, s, func(p *[]byte) {
		if len(*p) > 0 {
			raw(p)
		}
	})
}

func eachPartText(ps []condense.Part, str func(*string), raw func(*[]byte)) {
	for i := range ps {
		p := &ps[i]
		str(&p.Text)
		str(&p.ID)
		str(&p.CallID)
		str(&p.Name)
		str(&p.Signature)
		str(&p.Redacted)
		str(&p.MediaType)
		str(&p.URL)
		str(&p.Provider)
		raw((*[]byte)(&p.Input))
		raw((*[]byte)(&p.Raw))
		raw(&p.Data)
		eachPartText(p.Content, str, raw)
	}
}
