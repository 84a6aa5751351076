package testmode

import (
	"os"
	"path/filepath"
	"testing"
)

func TestStrideFollowsTheMode(t *testing.T) {
	t.Setenv(EnvLong, "")
	want := 1
	if raceEnabled {
		want = 4
	}
	if got := Stride(4); got != want {
		t.Errorf("Stride(4) = %d with race=%v, want %d", got, raceEnabled, want)
	}
	if got := Stride(0); got != 1 {
		t.Errorf("Stride(0) = %d, want 1", got)
	}
	t.Setenv(EnvLong, "1")
	if Light() || Stride(4) != 1 {
		t.Errorf("long mode: Light() = %v, Stride(4) = %d; want false, 1", Light(), Stride(4))
	}
}

func TestPartKeepsLeadingLines(t *testing.T) {
	t.Setenv(EnvLong, "")
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte("a\nb\nc\nd\ne\nf\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := Part(t, path, 3)
	data, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	want := "a\nb\nc\nd\ne\nf\n"
	if raceEnabled {
		want = "a\nb\n"
	}
	if string(data) != want {
		t.Errorf("Part(…, 3) with race=%v holds %q, want %q", raceEnabled, data, want)
	}
}
