import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExports, pickExports } from './library-exports';

const root = path.resolve(import.meta.dirname, '../..');

/** Every non-test TypeScript file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'testing' || name === 'node_modules' ? [] : sources(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('loadExports', () => {
  it('reads named exports as Node and tsx give them', async () => {
    const named = { generate: () => 'cert', default: { generate: () => 'other' } };
    const { generate } = await loadExports(Promise.resolve(named), 'selfsigned', 'generate');
    expect(generate()).toBe('cert');
  });

  it('finds them on default, where the bundle gives a CommonJS library only that', async () => {
    const bundled = { default: { Readability: class Readability {} } } as unknown as { Readability: new () => object };
    const { Readability } = await loadExports(Promise.resolve(bundled), '@mozilla/readability', 'Readability');
    expect(new Readability()).toBeInstanceOf(Object);
  });

  it('fails at once, naming the library and the export, when neither has it', () => {
    const wrong = { default: { other: 1 } } as unknown as { generate: () => string };
    expect(() => pickExports(wrong, 'selfsigned', ['generate'])).toThrow(/selfsigned does not export 'generate' .*exports: default/);
  });

  it('never takes default from default', () => {
    expect(() => pickExports({ named: 1 } as { named: number; default: unknown }, 'x', ['default'])).toThrow(/'default'/);
  });
});

describe('dynamic imports of libraries in server/ and main/', () => {
  it('all go through loadExports, so the bundle and the sources read them alike', () => {
    const raw: string[] = [];
    for (const file of [...sources(path.join(root, 'server')), ...sources(path.join(root, 'main'))]) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/import\(\s*(['"`])([^'"`]+)\1\s*\)/g)) {
        const specifier = match[2]!;
        if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
        const before = text.slice(Math.max(0, match.index - 40), match.index);
        if (!/loadExports\(\s*$/.test(before)) raw.push(`${path.relative(root, file)}: import('${specifier}')`);
      }
    }
    expect(raw).toEqual([]);
  });
});
