// speed.mjs measures the throughput of npm's tiktoken (WASM build of the
// Rust core) and js-tiktoken (pure JavaScript) on the same text as
// tokens' BenchmarkBPE: the mixed corpus of tokens/testdata joined by blank
// lines. It prints MB/s per encoding, best of five runs of at least a second.
//
//   npm ci && node speed.mjs
import { readFileSync } from "node:fs";
import { get_encoding } from "tiktoken";
import { getEncoding } from "js-tiktoken";

const lines = readFileSync(new URL("../../../../testdata/corpus.jsonl", import.meta.url), "utf8").split("\n").filter(Boolean);
const text = lines.map((l) => JSON.parse(l).text).join("\n\n");
const bytes = Buffer.byteLength(text, "utf8");

function measure(name, count) {
  count(text); // warm up
  let best = 0;
  for (let run = 0; run < 5; run++) {
    let n = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0;
    while (elapsed < 1e9) {
      count(text);
      n++;
      elapsed = Number(process.hrtime.bigint() - start);
    }
    best = Math.max(best, (bytes * n) / (elapsed / 1e9) / (1 << 20));
  }
  console.log(`${name}\t${best.toFixed(1)} MiB/s`);
}

for (const enc of ["o200k_base", "cl100k_base"]) {
  const wasm = get_encoding(enc);
  measure(`tiktoken (wasm) ${enc}`, (t) => wasm.encode(t, "all").length);
  wasm.free();
  const js = getEncoding(enc);
  measure(`js-tiktoken ${enc}`, (t) => js.encode(t, "all").length);
}
