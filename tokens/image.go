package tokens

import (
	"bytes"
	"image"
	_ "image/gif"  // register GIF for image.DecodeConfig
	_ "image/jpeg" // register JPEG for image.DecodeConfig
	_ "image/png"  // register PNG for image.DecodeConfig

	"github.com/condense-dev/condense"
)

// Image token rules. Each provider publishes how an image is billed; when the
// size of an image is unknown (a URL, or bytes in a format the standard
// library cannot read) the rule's maximum is used, so the estimate errs high.
const (
	// AnthropicImageMax caps an image for Claude: images are resized so
	// that they need no more than about 1,600 tokens.
	AnthropicImageMax = 1600
	// OpenAIImageMax is the most an image costs an OpenAI model under the
	// tile rule (768x2048 after scaling: 8 tiles, 85+8*170 = 1,445) or the
	// patch rule of the GPT-4.1-mini/nano and o4-mini family (at most 1,536
	// 32px patches), whichever is larger.
	OpenAIImageMax = 1536
	// GeminiImageTile is what Gemini charges for an image of at most
	// 384x384 pixels, and for each 768x768 tile of a larger one.
	GeminiImageTile = 258
	// GeminiImageMax is used for an image of unknown size: Gemini 3's
	// default media resolution costs 1,120 tokens per image, more than the
	// 2.x tile rule gives for images up to 1536x1536.
	GeminiImageMax = 1120
)

// imageSize returns the pixel size of an image part: its Width and Height
// when set, else the size read from the header of its bytes. ok is false
// when the size is unknown.
func imageSize(p *condense.Part) (w, h int, ok bool) {
	if p.Width > 0 && p.Height > 0 {
		return p.Width, p.Height, true
	}
	if len(p.Data) == 0 {
		return 0, 0, false
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(p.Data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return 0, 0, false
	}
	return cfg.Width, cfg.Height, true
}

// AnthropicImageTokens returns what Claude charges for an image of w x h
// pixels: about w*h/750 tokens, at most 1,600 (larger images are scaled
// down first). Unknown sizes (w or h <= 0) cost the maximum.
//
// Source: Anthropic, "Vision" documentation, "Calculate image costs":
// tokens = (width px * height px)/750; images over 1.15 megapixels or 1,568 px
// on the long edge are resized to fit, about 1,600 tokens.
func AnthropicImageTokens(w, h int) int {
	if w <= 0 || h <= 0 {
		return AnthropicImageMax
	}
	n := (int64(w)*int64(h) + 749) / 750
	return int(min(n, AnthropicImageMax))
}

// OpenAIImageTokens returns what an OpenAI model charges for an image of
// w x h pixels at high detail: the image is scaled to fit a 2048x2048
// square, then so that its shortest side is at most 768 px, and costs 85
// tokens plus 170 per 512 px tile. Unknown sizes cost OpenAIImageMax.
//
// Source: OpenAI, "Images and vision" guide, "Calculating costs" (GPT-4o,
// GPT-4.1, GPT-5, o-series: base 85, 170 per tile).
func OpenAIImageTokens(w, h int) int {
	if w <= 0 || h <= 0 {
		return OpenAIImageMax
	}
	fw, fh := float64(w), float64(h)
	if fw > 2048 || fh > 2048 {
		s := 2048 / max(fw, fh)
		fw, fh = fw*s, fh*s
	}
	if short := min(fw, fh); short > 768 {
		s := 768 / short
		fw, fh = fw*s, fh*s
	}
	tiles := ceilDiv(int(fw+0.5), 512) * ceilDiv(int(fh+0.5), 512)
	return 85 + 170*tiles
}

// GeminiImageTokens returns what Gemini charges for an image of w x h
// pixels: 258 tokens when both sides are at most 384 px, else 258 for each
// 768x768 tile. Unknown sizes cost GeminiImageMax.
//
// Source: Google, Gemini API "Understand and count tokens", images: "Images
// with both dimensions <= 384 pixels are counted as 258 tokens. Images
// larger in one or both dimensions are cropped and scaled as needed into
// tiles of 768x768 pixels, each counted as 258 tokens."
func GeminiImageTokens(w, h int) int {
	if w <= 0 || h <= 0 {
		return GeminiImageMax
	}
	if w <= 384 && h <= 384 {
		return GeminiImageTile
	}
	return GeminiImageTile * ceilDiv(w, 768) * ceilDiv(h, 768)
}

// imageTokens applies family's rule to an image part.
func imageTokens(family string, p *condense.Part) int {
	w, h, ok := imageSize(p)
	if !ok {
		w, h = 0, 0
	}
	switch family {
	case FamilyOpenAI:
		return OpenAIImageTokens(w, h)
	case FamilyGemini:
		return GeminiImageTokens(w, h)
	default:
		return AnthropicImageTokens(w, h)
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
