import { deflateRawSync } from 'node:zlib';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { makeDocx } from '../../../test/fixtures/documents/build-documents';
import { zipBombReason, type ZipLimits } from './zip-guard';

const LIMITS: ZipLimits = { maxBytes: 1_000_000, maxEntries: 100, maxRatio: 100, ratioFrom: 100_000 };

interface Part {
  name: string;
  content: Buffer;
  /** The uncompressed size the headers claim (default: the real one). */
  declared?: number;
}

/** A deflated zip of `parts`, laid out as writers do: local entries, central directory, end record. */
function zip(parts: Part[], options: { cdOffsetShift?: number; prepend?: Buffer; comment?: Buffer } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const data = deflateRawSync(part.content);
    const name = Buffer.from(part.name);
    const declared = part.declared ?? part.content.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const comment = options.comment ?? Buffer.alloc(0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset + (options.cdOffsetShift ?? 0), 16);
  end.writeUInt16LE(comment.length, 20);
  return Buffer.concat([options.prepend ?? Buffer.alloc(0), ...locals, directory, end, comment]);
}

describe('zipBombReason', () => {
  it('accepts archives that real writers make (docx, JSZip) and that stay under the limits', async () => {
    expect(zipBombReason(zip([{ name: 'word/document.xml', content: Buffer.alloc(1000, 0x61) }]), LIMITS)).toBeUndefined();
    expect(zipBombReason(await makeDocx([{ heading: 'Title', paragraphs: ['Some text.'] }]), { ...LIMITS, maxBytes: 64 * 1048576 })).toBeUndefined();
    const jszip = new JSZip();
    jszip.file('a.txt', 'hello '.repeat(100));
    jszip.file('b/c.txt', 'world');
    expect(zipBombReason(await jszip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }), LIMITS)).toBeUndefined();
  });

  it('refuses an archive over the total limit, whether its headers say so or lie about it', () => {
    expect(zipBombReason(zip([{ name: 'a.xml', content: Buffer.alloc(2_000_000, 0x20) }]), { ...LIMITS, maxRatio: 10_000 })).toMatch(/expands to more than/);
    expect(zipBombReason(zip([{ name: 'a.xml', content: Buffer.alloc(2_000_000, 0x20), declared: 10 }]), LIMITS)).toMatch(/sizes disagree/);
    expect(zipBombReason(zip([{ name: 'a.xml', content: Buffer.alloc(10, 0x20), declared: 5000 }]), LIMITS)).toMatch(/sizes disagree/);
  });

  it('refuses a large entry that expands more than the ratio allows, and too many entries', () => {
    expect(zipBombReason(zip([{ name: 'a.xml', content: Buffer.alloc(900_000, 0x20) }]), LIMITS)).toMatch(/expands more than 100 times/);
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `f${i}`, content: Buffer.from('x') }));
    expect(zipBombReason(zip(many), LIMITS)).toMatch(/more than 100 entries/);
  });

  it('refuses the "prepended data" bomb: a central directory offset that does not point at the central directory, which JSZip reads anyway with shifted offsets', async () => {
    const bomb = zip([{ name: 'word/document.xml', content: Buffer.alloc(5_000_000, 0x20) }], { prepend: Buffer.alloc(4096, 0x41) });
    // JSZip opens it and would inflate the whole entry: the guard must not let it through.
    const opened = await JSZip.loadAsync(bomb);
    expect((await opened.file('word/document.xml')!.async('nodebuffer')).length).toBe(5_000_000);
    expect(zipBombReason(bomb, { ...LIMITS, maxRatio: 10_000 })).toMatch(/central directory is not where/);
    expect(zipBombReason(zip([{ name: 'a', content: Buffer.from('x') }], { cdOffsetShift: -3 }), LIMITS)).toMatch(/central directory is not where/);
  });

  it('refuses what it cannot walk exactly: not a zip, trailing data, overlapping entries', () => {
    expect(zipBombReason(Buffer.from('not a zip at all'), LIMITS)).toMatch(/not a readable ZIP/);
    const good = zip([{ name: 'a', content: Buffer.from('hello') }]);
    expect(zipBombReason(Buffer.concat([good, Buffer.from('trailing')]), LIMITS)).toMatch(/after the end/);
    // Two directory entries pointing at the same data (the overlapping-files bomb).
    const overlapping = zip([{ name: 'a', content: Buffer.from('hello') }, { name: 'b', content: Buffer.from('hello') }]);
    const cd = overlapping.readUInt32LE(overlapping.length - 6);
    const second = cd + 46 + 1;
    overlapping.writeUInt32LE(0, second + 42);
    expect(zipBombReason(overlapping, LIMITS)).toMatch(/not where its directory says/);
  });
});
