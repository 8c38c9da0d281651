import { describe, expect, it } from 'vitest';
import { csvText, jsonText, MAX_STRUCTURED_CHARS } from './structured-text';

describe('structured text (CSV, JSON)', () => {
  it('tells each CSV row with its column names, and each JSON leaf with its path', () => {
    expect(csvText('name,role\nAda,engineer\n"Grace, Hopper",admiral\n', ',')).toBe('name: Ada; role: engineer\nname: Grace, Hopper; role: admiral');
    expect(jsonText('{"a":{"b":[1,"x"]}}')).toBe('a.b[0]: 1\na.b[1]: x');
  });

  it('refuses a JSON file whose paths repeated over many leaves would grow past the limit', () => {
    const depth = 500;
    const leaves = Math.ceil(MAX_STRUCTURED_CHARS / (depth * 2)) + 10;
    const json = `${'{"k":'.repeat(depth)}[${new Array(leaves).fill(0).join(',')}]${'}'.repeat(depth)}`;
    expect(json.length).toBeLessThan(1.5 * 1024 * 1024);
    expect(() => jsonText(json)).toThrow(/JSON file was refused: its text expands to more than 64 MB/);
  });

  it('refuses a JSON file nested too deeply to walk', () => {
    expect(() => jsonText(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toThrow(/nested too deeply|not valid/);
  });
});
