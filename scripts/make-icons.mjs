// Draws Parley's icons in code (no image tools needed) and writes them to assets/:
// icon.png (1024), icon.ico (16–256), icon.icns (16–1024), icons/<n>x<n>.png for Linux,
// tray.png (+@2x) and trayTemplate.png (+@2x, black on transparent for the macOS menu bar).
// Shapes are signed distance functions, so every size is drawn sharp with analytic anti-aliasing.
// Run: node scripts/make-icons.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'assets');

// ---- PNG encoding -------------------------------------------------------------------------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
/** Encodes RGBA pixels (Uint8Array of size*size*4) as a PNG. */
function encodePng(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y += 1) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- Shapes (coordinates in a 1024 × 1024 design space) --------------------------------------
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
function roundedRect(px, py, cx, cy, hw, hh, r) {
  const qx = Math.abs(px - cx) - hw + r;
  const qy = Math.abs(py - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}
function circle(px, py, cx, cy, r) {
  return Math.hypot(px - cx, py - cy) - r;
}
function triangle(px, py, [ax, ay], [bx, by], [cx, cy]) {
  const edges = [[ax, ay, bx, by], [bx, by, cx, cy], [cx, cy, ax, ay]];
  let d = Infinity;
  let inside = true;
  for (const [x0, y0, x1, y1] of edges) {
    const ex = x1 - x0, ey = y1 - y0, wx = px - x0, wy = py - y0;
    const t = clamp((wx * ex + wy * ey) / (ex * ex + ey * ey), 0, 1);
    d = Math.min(d, Math.hypot(wx - ex * t, wy - ey * t));
    if (ex * wy - ey * wx < 0) inside = false;
  }
  // The edges above run clockwise in screen space, where "inside" means every cross product ≥ 0.
  return inside ? -d : d;
}
/** A speech bubble: a rounded body and a tail under its left end (right end when mirrored). */
function bubble(px, py, cx, cy, hw, hh, r, mirror) {
  const body = roundedRect(px, py, cx, cy, hw, hh, r);
  const top = cy + hh - 40;
  const tip = cy + hh + 110;
  // Points listed clockwise on screen either way, as triangle() expects.
  const tail = mirror
    ? triangle(px, py, [cx + hw * 0.05, top], [cx + hw * 0.55, top], [cx + hw * 0.78, tip])
    : triangle(px, py, [cx - hw * 0.55, top], [cx - hw * 0.05, top], [cx - hw * 0.78, tip]);
  return Math.min(body, tail);
}

const mix = (a, b, t) => a + (b - a) * t;
const hex = (h) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];
const TOP = hex('#4f46e5');
const BOTTOM = hex('#0ea5e9');

/** Porter-Duff "over" of a colour with coverage `a` onto the pixel accumulator. */
function over(px, [r, g, b], a) {
  if (a <= 0) return;
  const outA = a + px[3] * (1 - a);
  for (let i = 0; i < 3; i += 1) px[i] = (([r, g, b][i] * a) + px[i] * px[3] * (1 - a)) / (outA || 1);
  px[3] = outA;
}

/** Renders one icon variant at `size` pixels. */
function render(size, variant) {
  const rgba = new Uint8Array(size * size * 4);
  const scale = 1024 / size;
  // Coverage of a shape from its distance in design units, one pixel wide edge.
  const cover = (d) => clamp(0.5 - d / scale, 0, 1);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const px = (x + 0.5) * scale;
      const py = (y + 0.5) * scale;
      const acc = [0, 0, 0, 0];
      const back = bubble(px, py, 600, 380, 250, 170, 120, true);
      const front = bubble(px, py, 430, 560, 290, 200, 130, false);
      const dots = Math.min(circle(px, py, 330, 560, 38), circle(px, py, 430, 560, 38), circle(px, py, 530, 560, 38));
      if (variant === 'template') {
        // Menu-bar template: black silhouettes, the dots cut out.
        over(acc, [0, 0, 0], cover(Math.max(Math.min(back, front), -dots)));
      } else if (variant === 'tray') {
        over(acc, [79, 70, 229], cover(back));
        over(acc, [255, 255, 255], cover(front + 26));
        over(acc, [79, 70, 229], cover(Math.max(front, -front - 26)));
        over(acc, [79, 70, 229], cover(dots));
      } else {
        const t = clamp((px + py) / 2048, 0, 1);
        const bg = [mix(TOP[0], BOTTOM[0], t), mix(TOP[1], BOTTOM[1], t), mix(TOP[2], BOTTOM[2], t)];
        over(acc, bg, cover(roundedRect(px, py, 512, 512, 412, 412, 185)));
        over(acc, [199, 210, 254], cover(back));
        over(acc, [255, 255, 255], cover(front));
        over(acc, bg, cover(dots));
      }
      const i = (y * size + x) * 4;
      rgba[i] = Math.round(acc[0]);
      rgba[i + 1] = Math.round(acc[1]);
      rgba[i + 2] = Math.round(acc[2]);
      rgba[i + 3] = Math.round(acc[3] * 255);
    }
  }
  return encodePng(size, rgba);
}

// ---- Containers ---------------------------------------------------------------------------
/** ICO with PNG-compressed entries (Windows Vista and later). */
function encodeIco(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    const e = 6 + 16 * i;
    header[e] = size >= 256 ? 0 : size;
    header[e + 1] = size >= 256 ? 0 : size;
    header.writeUInt16LE(1, e + 4); // planes
    header.writeUInt16LE(32, e + 6); // bits per pixel
    header.writeUInt32LE(png.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.png)]);
}
/** ICNS with PNG entries (macOS 10.7 and later). */
function encodeIcns(entries) {
  const parts = entries.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + parts.reduce((n, p) => n + p.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

// ---- Write --------------------------------------------------------------------------------
mkdirSync(path.join(out, 'icons'), { recursive: true });
const cache = new Map();
const png = (size) => {
  if (!cache.has(size)) cache.set(size, render(size, 'app'));
  return cache.get(size);
};
writeFileSync(path.join(out, 'icon.png'), png(1024));
for (const size of [16, 32, 48, 64, 128, 256, 512]) writeFileSync(path.join(out, 'icons', `${size}x${size}.png`), png(size));
writeFileSync(path.join(out, 'icon.ico'), encodeIco([16, 24, 32, 48, 64, 128, 256].map((size) => ({ size, png: png(size) }))));
writeFileSync(
  path.join(out, 'icon.icns'),
  encodeIcns([
    ['icp4', 16], ['icp5', 32], ['icp6', 64], ['ic07', 128], ['ic08', 256], ['ic09', 512], ['ic10', 1024],
    ['ic11', 32], ['ic12', 64], ['ic13', 256], ['ic14', 512],
  ].map(([type, size]) => ({ type, png: png(size) }))),
);
writeFileSync(path.join(out, 'tray.png'), render(16, 'tray'));
writeFileSync(path.join(out, 'tray@2x.png'), render(32, 'tray'));
writeFileSync(path.join(out, 'trayTemplate.png'), render(16, 'template'));
writeFileSync(path.join(out, 'trayTemplate@2x.png'), render(32, 'template'));
process.stdout.write(`icons written to ${path.relative(root, out)}/\n`);
