import { parentPort, workerData } from 'node:worker_threads';
import { seededRandom } from './seeded-random';
import { disassembleModule, disassembleSpirv, disassemblyTexts } from '../../shared/shader/spirv-disassembler';
import { parseSpirv } from '../../shared/shader/spirv-instructions';
import { reflectModule, reflectSpirv } from '../../shared/shader/spirv-reflect';
import { validateParsed } from '../../shared/shader/spirv-validate';
import { inspectVbc } from '../../shared/shader/vbc';
import { decodeVbc, VBC_HEADER_BYTES } from '../../shared/shader/vbc-format';
import { ShaderInspectionSchema } from '../../shared/shader/shader-inspection';

/**
 * One fuzz worker (tests/integration/shader-fuzz.test.ts): mutates seed files and runs each mutant
 * through everything a dropped file goes through (reader, decoder, validation, reflection, both
 * disassemblies; a VBC file's decoder, checks, cross-check and per-stage texts). Mutant `i` depends
 * only on `i` (its own seeded generator), so a failure reproduces from its number alone, whatever
 * the split between workers.
 */
export interface FuzzWork {
  spirv: Uint8Array[];
  vbc: Uint8Array[];
  start: number;
  end: number;
  seed: number;
}

export type FuzzMessage =
  | { type: 'progress'; done: number }
  | {
      type: 'done';
      count: number;
      spirvCount: number;
      vbcCount: number;
      diagnosed: number;
      codes: string[];
      failures: { index: number; error: string }[];
      slowest: { index: number; ms: number };
      totalMs: number;
    };

/** Mutations of a SPIR-V module's words and bytes, at `base` bytes into `bytes` (a VBC stage's offset). */
function mutateSpirv(bytes: Uint8Array, rand: () => number, base: number, end: number): Uint8Array {
  const pick = (n: number) => Math.floor(rand() * n);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const words = Math.max(6, (end - base) >>> 2);
  const wordAt = () => base + 4 * (5 + pick(words - 5));
  const setWord = (at: number, value: number) => {
    if (at + 4 <= bytes.length) view.setUint32(at, value >>> 0, true);
  };
  switch (pick(10)) {
    case 0: // flip a bit
      bytes[base + pick(end - base)]! ^= 1 << pick(8);
      return bytes;
    case 1: // a random word anywhere, the header too
      setWord(base + 4 * pick(words), (rand() * 2 ** 32) >>> 0);
      return bytes;
    case 2: // an instruction word with a word count of 0, 0xffff or a small one
      setWord(wordAt(), ((pick(3) === 0 ? 0 : pick(3) === 0 ? 0xffff : pick(8)) << 16) | pick(400));
      return bytes;
    case 3: // truncate anywhere, also mid-word
      return bytes.slice(0, base + pick(end - base + 1));
    case 4: // an opcode from the grammar's range, operands left as they are
      if (wordAt() + 2 <= bytes.length) view.setUint16(wordAt(), pick(6000), true);
      return bytes;
    case 5: // an id out of bound, or 0
      setWord(wordAt(), pick(2) ? 0xfffff + pick(100) : 0);
      return bytes;
    case 6: // a small id-sized value: a plausible id of the wrong kind
      setWord(wordAt(), pick(64));
      return bytes;
    case 7: // the bound: 0, tiny or huge
      setWord(base + 12, [0, 1, 2, 0xffffffff][pick(4)]!);
      return bytes;
    case 8: {
      // a run of words copied from elsewhere in the module (instructions out of their section)
      const from = wordAt();
      const to = wordAt();
      const n = 4 * (1 + pick(12));
      if (from + n <= bytes.length && to + n <= bytes.length) bytes.copyWithin(to, from, from + n);
      return bytes;
    }
    default: // strings without their NUL
      bytes.fill(0x41, base + pick(end - base), base + pick(end - base));
      return bytes;
  }
}

function mutateVbc(source: Uint8Array, rand: () => number): Uint8Array {
  const pick = (n: number) => Math.floor(rand() * n);
  // Half the time a stage's SPIR-V is damaged (the sizes stay right), else the header and reflection.
  if (pick(2) === 0) {
    const stages = decodeVbc(source).stages;
    const s = stages[pick(stages.length)];
    if (s) return mutateSpirv(source.slice(), rand, s.byteOffset, s.byteOffset + s.bytes.length);
  }
  let bytes = source.slice();
  const reflectionEnd = Math.min(source.length, VBC_HEADER_BYTES + 400);
  const at = rand() < 0.8 ? pick(reflectionEnd) : pick(bytes.length);
  switch (pick(6)) {
    case 0:
      bytes[at] = pick(256);
      break;
    case 1:
      bytes[at]! ^= 1 << pick(8);
      break;
    case 2:
      bytes = bytes.subarray(0, at);
      break;
    case 3:
      for (let k = 0; k < 4; k++) bytes[(at + k) % bytes.length] = 0xff;
      break;
    case 4: {
      // insert a few random bytes
      const n = 1 + pick(8);
      const out = new Uint8Array(bytes.length + n);
      out.set(bytes.subarray(0, at));
      for (let k = 0; k < n; k++) out[at + k] = pick(256);
      out.set(bytes.subarray(at), at + n);
      bytes = out;
      break;
    }
    default: {
      // delete a few bytes
      const tail = bytes.subarray(Math.min(bytes.length, at + 1 + pick(8)));
      const out = new Uint8Array(at + tail.length);
      out.set(bytes.subarray(0, at));
      out.set(tail, at);
      bytes = out;
    }
  }
  return bytes;
}

const DIAGNOSTIC_CODE = /^(spirv|vbc)\/[a-z0-9-]+$/;

function check(condition: boolean, what: string) {
  if (!condition) throw new Error(what);
}

/**
 * What the Shaders panel and the CLI do with a file (shader-service.ts), one pass each: parse,
 * validate, reflect, and one disassembly (friendly names for even mutants, raw ids for odd ones).
 * Every 16th mutant also checks that the streaming disassembler (the CLI's) prints the same text.
 */
function runSpirv(bytes: Uint8Array, index: number): { code?: unknown }[] {
  const rawIds = index % 2 === 1;
  const module = parseSpirv(bytes);
  const validation = validateParsed(module);
  const reflection = reflectModule(module);
  const text = disassembleModule(module, { rawIds }).text;
  if (index % 16 === 0) check(disassembleSpirv(bytes, { rawIds }).text === text, 'the streamed disassembly differs from the parsed one');
  if (index % 16 === 8) reflectSpirv(bytes);
  for (const d of validation.diagnostics) check(DIAGNOSTIC_CODE.test(String(d.code)), `diagnostic code ${String(d.code)}`);
  if (index % 100 === 0) {
    const parsed = ShaderInspectionSchema.safeParse({ path: 'fuzz.spv', ok: validation.ok, summary: null, reflection, diagnostics: validation.diagnostics });
    check(parsed.success, `the answer does not fit the contract: ${parsed.error?.message.slice(0, 300)}`);
  }
  return validation.diagnostics;
}

/** A VBC file: decode, checks, each stage's SPIR-V, cross-check; every 4th mutant also each stage's texts. */
function runVbc(bytes: Uint8Array, index: number): { code?: unknown }[] {
  const inspection = inspectVbc(bytes);
  if (index % 4 === 0) for (const s of decodeVbc(bytes).stages) disassemblyTexts(parseSpirv(s.bytes));
  for (const d of inspection.diagnostics) check(DIAGNOSTIC_CODE.test(String(d.code)), `diagnostic code ${String(d.code)}`);
  if (index % 100 === 0) {
    const parsed = ShaderInspectionSchema.safeParse({ path: 'fuzz.vbc', ...inspection });
    check(parsed.success, `the answer does not fit the contract: ${parsed.error?.message.slice(0, 300)}`);
  }
  return inspection.diagnostics;
}

export function fuzz(work: FuzzWork): Extract<FuzzMessage, { type: 'done' }> {
  const started = performance.now();
  const codes = new Set<string>();
  const failures: { index: number; error: string }[] = [];
  const slowest = { index: -1, ms: 0 };
  let spirvCount = 0;
  let vbcCount = 0;
  let diagnosed = 0;
  for (let i = work.start; i < work.end; i++) {
    const rand = seededRandom((work.seed ^ Math.imul(i, 0x9e3779b1)) >>> 0);
    const pick = (n: number) => Math.floor(rand() * n);
    const vbc = work.vbc.length > 0 && pick(4) === 0;
    let bytes: Uint8Array;
    if (vbc) {
      vbcCount++;
      bytes = work.vbc[pick(work.vbc.length)]!;
      for (let k = 1 + pick(3); k > 0 && bytes.length > 0; k--) bytes = mutateVbc(bytes, rand);
    } else {
      spirvCount++;
      bytes = work.spirv[pick(work.spirv.length)]!.slice();
      for (let k = 1 + pick(4); k > 0 && bytes.length >= 4; k--) bytes = mutateSpirv(bytes, rand, 0, bytes.length);
    }
    // Only the decoding is timed: the bound each input must finish within is on Strata, not on the mutator.
    const t0 = performance.now();
    try {
      const diagnostics = vbc ? runVbc(bytes, i) : runSpirv(bytes, i);
      if (diagnostics.length > 0) diagnosed++;
      for (const d of diagnostics) codes.add(String(d.code));
    } catch (e) {
      failures.push({ index: i, error: `${vbc ? 'VBC' : 'SPIR-V'} mutant ${i}: ${e instanceof Error ? e.stack : String(e)}` });
      if (failures.length >= 5) break;
    }
    const ms = performance.now() - t0;
    if (ms > slowest.ms) Object.assign(slowest, { index: i, ms });
    if ((i - work.start + 1) % 2000 === 0) parentPort?.postMessage({ type: 'progress', done: i - work.start + 1 } satisfies FuzzMessage);
  }
  return {
    type: 'done',
    count: work.end - work.start,
    spirvCount,
    vbcCount,
    diagnosed,
    codes: [...codes],
    failures,
    slowest,
    totalMs: performance.now() - started,
  };
}

if (parentPort && workerData) parentPort.postMessage(fuzz(workerData as FuzzWork));
