// gen.mjs writes ../reference.jsonl.gz: a fixed corpus of texts and, for
// each text, the token ids that the official tiktoken tokenizer gives it in
// o200k_base and cl100k_base. The Go tests of tokens/internal/bpe check
// that the package's tokenizer gives the same ids for every entry.
//
// The reference is npm's `tiktoken` package: the WASM build of tiktoken's
// own Rust core (its split regexes run on the Rust fancy-regex engine). The
// exact versions are pinned in package.json and package-lock.json.
//
// To regenerate, from this directory (Node 20 or later):
//
//	npm ci
//	node gen.mjs
//
// The output is deterministic: the same corpus files and package versions
// give the same bytes. node_modules/ is not committed.
//
// The corpus is:
//   - every text of tokens/testdata/corpus.jsonl (prose, Markdown, CJK,
//     emoji, code, JSON tool output, logs, whitespace-heavy tables);
//   - the string values of the transcripts in transcript/testdata (Claude
//     Code, Codex, OpenAI and Anthropic messages, SWE-agent trajectories),
//     and some of their raw JSON lines;
//   - generated text: every combination of up to four white-space
//     characters in several contexts (between words, before punctuation,
//     at the end of the text), "\n \n"-style runs, contractions in every
//     case, digit runs, mixed scripts with combining marks, emoji
//     sequences, CJK, control characters, code with CRLF line endings and
//     trailing white space, long runs, and random mixtures of all of these
//     from a seeded generator.
//
// If js-tiktoken (the pure-JavaScript port, also in package.json) is
// installed, the script also reports the entries where it disagrees with
// the reference, for information only.

import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { get_encoding } from "tiktoken";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..", "..", "..", "..");
const out = join(here, "..", "reference.jsonl.gz");
const encodings = ["o200k_base", "cl100k_base"];

// A seeded generator (mulberry32), so the generated text is the same on
// every run.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(20240611);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));

const entries = [];
const seen = new Set();
function add(source, text) {
  if (typeof text !== "string" || text === "" || seen.has(text)) return;
  if (!text.isWellFormed()) return; // a lone surrogate has no UTF-8 form
  seen.add(text);
  entries.push({ source, text });
}

// 1. The mixed corpus of the tokens package.
readFileSync(join(repo, "tokens", "testdata", "corpus.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .forEach((l, i) => add(`corpus.jsonl:${i + 1}`, JSON.parse(l).text));

// 2. Transcripts: their string values, and some raw lines.
const transcripts = [
  ["claude-code.jsonl", Infinity],
  ["codex-rollout.jsonl", Infinity],
  ["openai-chat.json", Infinity],
  ["anthropic-messages.json", Infinity],
  ["mini-swe-agent.traj.json", Infinity],
  ["swe-agent-fc.traj", Infinity],
  ["swe-agent-text.traj", Infinity],
  ["claude-code-large.jsonl", 120_000], // a sample: characters of text taken at most
];
function strings(v, acc) {
  if (typeof v === "string") acc.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, acc));
  else if (v && typeof v === "object") Object.values(v).forEach((x) => strings(x, acc));
  return acc;
}
for (const [name, budget] of transcripts) {
  const raw = readFileSync(join(repo, "transcript", "testdata", name), "utf8");
  const docs = name.endsWith(".jsonl")
    ? raw.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l))
    : [JSON.parse(raw)];
  let left = budget;
  for (const s of strings(docs, [])) {
    if (s.length < 2 || left <= 0) continue;
    left -= s.length;
    add(`transcript/${name}`, s);
  }
  // Raw JSON as a model sees tool input and output.
  raw.split("\n").slice(0, 5).forEach((l) => add(`transcript/${name}:raw`, l.slice(0, 4000)));
}

// 3. Generated text.
const spaces = [" ", "\t", "\n", "\r", "\u00a0", "\u3000"];
const combos = [""];
for (let n = 1; n <= 4; n++) {
  for (const c of combos.filter((c) => [...c].length === n - 1)) {
    for (const s of spaces) combos.push(c + s);
  }
}
for (const w of combos.slice(1)) {
  add("gen/space", "a" + w + "b");
  add("gen/space", "x." + w + "(y");
  add("gen/space", "end" + w);
  add("gen/space", w + "1" + w);
}
for (const w of [" \n", "\n \n", "\n \n \n", "\n  \n", " \n \n ", "\n\t\n", "\r\n \r\n", "\n \n\n", "  \n  \n  ", "\n \n-x", "\n\n \n", "\t \n \t"]) {
  for (const [a, b] of [["a", "b"], ["}", "{"], ["", ""], ["x", ""], ["", "x"], ["1", "2"], ["é", "ü"], ["-", "+"]]) {
    add("gen/newlines", a + w + b);
  }
}
for (const n of [1, 2, 3, 5, 8, 16, 33, 100]) {
  add("gen/runs", " ".repeat(n) + "x");
  add("gen/runs", "x" + " ".repeat(n));
  add("gen/runs", "x" + "\n".repeat(n) + "y");
  add("gen/runs", "\t".repeat(n) + "if x {");
  add("gen/runs", "x" + " \n".repeat(n));
  add("gen/runs", "line" + "\r\n".repeat(n));
}

const words = ["don", "it", "we", "you", "they", "I", "he", "she", "DON", "We", "cafÉ", "naïve", "ÉCOLE", "Ωmega", "jalapeño", "x", "ʰ", "中文", "ǅemal", "HTTPS", "a1"];
const suffixes = ["s", "t", "re", "ve", "m", "ll", "d"];
for (const w of words) {
  for (const s of suffixes) {
    for (const v of [s, s.toUpperCase(), s[0].toUpperCase() + s.slice(1), s.slice(0, -1) + s.slice(-1).toUpperCase()]) {
      add("gen/contraction", `${w}'${v}`);
      add("gen/contraction", `${w}'${v}x`);
      add("gen/contraction", ` ${w}'${v} `);
    }
  }
}
for (const s of ["'s", "'S", "'ll", "'LL", "'re'", "'ve've", "''s", "'s's", " 's", "\n's", "1's", ")'s", "'ſ", "a'ſ", "A'ſ", "'ſa", "x'ſt", "ſ's", "'\u212a", "s\u2019s", "don\u2019t", "'", "''", "'x", "rock'n'roll", "O'Neil's", "I'M", "y'all'd've", "ー'ſ'da", "中'ſ'd", "A'ſ'D", "ʰ'ſ'x"]) {
  add("gen/contraction", s);
  add("gen/contraction", "word " + s + " word");
}

const digits = "0123456789";
for (let n = 1; n <= 14; n++) {
  let d = "";
  for (let i = 0; i < n; i++) d += digits[(i * 7 + n) % 10];
  add("gen/digits", d);
  add("gen/digits", "v" + d + "x");
  add("gen/digits", " " + d + " ");
  add("gen/digits", d + ".5e-" + d);
}
for (const s of ["٠١٢٣٤٥٦", "४५६७", "１２３４", "²³¹", "½⅓¼", "Ⅻⅻ〇", "x²+y²", "3½", "①②③④", "𝟙𝟚𝟛𝟜", "1,234,567.89", "0x1F600", "192.168.0.1", "2024-06-11T08:23:22Z", "1e100"]) {
  add("gen/digits", s);
  add("gen/digits", "n=" + s + ";");
}

const scripts = [
  "Ελληνικά κείμενα με τόνους", "Русский текст с ЗАГЛАВНЫМИ буквами", "العربية مع التشكيل: كَتَبَ", "עברית עם ניקוד: שָׁלוֹם",
  "हिन्दी में लिखा गया पाठ", "ภาษาไทยไม่มีช่องว่าง", "中文文本没有空格但是很长的句子", "日本語のテキスト、カタカナとひらがな。",
  "한국어 텍스트입니다", "Tiếng Việt có dấu", "Türkçe İstanbul ıı", "Ǆǅǆ ǈ ǋ", "ᾈᾉᾊ ᾼ", "ʰʲʷ ˢ", "ªº", "ƻƼ",
  "e\u0301e\u0301\u0301", "A\u0308BC", "\u0301start", " \u0301x", "x \u0301", "1\u0301", ".\u0301", "\u0301\u0301\u0301", "ABC\u0301 def",
  "\u0915\u094d\u0937", "a\u20ddb", "\u00ad soft", "zero\u200bwidth", "zw\u200dj", "RTL\u200fmark",
  "😀😃😄", "👍🏽👍", "👨‍👩‍👧‍👦 family", "🇺🇸🇫🇷", "❤️ ✔️", "#️⃣", "a😀b", "😀 emoji at start", "end 😀",
  "©®™ €£¥ →⇒ —– …", "“quoted” ‘single’", "«guillemets»", "¿Qué? ¡Sí!", "\ufffd\ufffd", "\ufeffBOM",
  "\u0000\u0001\u001b[31m\u007f\u0085\u009f", "DEL\u007fDEL", "\u007f", "a\u000bb\u000cc", "\u2028\u2029", "x\u1680y",
  "CamelCaseIdentifier", "XMLHttpRequest", "getHTTPResponseCode", "snake_case_name", "SCREAMING_SNAKE", "kebab-case-name",
  "ÀÉÎÕÜ àéîõü", "ÀÉÎÕÜàéîõü", "MÜNCHEN straße STRASSE", "ŞİŞLİ", "ǅungla", "ǅ", "ΣΑΣ σας",
];
for (const s of scripts) {
  add("gen/script", s);
  add("gen/script", " " + s);
  add("gen/script", s + "\n");
}

const code = [
  "package main\r\n\r\nimport \"fmt\"\r\n\r\nfunc main() {\r\n\tfmt.Println(\"hi\")   \r\n}\r\n",
  "def f(x):\n    return x  \n\n\n\nclass A:\n\tpass\t\n",
  "if (a && b) {\n        // TODO: fix   \n        return;\n    }\n\n",
  "{\"key\": \"value\", \"n\": [1, 2, 3], \"nested\": {\"a\": null}}\n",
  "SELECT * FROM t WHERE id = 42;\n-- comment\n",
  "<div class=\"x\">\n  <p>Hello</p>\n</div>\n",
  "path/to/file.go:12:5: undefined: foo\n",
  "https://example.com/a/b?c=d&e=f#g",
  "//go:build linux\n\n// Package x does y.\npackage x\n",
  "    \n    \n    x := 1\n    \n",
  "a = b /* c */ // d\n/// doc\n//// four\n",
  "$ ls -la\ntotal 0\ndrwxr-xr-x 2 root root 4096 Jan  1 00:00 .\n",
];
for (const s of code) {
  add("gen/code", s);
  add("gen/code", s.replace(/\n/g, "\r\n"));
  add("gen/code", s.trimEnd() + "   ");
  add("gen/code", s + "\n \n\t\n");
}

add("gen/long", " ".repeat(1000));
add("gen/long", "\n".repeat(300));
add("gen/long", "a".repeat(2000));
add("gen/long", "1".repeat(100));
add("gen/long", "ab".repeat(700));
add("gen/long", "中".repeat(300));
add("gen/long", "😀".repeat(100));
add("gen/long", "-".repeat(500) + "\n");
add("gen/long", "=".repeat(129));
add("gen/long", "\u0301".repeat(200));
let lower = "", b64 = "", hex = "", cjk = "";
for (let i = 0; i < 600; i++) lower += String.fromCharCode(97 + int(0, 25));
const b64chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
for (let i = 0; i < 1200; i++) b64 += pick([...b64chars]);
for (let i = 0; i < 400; i++) hex += "0123456789abcdef"[int(0, 15)];
for (let i = 0; i < 500; i++) cjk += String.fromCodePoint(0x4e00 + int(0, 0x5000));
add("gen/long", lower);
add("gen/long", b64);
add("gen/long", hex);
add("gen/long", cjk);

// Random mixtures: short words of every class, white space and fragments.
const pool = [
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
  ..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
  " ", " ", " ", "  ", "\t", "\n", "\n", "\r\n", "\r", "\u000b", "\u000c", "\u00a0", "\u2003", "\u3000", "\u0085", "\u2028", "\u1680",
  "É", "é", "Ω", "ω", "Ж", "ж", "ß", "ſ", "ǅ", "ᾈ", "ʰ", "ー", "ª", "ƻ", "中", "あ", "ア", "한", "ก", "א", "ب", "क",
  "\u0301", "\u0308", "\u093e", "\u20dd", "\ufe0f", "\u200d", "\u0e31", "\u064e",
  "٣", "४", "１", "²", "½", "Ⅻ", "〇",
  "😀", "👍🏽", "🇺🇸", "€", "©", "→", "—", "’", "“", "…", "\u00ad", "\u007f", "\u0000", "\u001b", "\ufffd",
  "'s", "'S", "'re", "'RE", "'ll", "'LL", "'ve", "'d", "'m", "'t", "'ſ", "'Re", "'rE",
  "the", " the", "The", "THE", "ing", "tion", "HTTP", "Server", "func", "123", "0000", "//", "/*", "*/", "->", "::", "==", "\\n",
];
for (let k = 0; k < 4000; k++) {
  let s = "";
  const n = int(1, 24);
  for (let i = 0; i < n; i++) s += pick(pool);
  add("gen/random", s);
}

// Encode.
const refs = Object.fromEntries(encodings.map((e) => [e, get_encoding(e)]));
const lines = entries.map((e) => {
  const row = { source: e.source, text: e.text };
  for (const name of encodings) row[name] = Array.from(refs[name].encode_ordinary(e.text));
  return JSON.stringify(row);
});
writeFileSync(out, gzipSync(lines.join("\n") + "\n", { level: 9 }));
const tokens = Object.fromEntries(encodings.map((name) => [name, 0]));
for (const l of lines) {
  const row = JSON.parse(l);
  for (const name of encodings) tokens[name] += row[name].length;
}
console.log(`wrote ${entries.length} entries (${JSON.stringify(tokens)} tokens) to ${out}`);

// For information: where the pure-JavaScript port disagrees.
try {
  const { getEncoding } = await import("js-tiktoken");
  for (const name of encodings) {
    const js = getEncoding(name);
    let differ = 0;
    for (const e of entries) {
      const a = Array.from(refs[name].encode_ordinary(e.text));
      const b = js.encode(e.text);
      if (a.length !== b.length || a.some((x, i) => x !== b[i])) {
        if (differ++ < 5) console.log(`js-tiktoken ${name} differs on ${JSON.stringify(e.text.slice(0, 60))}: ${b.length} vs ${a.length} tokens`);
      }
    }
    console.log(`js-tiktoken ${name}: ${differ} of ${entries.length} entries differ from the reference`);
  }
} catch (err) {
  if (err.code !== "ERR_MODULE_NOT_FOUND") throw err;
}
for (const r of Object.values(refs)) r.free();
