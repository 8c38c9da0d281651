import { describe, expect, it } from 'vitest';
import { createToolCallAccumulator, fromOllamaToolCalls, toOllamaToolCalls } from './tool-calls';

describe('tool call normalisation', () => {
  it('assembles OpenAI deltas that arrive interleaved and in fragments', () => {
    const acc = createToolCallAccumulator();
    acc.add([{ index: 1, id: 'call_b', type: 'function', function: { name: 'echo', arguments: '' } }]);
    acc.add([{ index: 0, id: 'call_a', type: 'function', function: { name: 'ad', arguments: '{"a"' } }]);
    acc.add([{ index: 0, function: { name: 'd', arguments: ':1}' } }, { index: 1, function: { arguments: '{"t":"x"}' } }]);
    expect(acc.take()).toEqual([
      { id: 'call_a', type: 'function', function: { name: 'add', arguments: '{"a":1}' } },
      { id: 'call_b', type: 'function', function: { name: 'echo', arguments: '{"t":"x"}' } },
    ]);
    expect(acc.take()).toEqual([]);
  });

  it('gives calls without id or arguments an id and an empty object', () => {
    const acc = createToolCallAccumulator();
    acc.add([{ index: 0, function: { name: 'now' } }]);
    expect(acc.take()).toEqual([{ id: 'call_0', type: 'function', function: { name: 'now', arguments: '{}' } }]);
  });

  it('turns Ollama object arguments into JSON strings and back', () => {
    const calls = fromOllamaToolCalls([{ function: { name: 'add', arguments: { a: 1, b: [2] } } }], 3);
    expect(calls).toEqual([{ id: 'call_3', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":[2]}' } }]);
    expect(toOllamaToolCalls(calls)).toEqual([{ function: { name: 'add', arguments: { a: 1, b: [2] } } }]);
    expect(toOllamaToolCalls([{ id: 'x', type: 'function', function: { name: 'bad', arguments: 'not json' } }])).toEqual([{ function: { name: 'bad', arguments: {} } }]);
  });
});
