import { crc32, deflateSync } from 'node:zlib';

const SIZE = 128;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** RGBA of one pixel: a grey disc with a lighter head-and-shoulders silhouette, transparent outside. */
function pixel(x: number, y: number): [number, number, number, number] {
  const c = SIZE / 2;
  const inDisc = (x - c) ** 2 + (y - c) ** 2 <= c * c;
  if (!inDisc) return [0, 0, 0, 0];
  const head = (x - c) ** 2 + (y - SIZE * 0.4) ** 2 <= (SIZE * 0.18) ** 2;
  const shoulders = y > SIZE * 0.66 && ((x - c) / (SIZE * 0.34)) ** 2 + ((y - SIZE * 0.95) / (SIZE * 0.3)) ** 2 <= 1;
  return head || shoulders ? [241, 243, 245, 255] : [156, 163, 175, 255];
}

function render(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const raw = Buffer.alloc((SIZE * 4 + 1) * SIZE);
  for (let y = 0; y < SIZE; y += 1) {
    const row = y * (SIZE * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < SIZE; x += 1) raw.set(pixel(x, y), row + 1 + x * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let cached: Buffer | undefined;

/** The default avatar (`/user.png`), a 128×128 PNG drawn once on first use. */
export function defaultAvatarPng(): Buffer {
  cached ??= render();
  return cached;
}
