/**
 * The quadratic position kernel out = P0 + (V + ½A·dt)·dt, dt = t − reference, as WebAssembly SIMD: two lanes of
 * f64 per instruction and no bounds checks make it ~3× the JavaScript loop over the same struct-of-arrays
 * (bench/dr.bench.ts), with bit-identical results (the same IEEE operations in the same order, no fused
 * multiply-add). The arrays it reads and writes live in one `Float64Arena` over a fixed-size
 * `WebAssembly.Memory`, so they are ordinary Float64Arrays to everyone else. Where WebAssembly SIMD is not
 * available, `createFloat64Arena` returns null and callers keep plain arrays and the JavaScript loop.
 *
 * The module is assembled here byte by byte (a few dozen instructions), so no toolchain is needed to build it.
 */

/** The part of the WebAssembly JS API used here (the project's type libraries do not declare it). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number; maximum: number }) => { buffer: ArrayBuffer };
}
const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/** Fixed-size memory handing out Float64Arrays, plus the kernel instantiated over it. */
export class Float64Arena {
  readonly buffer: ArrayBuffer;
  private offset = 0;

  constructor(
    readonly memory: { buffer: ArrayBuffer },
    /** quadratic(pairs, t, p0, v, halfA, reference, out): byte offsets; two slots per pair. */
    readonly quadratic: (
      pairs: number,
      tSeconds: number,
      p0: number,
      v: number,
      halfA: number,
      reference: number,
      out: number,
    ) => void,
  ) {
    this.buffer = memory.buffer;
  }

  /** A zeroed Float64Array of `length` in the arena; null when the arena is full. */
  allocate(length: number): Float64Array | null {
    if (this.offset + 8 * length > this.buffer.byteLength) return null;
    const array = new Float64Array(this.buffer, this.offset, length);
    this.offset += 8 * length;
    return array;
  }
}

const PAGE_BYTES = 65536;
let compiled: object | null | undefined;

/**
 * An arena for `float64Count` doubles with the kernel, or null when WebAssembly SIMD is unavailable or the memory
 * cannot be had (the caller then allocates ordinary arrays).
 */
export function createFloat64Arena(float64Count: number): Float64Arena | null {
  if (compiled === undefined) {
    const bytes = quadraticModuleBytes();
    try {
      compiled = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
    } catch {
      // A browser page whose Content-Security-Policy lacks 'wasm-unsafe-eval' refuses to compile any module.
      compiled = null;
    }
  }
  if (compiled === null || wasm === undefined) return null;
  const pages = Math.ceil((8 * float64Count) / PAGE_BYTES) + 1;
  try {
    const memory = new wasm.Memory({ initial: pages, maximum: pages });
    const instance = new wasm.Instance(compiled, { env: { memory } });
    return new Float64Arena(memory, instance.exports.quadratic as Float64Arena['quadratic']);
  } catch {
    return null;
  }
}

// --- the module ---------------------------------------------------------------------------------------------

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
};
const name = (s: string) => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];
const vector = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, bytes: number[]) => [id, ...uleb(bytes.length), ...bytes];

const I32 = 0x7f,
  F64 = 0x7c,
  V128 = 0x7b;
const get = (i: number) => [0x20, i],
  set = (i: number) => [0x21, i];
const simd = (op: number, ...immediates: number[]) => [0xfd, ...uleb(op), ...immediates];
const v128Load = (offset: number) => simd(0x00, 3, ...uleb(offset)); // align 2^3: f64 pairs at 8-byte offsets
const v128Store = (offset: number) => simd(0x0b, 3, ...uleb(offset));
const F64X2_SPLAT = 0x14,
  F64X2_ADD = 0xf0,
  F64X2_SUB = 0xf1,
  F64X2_MUL = 0xf2;
const shuffle = (lane: number) => [
  0xfd,
  0x0d,
  ...[0, 1].flatMap(() => [0, 1, 2, 3, 4, 5, 6, 7].map((b) => 8 * lane + b)),
];
const addConstant = (local: number, bytes: number) => [...get(local), 0x41, ...sleb(bytes), 0x6a, ...set(local)];
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

// Parameters: 0 pairs, 1 t, 2 p0, 3 v, 4 halfA, 5 reference, 6 out. Locals: 7 dt of both slots [dt0, dt1],
// 8 [dt0, dt0], 9 [dt1, dt1]. Two slots are six doubles, three f64x2 vectors: x0y0 | z0x1 | y1z1, whose dt
// vectors are [dt0, dt0], [dt0, dt1] and [dt1, dt1].
function quadraticStep(offset: number, dtLocal: number): number[] {
  return [
    ...get(6),
    ...get(2),
    ...v128Load(offset),
    ...get(3),
    ...v128Load(offset),
    ...get(4),
    ...v128Load(offset),
    ...get(dtLocal),
    ...simd(F64X2_MUL),
    ...simd(F64X2_ADD), // V + ½A·dt
    ...get(dtLocal),
    ...simd(F64X2_MUL),
    ...simd(F64X2_ADD), // P0 + (…)·dt
    ...v128Store(offset),
  ];
}

function quadraticModuleBytes(): Uint8Array {
  const body = [
    ...vector([[3, V128]]),
    0x02,
    0x40,
    0x03,
    0x40, // block, loop
    ...get(0),
    0x45,
    0x0d,
    1, // pairs == 0 → exit
    ...get(1),
    ...simd(F64X2_SPLAT),
    ...get(5),
    ...v128Load(0),
    ...simd(F64X2_SUB),
    ...set(7),
    ...get(7),
    ...get(7),
    ...shuffle(0),
    ...set(8),
    ...get(7),
    ...get(7),
    ...shuffle(1),
    ...set(9),
    ...quadraticStep(0, 8),
    ...quadraticStep(16, 7),
    ...quadraticStep(32, 9),
    ...[2, 3, 4, 6].flatMap((local) => addConstant(local, 48)),
    ...addConstant(5, 16),
    ...addConstant(0, -1),
    0x0c,
    0, // br loop
    0x0b,
    0x0b,
    0x0b, // end loop, end block, end function
  ];
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vector([[0x60, ...vector([I32, F64, I32, I32, I32, I32, I32].map((t) => [t])), 0]])),
    ...section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x00, 1]])), // memory import, min 1 page
    ...section(3, vector([[0]])),
    ...section(7, vector([[...name('quadratic'), 0x00, 0]])),
    ...section(10, vector([[...uleb(body.length), ...body]])),
  ]);
}
