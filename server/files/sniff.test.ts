import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sniffType } from './sniff';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('deciding an upload type from its content', () => {
  it('types text by extension and refuses binary junk', async () => {
    expect(await sniffType(new TextEncoder().encode('# Notes'), 'a.md', true)).toEqual({ ok: true, mime: 'text/markdown' });
    expect(await sniffType(new TextEncoder().encode('a,b'), 'data.CSV', true)).toEqual({ ok: true, mime: 'text/csv' });
    expect(await sniffType(new TextEncoder().encode('plain'), 'noext', true)).toEqual({ ok: true, mime: 'text/plain' });
    expect((await sniffType(bytes(0x00, 0x01, 0x02, 0xff), 'x.txt', true)).ok).toBe(false);
  });

  it('accepts a UTF-8 character cut at the end of the sniff window, but not at the end of the file', async () => {
    const euro = new TextEncoder().encode('price: €'); // € is 3 bytes
    const cut = euro.subarray(0, euro.length - 1);
    expect((await sniffType(cut, 'a.txt', false)).ok).toBe(true);
    expect((await sniffType(cut, 'a.txt', true)).ok).toBe(false);
  });

  it('refuses executables whatever their name', async () => {
    const elf = Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(64).fill(0)]);
    const result = await sniffType(elf, 'notes.txt', true);
    expect(result.ok).toBe(false);
    const mz = Uint8Array.from([0x4d, 0x5a, 0x90, 0x00, ...new Array(200).fill(0)]);
    expect((await sniffType(mz, 'report.pdf', true)).ok).toBe(false);
  });

  it('accepts PDFs and PNGs by their magic bytes', async () => {
    expect(await sniffType(new TextEncoder().encode('%PDF-1.7\n%âãÏÓ\n1 0 obj'), 'x.bin', true)).toEqual({ ok: true, mime: 'application/pdf' });
    const png = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'));
    expect(await sniffType(png, 'photo', true)).toEqual({ ok: true, mime: 'image/png' });
  });
});

describe('plain text uploads', () => {
  it('accepts any printable UTF-8 text (all scripts, any length) as .txt, .md or .csv, whatever its first bytes look like', async () => {
    const printable = fc
      .string({ unit: 'binary', minLength: 1, maxLength: 3000 })
      .map((s) => s.replace(/[^\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}\n\t]/gu, ''))
      .filter((s) => s.length > 0);
    await fc.assert(
      fc.asyncProperty(printable, fc.constantFrom('notes.txt', 'readme.md', 'table.csv'), fc.constantFrom('', 'G', 'GIF89a ', 'BM', 'ID3', 'PK', 'OggS', 'RIFF'), async (body, name, start) => {
        const bytes = new TextEncoder().encode(start + body);
        const result = await sniffType(bytes.subarray(0, 64 * 1024), name, bytes.length <= 64 * 1024);
        expect(result.ok, JSON.stringify(result)).toBe(true);
        if (result.ok) expect(result.mime).toMatch(/^text\//);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a text starting with "G" every 188 bytes (an MPEG-TS look-alike) as text', async () => {
    const line = `G${'a'.repeat(186)}\n`;
    expect(await sniffType(new TextEncoder().encode(line.repeat(20)), 'log.txt', true)).toEqual({ ok: true, mime: 'text/plain' });
  });
});
