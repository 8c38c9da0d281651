import { describe, expect, it } from 'vitest';
import { displayName, entityKey, keyGrams } from './normalize';

describe('entity keys', () => {
  it('treats case, possessives, honorifics and acronym dots as the same name', () => {
    expect(entityKey('Ingrid Holm')).toBe('ingrid holm');
    expect(entityKey("Ingrid Holm's")).toBe('ingrid holm');
    expect(entityKey('Dr. Ingrid  Holm')).toBe('ingrid holm');
    expect(entityKey('U.N.')).toBe(entityKey('UN'));
    expect(entityKey('Tromsø')).toBe('tromsø');
  });

  it('gives no key to names with nothing meaningful left', () => {
    expect(entityKey('...')).toBe('');
    expect(entityKey('1984')).toBe('');
    expect(entityKey('a')).toBe('');
  });

  it('cleans display names of surrounding punctuation but keeps acronym dots', () => {
    expect(displayName(' Bergen. ')).toBe('Bergen');
    expect(displayName("Heron Initiative's")).toBe('Heron Initiative');
    expect(displayName('U.N.')).toBe('U.N.');
  });

  it('lists every run of words of a query as keys it may name', () => {
    const grams = keyGrams('Who leads Project Falcon?');
    expect(grams).toEqual(expect.arrayContaining(['project falcon', 'falcon', 'who leads project falcon']));
    expect(grams).not.toContain('');
  });
});
