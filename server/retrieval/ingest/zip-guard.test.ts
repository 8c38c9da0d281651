import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { zipBombReason } from './zip-guard';

/** A one-entry deflated zip; `declared` overrides the uncompressed size the headers claim. */
function zip(name: string, content: Buffer, declared = content.length): Buffer {
  const data = deflateRawSync(content);
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(0, 42);
  const cdOffset = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}

describe('zipBombReason', () => {
  it('accepts an archive that stays under the limit', () => {
    expect(zipBombReason(zip('word/document.xml', Buffer.alloc(1000, 0x61)), 1_000_000)).toBeUndefined();
  });
  it('refuses an archive whose declared size is over the limit', () => {
    expect(zipBombReason(zip('a.xml', Buffer.alloc(2_000_000, 0x20)), 1_000_000)).toMatch(/expands to more than/);
  });
  it('refuses an archive that lies about its size, by inflating with a cap', () => {
    expect(zipBombReason(zip('a.xml', Buffer.alloc(2_000_000, 0x20), 10), 1_000_000)).toMatch(/expands to more than/);
  });
  it('leaves damaged or non-zip data to the parser', () => {
    expect(zipBombReason(Buffer.from('not a zip at all'), 1000)).toBeUndefined();
  });
});
