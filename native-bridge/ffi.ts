import koffi from 'koffi';

/**
 * The one place Strata touches its FFI library (koffi). Everything else in native-bridge/ sees
 * this small surface: native memory blocks addressed by bigint, and C functions whose arguments
 * are 32-bit integers or 64-bit integers/pointers. Structs are laid out by hand in those blocks
 * (native-bridge/vulkan-layouts.ts), so swapping koffi for another FFI means rewriting this file only.
 *
 * Pointers travel as uint64_t, and a uint64_t result is always a bigint (koffi gives a number when it
 * fits; comparing that with 0n would be wrong): on the 64-bit ABIs Strata ships for (x86-64 System V and Windows x64,
 * AArch64) a pointer argument and a 64-bit integer argument are passed the same way.
 */
export type CType = 'void' | 'i32' | 'u32' | 'u64';
type Js<T extends CType> = T extends 'void' ? void : T extends 'u64' ? bigint : number;
export type NativeFunction<R extends CType = CType> = (...args: (number | bigint)[]) => Js<R>;

const KOFFI_TYPE: Record<CType, string> = { void: 'void', i32: 'int32_t', u32: 'uint32_t', u64: 'uint64_t' };

export interface NativeLibrary {
  /** The name or path it was opened with. */
  readonly name: string;
  /** The function `symbol`, or null when the library does not export it. */
  func<R extends CType>(symbol: string, result: R, args: readonly CType[]): NativeFunction<R> | null;
  close(): void;
}

/** A block of native memory with a stable address; `bytes` views it (little-endian reads/writes). */
export interface NativeBlock {
  readonly address: bigint;
  readonly bytes: Buffer;
}

/** dlopen/LoadLibrary; throws with the dynamic linker's message when the file cannot be loaded. */
export function openLibrary(name: string): NativeLibrary {
  const lib = koffi.load(name);
  return {
    name,
    func(symbol, result, args) {
      let fn: (...a: unknown[]) => unknown;
      try {
        fn = lib.func(
          symbol,
          KOFFI_TYPE[result],
          args.map((a) => KOFFI_TYPE[a]),
        );
      } catch {
        return null;
      }
      return (result === 'u64' ? (...a: unknown[]) => BigInt(fn(...a) as number | bigint) : fn) as NativeFunction<typeof result>;
    },
    close: () => lib.unload(),
  };
}

/** Calls the C function at `address` (a pointer a C function returned) with the given signature. */
export function callPointer<R extends CType>(address: bigint, result: R, args: readonly CType[], values: (number | bigint)[]): Js<R> {
  const proto = koffi.proto(
    KOFFI_TYPE[result],
    args.map((a) => KOFFI_TYPE[a]),
  );
  const value = koffi.call(address, proto, ...values) as unknown;
  return (result === 'u64' ? BigInt(value as number | bigint) : value) as Js<R>;
}

/**
 * A native pointer to a Windows top-level exception filter (`LONG WINAPI f(EXCEPTION_POINTERS *)`,
 * for SetUnhandledExceptionFilter) that calls `filter` with the exception's code: the first field of
 * the EXCEPTION_RECORD that EXCEPTION_POINTERS' first field points to (winnt.h). Registered for the
 * life of the process.
 */
export function exceptionFilterPointer(filter: (code: number) => number): bigint {
  const proto = koffi.proto('int32_t', ['void *']);
  return koffi.register((pointers: unknown) => filter(koffi.decode(koffi.decode(pointers, 'void *'), 'uint32_t') as number), koffi.pointer(proto));
}

/**
 * A scope of native allocations, zero-filled, all freed together by `free()`; the queries
 * allocate per call and free before answering.
 */
export class NativeArena {
  private readonly blocks: unknown[] = [];

  alloc(size: number): NativeBlock {
    const ptr = koffi.alloc('uint8_t', Math.max(1, size));
    this.blocks.push(ptr);
    const bytes = Buffer.from(koffi.view(ptr, Math.max(1, size)));
    bytes.fill(0);
    return { address: koffi.address(ptr), bytes };
  }

  /** A NUL-terminated UTF-8 string. */
  cString(text: string): NativeBlock {
    const encoded = Buffer.from(`${text}\0`, 'utf8');
    const block = this.alloc(encoded.length);
    encoded.copy(block.bytes);
    return block;
  }

  /** An array of pointers to NUL-terminated strings (const char *const *). */
  cStringArray(texts: readonly string[]): NativeBlock {
    const block = this.alloc(8 * texts.length);
    texts.forEach((t, i) => block.bytes.writeBigUInt64LE(this.cString(t).address, 8 * i));
    return block;
  }

  free(): void {
    for (const b of this.blocks.splice(0)) koffi.free(b);
  }
}
