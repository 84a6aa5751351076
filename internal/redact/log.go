package redact

import "log/slog"

// Err returns err as the value of a log attribute with its message
// redacted: "err", redact.Err(err). The message is built and redacted only
// when a handler writes the line, so a disabled level costs nothing. A
// handler sees a string value, not the error, so it cannot print the
// unredacted message by another route (errors.Is on it is lost; the
// returned error still carries it).
func Err(err error) slog.LogValuer { return errValue{err} }

// Text returns s as the value of a log attribute, redacted when a handler
// writes the line.
func Text(s string) slog.LogValuer { return textValue(s) }

type errValue struct{ err error }

func (v errValue) LogValue() slog.Value {
	if v.err == nil {
		return slog.AnyValue(nil)
	}
	return slog.StringValue(String(v.err.Error()))
}

// String serves handlers that format the value with fmt without resolving
// it: they get the redacted message too.
func (v errValue) String() string {
	if v.err == nil {
		return "<nil>"
	}
	return String(v.err.Error())
}

type textValue string

func (v textValue) LogValue() slog.Value { return slog.StringValue(String(string(v))) }

func (v textValue) String() string { return String(string(v)) }
