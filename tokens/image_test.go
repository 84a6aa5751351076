package tokens

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"github.com/condense-dev/condense"
)

func TestImageRules(t *testing.T) {
	tests := []struct {
		family string
		w, h   int
		want   int
	}{
		// Anthropic: w*h/750, capped at 1,600.
		{FamilyAnthropic, 200, 200, 54},
		{FamilyAnthropic, 1000, 1000, 1334},
		{FamilyAnthropic, 1092, 1092, 1590},
		{FamilyAnthropic, 4000, 3000, AnthropicImageMax},
		{FamilyAnthropic, 0, 0, AnthropicImageMax},
		// OpenAI: the guide's examples.
		{FamilyOpenAI, 1024, 1024, 765},
		{FamilyOpenAI, 2048, 4096, 1105},
		{FamilyOpenAI, 512, 512, 255},
		{FamilyOpenAI, 100, 100, 255},
		{FamilyOpenAI, 768, 2048, 1445},
		{FamilyOpenAI, 0, 50, OpenAIImageMax},
		// Gemini: 258 up to 384x384, else 258 per 768 tile.
		{FamilyGemini, 384, 384, 258},
		{FamilyGemini, 385, 100, 258},
		{FamilyGemini, 1000, 1000, 1032},
		{FamilyGemini, 0, 0, GeminiImageMax},
	}
	for _, tt := range tests {
		p := condense.Part{Type: condense.PartImage, URL: "u", Width: tt.w, Height: tt.h}
		if got := imageTokens(tt.family, &p); got != tt.want {
			t.Errorf("%s %dx%d: %d tokens, want %d", tt.family, tt.w, tt.h, got, tt.want)
		}
	}
}

func TestImageSizeFromBytes(t *testing.T) {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 300, 150))); err != nil {
		t.Fatal(err)
	}
	p := condense.ImageData("image/png", b.Bytes())
	if w, h, ok := imageSize(&p); !ok || w != 300 || h != 150 {
		t.Errorf("imageSize = %d, %d, %v; want 300, 150, true", w, h, ok)
	}
	if got := imageTokens(FamilyAnthropic, &p); got != 60 {
		t.Errorf("300x150 PNG for Claude: %d tokens, want 60", got)
	}
	bad := condense.ImageData("image/webp", []byte("not an image"))
	if _, _, ok := imageSize(&bad); ok {
		t.Error("size of garbage bytes reported known")
	}
	if got := imageTokens(FamilyOpenAI, &bad); got != OpenAIImageMax {
		t.Errorf("unknown size for OpenAI: %d, want %d", got, OpenAIImageMax)
	}
}
