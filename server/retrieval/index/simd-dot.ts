/**
 * Dot products of one query with many packed float32 vectors, in WebAssembly SIMD (four lanes,
 * two accumulators), about 4–8× a plain JavaScript loop. The module is hand-assembled below (it
 * is 150 bytes; no toolchain needed) and exports `dots(vec, q, n, dimsBytes, out)`: for each
 * of `n` vectors at `vec` (each `dimsBytes` long, a multiple of 32), `out[i] = vec_i · q`.
 */

const SIMD = 0xfd;
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const I32_CONST = 0x41;
const I32_ADD = 0x6a;
const I32_GE_U = 0x4f;
const I32_SHL = 0x74;
const F32_ADD = 0x92;
const F32_STORE = 0x38;
const BLOCK = 0x02;
const LOOP = 0x03;
const BR = 0x0c;
const BR_IF = 0x0d;
const END = 0x0b;
const VOID = 0x40;
const V128_LOAD = [SIMD, 0x00, 0x04, 0x00];
const F32X4_ADD = [SIMD, 0xe4, 0x01];
const F32X4_MUL = [SIMD, 0xe6, 0x01];
const lane = (n: number) => [SIMD, 0x1f, n];
const zero = [SIMD, 0x0c, ...new Array<number>(16).fill(0)];

// params: 0 vec, 1 q, 2 n, 3 dimsBytes, 4 out; locals: 5 i, 6 j, 7 acc0, 8 acc1
const body = [
  0x02, 0x02, 0x7f, 0x02, 0x7b, // locals: 2 × i32, 2 × v128
  BLOCK, VOID,
  LOOP, VOID,
  LOCAL_GET, 5, LOCAL_GET, 2, I32_GE_U, BR_IF, 1,
  ...zero, LOCAL_SET, 7,
  ...zero, LOCAL_SET, 8,
  I32_CONST, 0, LOCAL_SET, 6,
  BLOCK, VOID,
  LOOP, VOID,
  LOCAL_GET, 6, LOCAL_GET, 3, I32_GE_U, BR_IF, 1,
  LOCAL_GET, 7,
  LOCAL_GET, 0, LOCAL_GET, 6, I32_ADD, ...V128_LOAD,
  LOCAL_GET, 1, LOCAL_GET, 6, I32_ADD, ...V128_LOAD,
  ...F32X4_MUL, ...F32X4_ADD, LOCAL_SET, 7,
  LOCAL_GET, 8,
  LOCAL_GET, 0, LOCAL_GET, 6, I32_ADD, I32_CONST, 16, I32_ADD, ...V128_LOAD,
  LOCAL_GET, 1, LOCAL_GET, 6, I32_ADD, I32_CONST, 16, I32_ADD, ...V128_LOAD,
  ...F32X4_MUL, ...F32X4_ADD, LOCAL_SET, 8,
  LOCAL_GET, 6, I32_CONST, 32, I32_ADD, LOCAL_SET, 6,
  BR, 0,
  END,
  END,
  LOCAL_GET, 7, LOCAL_GET, 8, ...F32X4_ADD, LOCAL_SET, 7,
  LOCAL_GET, 4, LOCAL_GET, 5, I32_CONST, 2, I32_SHL, I32_ADD,
  LOCAL_GET, 7, ...lane(0),
  LOCAL_GET, 7, ...lane(1), F32_ADD,
  LOCAL_GET, 7, ...lane(2), F32_ADD,
  LOCAL_GET, 7, ...lane(3), F32_ADD,
  F32_STORE, 0x02, 0x00,
  LOCAL_GET, 0, LOCAL_GET, 3, I32_ADD, LOCAL_SET, 0,
  LOCAL_GET, 5, I32_CONST, 1, I32_ADD, LOCAL_SET, 5,
  BR, 0,
  END,
  END,
  END,
];

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
};
const section = (id: number, content: number[]) => [id, ...leb(content.length), ...content];
const name = (s: string) => [s.length, ...[...s].map((c) => c.charCodeAt(0))];

const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  ...section(1, [0x01, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]),
  ...section(2, [0x01, ...name('env'), ...name('memory'), 0x02, 0x00, 0x01]),
  ...section(3, [0x01, 0x00]),
  ...section(7, [0x01, ...name('dots'), 0x00, 0x00]),
  ...section(10, [0x01, ...leb(body.length), ...body]),
]);

/** The parts of the WebAssembly API used here (the Node typings in use do not declare them). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number; maximum?: number }) => WasmMemory;
  validate(bytes: Uint8Array): boolean;
}

/** A WebAssembly memory. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The global WebAssembly object, typed. */
export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: object | null | undefined;

/** The compiled module, or null where WebAssembly SIMD is unavailable. */
function simdModule(): object | null {
  if (compiled === undefined) {
    try {
      compiled = wasm.validate(MODULE) ? new wasm.Module(MODULE) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled ?? null;
}

/** True when the SIMD kernel can run here. */
export function simdAvailable(): boolean {
  return simdModule() !== null;
}

/** `dots(vecByteOffset, queryByteOffset, n, dimsBytes, outByteOffset)` over `memory`. */
export type DotsKernel = (vec: number, q: number, n: number, dimsBytes: number, out: number) => void;

/** Instantiates the kernel over a memory, or null without SIMD. */
export function dotsKernel(memory: WasmMemory): DotsKernel | null {
  const module = simdModule();
  if (!module) return null;
  const instance = new wasm.Instance(module, { env: { memory } });
  return instance.exports.dots as DotsKernel;
}
