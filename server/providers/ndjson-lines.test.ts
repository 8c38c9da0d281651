import { describe, expect, it } from 'vitest';
import { createTextLineReader } from './ndjson-lines';

const line = (literal: string, stamp = '2024-07-22T20:33:28.1Z', rest = '"done":false') => `{"model":"m","created_at":"${stamp}","message":{"role":"assistant","content":${literal}},${rest}}`;

describe('reading Ollama text lines as their literal', () => {
  it('reads a line shaped like the learned one, around another time stamp and text, as its literal', () => {
    const reader = createTextLineReader();
    expect(reader.read(line('"Hi"'))).toBeUndefined();
    reader.learn(line('"Hi"'), 'Hi');
    expect(reader.read(line('" there \\"x\\""', '2024-07-22T20:33:28.123456Z'))).toBe('" there \\"x\\""');
  });

  it('leaves every other line to be parsed', () => {
    const reader = createTextLineReader();
    reader.learn(line('"Hi"'), 'Hi');
    expect(reader.read(line('"a"', '2024\\"07'))).toBeUndefined();
    expect(reader.read(line('"a"', undefined, '"done":true'))).toBeUndefined();
    expect(reader.read(line('"a"').replace('"model":"m"', '"model":"n"'))).toBeUndefined();
    expect(reader.read(line('"a","thinking":"b"'))).toBeUndefined();
    expect(reader.read(line('"tab\there"'))).toBeUndefined();
    reader.learn(line('"x"'), undefined);
    expect(reader.read(line('"a"'))).toBeUndefined();
  });

  it('learns lines without a time stamp too', () => {
    const reader = createTextLineReader();
    reader.learn('{"message":{"content":"Hi"},"done":false}', 'Hi');
    expect(reader.read('{"message":{"content":"yo"},"done":false}')).toBe('"yo"');
  });
});
