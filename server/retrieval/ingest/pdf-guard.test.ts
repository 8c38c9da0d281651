import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makePdf } from '../../../test/fixtures/documents/build-documents';
import { pdfBombReason } from './pdf-guard';

const MB = 1024 * 1024;

/** A minimal PDF around one stream object with this dictionary and data (`length` written in place, or as object 9). */
function pdf(dict: string, data: Buffer, indirectLength = false): Buffer {
  const length = indirectLength ? '9 0 R' : String(data.length);
  return Buffer.concat([
    Buffer.from(`%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n4 0 obj\n<< /Length ${length} ${dict} >>\nstream\n`),
    data,
    Buffer.from(`\nendstream\nendobj\n9 0 obj\n${data.length}\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`),
  ]);
}

describe('pdfBombReason', () => {
  it('accepts real PDFs and streams that stay under the limit', async () => {
    expect(pdfBombReason(await makePdf(['The launch code is AZURE-7421.', 'Second page.']), 256 * MB)).toBeUndefined();
    expect(pdfBombReason(pdf('/Filter /FlateDecode', deflateSync(Buffer.alloc(MB, 0x20))), 4 * MB)).toBeUndefined();
  });

  it('refuses a content stream that inflates past the limit, through one Flate filter, two, or after ASCIIHex', () => {
    const inner = deflateSync(Buffer.alloc(8 * MB, 0x20));
    expect(pdfBombReason(pdf('/Filter /FlateDecode', inner), 4 * MB)).toMatch(/expands to more than 4 MB/);
    expect(pdfBombReason(pdf('/Filter [/FlateDecode /FlateDecode]', deflateSync(inner)), 4 * MB)).toMatch(/expands to more than 4 MB/);
    expect(pdfBombReason(pdf('/Filter [/ASCIIHexDecode /FlateDecode]', Buffer.from(`${inner.toString('hex')}>`)), 4 * MB)).toMatch(/expands to more than 4 MB/);
    // Streams add up.
    const two = Buffer.concat([pdf('/Filter /FlateDecode', deflateSync(Buffer.alloc(3 * MB, 0x20))), pdf('/Filter /FlateDecode', deflateSync(Buffer.alloc(3 * MB, 0x20)))]);
    expect(pdfBombReason(two, 4 * MB)).toMatch(/expands/);
  });

  it('finds the data of a stream whose length is an indirect object, and one whose length lies', () => {
    const inner = deflateSync(Buffer.alloc(8 * MB, 0x20));
    expect(pdfBombReason(pdf('/Filter /FlateDecode', inner, true), 4 * MB)).toMatch(/expands/);
    const lying = pdf('/Filter /FlateDecode', inner).toString('latin1').replace(`/Length ${inner.length}`, '/Length 10');
    expect(pdfBombReason(Buffer.from(lying, 'latin1'), 4 * MB)).toMatch(/expands/);
  });

  it('refuses filters it cannot read here (an indirect filter list)', () => {
    expect(pdfBombReason(pdf('/Filter 7 0 R', Buffer.from('x')), 4 * MB)).toMatch(/cannot be checked/);
  });
});
