/**
 * The newlines in a slog's bytes, counted for its index (index-builder.ts:
 * the lines before each gzip member or piece, so a seek can number a bad
 * line): a loop over every byte, in WebAssembly with 16-byte SIMD where
 * Node has it (Node's Buffer has no native count, and a Buffer.indexOf call
 * per newline costs more than the ~300 bytes between two), else by
 * Buffer.indexOf. The WebAssembly loop works on its own memory: a
 * NewlineCounter's buffer, which its user fills.
 */

/** The counter's buffer size. */
export const COUNT_BYTES = 1 << 20;

/** The bits of the WebAssembly API used here (not in this project's lib types). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}

interface Exports {
  memory: { buffer: ArrayBuffer };
  count: (p: number, end: number) => number;
}

/**
 * The module, assembled from its instructions (the WebAssembly binary
 * format, each instruction named as the text format names it):
 *   count(p, end): the bytes equal to 10 from p up to end: 16 at a time
 *   (v128.load, i8x16.eq against ten in every lane, i8x16.bitmask,
 *   i32.popcnt), then the rest one at a time.
 * Memory: 17 pages of 64 KB (COUNT_BYTES and one more), exported.
 */
function moduleBytes(): Uint8Array {
  const I32 = 0x7f;
  const V128 = 0x7b;
  const simd = (op: number): number[] => [0xfd, op];
  const get = (i: number): number[] => [0x20, i];
  const set = (i: number): number[] => [0x21, i];
  /** i32.const of a number from -64 to 63 (one byte of signed LEB128). */
  const i32 = (n: number): number[] => [0x41, n & 0x7f];
  const [BLOCK, LOOP, END, BR, BR_IF] = [[0x02, 0x40], [0x03, 0x40], [0x0b], [0x0c], [0x0d]];
  const [ADD, SUB, AND, EQ, GE_U, POPCNT] = [0x6a, 0x6b, 0x71, 0x46, 0x4f, 0x69];
  const v128Load = [...simd(0x00), 0, 0]; // align 1, offset 0
  const load8 = [0x2d, 0, 0]; // i32.load8_u
  // Parameters p = 0, end = 1; locals vecEnd = 2, n = 3 (i32), ten = 4 (v128).
  const count = [
    ...[2, 2, I32, 1, V128],
    ...i32(10), ...simd(0x0f), ...set(4), // ten = i8x16.splat(10)
    ...get(0), ...get(1), ...get(0), SUB, ...i32(-16), AND, ADD, ...set(2), // vecEnd = p + ((end - p) & -16)
    ...BLOCK, ...LOOP,
    ...get(0), ...get(2), GE_U, ...BR_IF, 1,
    ...get(3), ...get(0), ...v128Load, ...get(4), ...simd(0x23), ...simd(0x64), POPCNT, ADD, ...set(3), // n += popcnt(bitmask(eq(load(p), ten)))
    ...get(0), ...i32(16), ADD, ...set(0), ...BR, 0,
    ...END, ...END,
    ...BLOCK, ...LOOP,
    ...get(0), ...get(1), GE_U, ...BR_IF, 1,
    ...get(3), ...get(0), ...load8, ...i32(10), EQ, ADD, ...set(3), // n += load8_u(p) == 10
    ...get(0), ...i32(1), ADD, ...set(0), ...BR, 0,
    ...END, ...END,
    ...get(3), ...END,
  ];
  const vec = (items: number[][]): number[] => [items.length, ...items.flat()];
  const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];
  const name = (s: string): number[] => [s.length, ...Buffer.from(s)];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, 2, I32, I32, 1, I32]])), // type 0: (i32, i32) -> i32
    ...section(3, vec([[0]])), // count: type 0
    ...section(5, vec([[0x00, 17]])), // memory: 17 pages, no maximum
    ...section(7, vec([[...name('memory'), 0x02, 0], [...name('count'), 0x00, 0]])),
    ...section(10, vec([[...leb(count.length), ...count]])),
  ]);
}

/** An unsigned LEB128. */
function leb(n: number): number[] {
  const out: number[] = [];
  let v = n;
  do {
    const b = v & 0x7f;
    v >>>= 7;
    out.push(v === 0 ? b : b | 0x80);
  } while (v !== 0);
  return out;
}

let compiled: object | null | undefined;

/** The module, compiled once; null where WebAssembly (with SIMD) is not there, or SLOGULATE_WASM=0 asks for Buffer.indexOf. */
function countModule(): object | null {
  if (compiled !== undefined) return compiled;
  compiled = null;
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (process.env.SLOGULATE_WASM === '0' || api === undefined) return compiled;
  const bytes = moduleBytes();
  if (api.validate(bytes)) compiled = new api.Module(bytes);
  return compiled;
}

/** A buffer of COUNT_BYTES to fill, whose newlines it counts. */
export class NewlineCounter {
  readonly buf: Buffer;
  private readonly wasm: Exports | undefined;

  constructor() {
    const mod = countModule();
    const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    if (mod === null || api === undefined) {
      this.buf = Buffer.allocUnsafe(COUNT_BYTES);
      return;
    }
    this.wasm = new api.Instance(mod).exports as Exports;
    this.buf = Buffer.from(this.wasm.memory.buffer, 0, COUNT_BYTES);
  }

  /** The newlines in `chunk` (in WebAssembly when it is a piece of this counter's buffer). */
  count(chunk: Buffer): number {
    if (this.wasm !== undefined && chunk.buffer === this.wasm.memory.buffer) return this.wasm.count(chunk.byteOffset, chunk.byteOffset + chunk.length);
    return countNewlines(chunk);
  }
}

/** The newlines in `chunk`, by Buffer.indexOf. */
export function countNewlines(chunk: Buffer): number {
  let n = 0;
  for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, nl + 1)) n += 1;
  return n;
}
