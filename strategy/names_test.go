package strategy

import (
	"errors"
	"testing"
)

func TestByName(t *testing.T) {
	for _, n := range Names {
		st, err := ByName(n)
		if err != nil {
			t.Fatalf("ByName(%q): %v", n, err)
		}
		if n != "pipeline" && st.Name() != n {
			t.Errorf("ByName(%q).Name() = %q", n, st.Name())
		}
	}
	if st, err := ByName(""); err != nil || st.Name() != Default().Name() {
		t.Errorf("ByName(\"\") = %v, %v; want the default pipeline", st, err)
	}
	if _, err := ByName("fold"); !errors.Is(err, ErrUnknownName) {
		t.Errorf("ByName(fold) err = %v, want ErrUnknownName", err)
	}
}
