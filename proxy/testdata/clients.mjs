// Drives the proxy with the official Node clients (openai, @anthropic-ai/sdk).
// Run by TestNodeClients, which serves the proxy at $PROXY_URL and the
// acknowledgement endpoint of the streaming check at $ACK_URL; prints one
// JSON object with what the clients got.
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';

const base = process.env.PROXY_URL;
const key = process.env.API_KEY;
const ack = process.env.ACK_URL;
const openai = new OpenAI({ baseURL: base + '/v1', apiKey: key, maxRetries: 0 });
const anthropic = new Anthropic({ baseURL: base, apiKey: key, maxRetries: 0 });

function toolOutput(step, n) {
  let s = '';
  for (let i = 0; s.length < n; i++) {
    s += `step ${step} line ${i}: internal/parse/file${i % 7}.go:${i * 3}: checked value ${step * 1000 + i} ok\n`;
  }
  return s;
}

function headers(response) {
  return {
    compacted: response.headers.get('condense-compacted'),
    before: Number(response.headers.get('condense-tokens-before')),
    after: Number(response.headers.get('condense-tokens-after')),
  };
}

const out = {};

{
  const { data, response } = await openai.chat.completions
    .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello' }], x_unknown: { kept: true } })
    .withResponse();
  out.chatSmall = { content: data.choices[0].message.content, ...headers(response) };
}

{
  const messages = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Make the test suite in ./internal/parse pass.' },
  ];
  for (let i = 0; i < 12; i++) {
    const id = `call_${i}`;
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'run', arguments: JSON.stringify({ cmd: `go test -run Test${i}` }) } }] });
    messages.push({ role: 'tool', tool_call_id: id, content: toolOutput(i, 4000) });
  }
  const { data, response } = await openai.chat.completions.create({ model: 'gpt-4o', messages }).withResponse();
  out.chatLarge = { content: data.choices[0].message.content, ...headers(response) };
}

{
  const stream = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'count' }], stream: true });
  const got = [];
  for await (const chunk of stream) {
    const c = chunk.choices[0]?.delta?.content;
    if (c) {
      got.push(c);
      await fetch(`${ack}?i=${got.length - 1}`);
    }
  }
  out.chatStream = got;
}

{
  const messages = [{ role: 'user', content: 'Make the test suite in ./internal/parse pass.' }];
  for (let i = 0; i < 12; i++) {
    const id = `toolu_${String(i).padStart(2, '0')}`;
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'run', input: { cmd: `go test -run Test${i}` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: toolOutput(i, 4000) }] });
  }
  const { data, response } = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1000, messages }).withResponse();
  out.messagesLarge = { content: data.content[0].text, ...headers(response) };
}

{
  const stream = anthropic.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'count' }] });
  const got = [];
  for await (const ev of stream) {
    if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') {
      got.push(ev.delta.text);
      await fetch(`${ack}?i=${got.length - 1}`);
    }
  }
  out.messagesStream = got;
}

console.log(JSON.stringify(out));
