import type { Diagnostic } from 'vscode-languageserver-types';
import { SPIRV_MAGIC } from './spirv-reader';
import { vbcDiagnostic, type VbcDiagnosticCode } from './vbc-diagnostic-codes';
import {
  ALL_STAGES_MASK,
  BINDING_KINDS,
  BINDING_TABLES,
  NUMERIC_BASE_TYPES,
  TEXEL_RANKS,
  TEXEL_TYPES,
  TexelRank,
  VBC_STAGES,
  BaseType,
  type VbcStage,
} from './vbc-enums';

/**
 * The binary layout of a VBC file ("Compiled Shader Format", LibVega/VSL wiki): a 25-byte header,
 * five reflection sections, then each present stage's SPIR-V. Little-endian (the page: x86_64 only).
 * Every read is bounds-checked and every count is checked against the bytes left before any loop,
 * so a corrupt file yields diagnostics (with byte offsets) and whatever was readable, never an
 * exception. `encodeVbc` is the inverse of `decodeVbc` for files that decode without errors.
 */
export const VBC_MAGIC = 'VBC';
export const VBC_VERSION = 1;
export const VBC_GRAPHICS = 1;
export const VBC_HEADER_BYTES = 25;
export const MAX_SUBPASS_INPUTS = 4;
export const MAX_SLOTS = 32;

export interface VbcHeader {
  version: number;
  shaderType: number;
  /** Words of SPIR-V per stage, in VBC_STAGES order; 0: the stage is absent. */
  bytecodeWords: number[];
  /** Binding table sizes in BINDING_TABLES order: how many bindings of each kind (docs/vbc.md). */
  bindingTableSizes: number[];
}

/** A vertex input or fragment output. `dims` is [components (rows), columns]. */
export interface VbcInterfaceVariable {
  location: number;
  baseType: number;
  dims: [number, number];
  arraySize: number;
}

export type VbcBinding =
  | { layout: 'buffer'; slot: number; baseType: number; stageMask: number; bufferSize: number }
  | { layout: 'texel'; slot: number; baseType: number; stageMask: number; rank: number; texelType: number; texelSize: number; texelComponents: number };

export interface VbcUniformMember {
  name: string;
  offset: number;
  baseType: number;
  dims: [number, number];
  arraySize: number;
}

export interface VbcUniform {
  size: number;
  stageMask: number;
  members: VbcUniformMember[];
}

export interface VbcSubpassInput {
  texelType: number;
  components: number;
}

export interface VbcReflection {
  vertexInputs: VbcInterfaceVariable[];
  fragmentOutputs: VbcInterfaceVariable[];
  bindings: VbcBinding[];
  /** null: the section's size field is 0 (no uniform). */
  uniform: VbcUniform | null;
  /** In attachment order: the i-th is input attachment i. */
  subpassInputs: VbcSubpassInput[];
}

export interface VbcSection {
  name: string;
  byteOffset: number;
  byteLength: number;
}

export interface VbcStageBytes {
  stage: VbcStage;
  byteOffset: number;
  /** The bytes present in the file (fewer than the header says when the file is cut short). */
  bytes: Uint8Array;
}

export interface DecodedVbc {
  header: VbcHeader | null;
  reflection: VbcReflection;
  /** Header, the five reflection sections, each stage's bytecode: where each lies, as far as it could be read. */
  sections: VbcSection[];
  stages: VbcStageBytes[];
  /** Byte offset of each uniform member's record (cross-check diagnostics point at them). */
  uniformMemberOffsets: number[];
  diagnostics: Diagnostic[];
}

export const emptyVbcReflection = (): VbcReflection => ({ vertexInputs: [], fragmentOutputs: [], bindings: [], uniform: null, subpassInputs: [] });

/** Byte offset of an item of a reflection section, for diagnostics. */
export function sectionItemOffset(decoded: DecodedVbc, section: string, index: number, itemSize: number): number {
  const s = decoded.sections.find((x) => x.name === section);
  return s ? s.byteOffset + 4 + index * itemSize : 0;
}

class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public at: number,
  ) {}
  get left(): number {
    return this.bytes.length - this.at;
  }
  u8(): number {
    return this.bytes[this.at++]!;
  }
  u16(): number {
    const v = this.bytes[this.at]! | (this.bytes[this.at + 1]! << 8);
    this.at += 2;
    return v;
  }
  u32(): number {
    const b = this.bytes;
    const v = (b[this.at]! | (b[this.at + 1]! << 8) | (b[this.at + 2]! << 16) | (b[this.at + 3]! << 24)) >>> 0;
    this.at += 4;
    return v;
  }
}

const stageList = (mask: number) => VBC_STAGES.filter((_, i) => mask & (1 << i)).join('+') || 'none';

export function decodeVbc(bytes: Uint8Array): DecodedVbc {
  const diagnostics: Diagnostic[] = [];
  const report = (code: VbcDiagnosticCode, offset: number, length: number, message: string) => diagnostics.push(vbcDiagnostic(code, offset, length, message));
  const result: DecodedVbc = { header: null, reflection: emptyVbcReflection(), sections: [], stages: [], uniformMemberOffsets: [], diagnostics };

  if (bytes.length < 3 || bytes[0] !== 0x56 || bytes[1] !== 0x42 || bytes[2] !== 0x43) {
    if (bytes.length >= 3) {
      const seen = Array.from(bytes.subarray(0, 3), (b) => b.toString(16).padStart(2, '0')).join(' ');
      report('vbc/bad-magic', 0, 3, `Bytes 0–2 are ${seen}, not the ASCII "VBC" (56 42 43) that starts a VBC file.`);
      return result;
    }
  }
  if (bytes.length < VBC_HEADER_BYTES) {
    report('vbc/truncated-header', 0, bytes.length, `The file is ${bytes.length} bytes long; the VBC header alone is ${VBC_HEADER_BYTES} bytes.`);
    return result;
  }
  const r = new Reader(bytes, 3);
  const version = r.u8();
  const shaderType = r.u8();
  const bytecodeWords = Array.from({ length: 5 }, () => r.u16());
  const bindingTableSizes = Array.from({ length: 5 }, () => r.u16());
  result.header = { version, shaderType, bytecodeWords, bindingTableSizes };
  result.sections.push({ name: 'header', byteOffset: 0, byteLength: VBC_HEADER_BYTES });
  if (version !== VBC_VERSION) {
    report(
      'vbc/unsupported-version',
      3,
      1,
      `Format version ${version}; Strata reads version ${VBC_VERSION}, the only one the format page describes. The rest of the file is not read.`,
    );
    return result;
  }
  if (shaderType !== VBC_GRAPHICS) report('vbc/unsupported-shader-type', 4, 1, `Shader type ${shaderType}; the format page knows only 1 (graphics).`);
  if (bytecodeWords.every((w) => w === 0)) report('vbc/no-stages', 5, 10, 'Every bytecode size is 0: the file has no shader stage.');
  const presentMask = bytecodeWords.reduce((m, w, i) => (w ? m | (1 << i) : m), 0);

  const checkMask = (mask: number, at: number, what: string) => {
    if (mask & ~ALL_STAGES_MASK)
      report('vbc/bad-stage-mask', at, 2, `${what} has stage mask 0x${mask.toString(16)}, with bits beyond the five graphics stages (0x1f).`);
    else if (mask & ~presentMask)
      report('vbc/bad-stage-mask', at, 2, `${what} has stage mask ${stageList(mask)}, but the file has no bytecode for ${stageList(mask & ~presentMask)}.`);
  };
  const reserved = (at: number, length: number, what: string) => {
    if (bytes.subarray(at, at + length).some((b) => b !== 0)) report('vbc/reserved-not-zero', at, length, `${what}: the reserved padding is not zero.`);
  };
  // Where the reflection must end: when the header's bytecode sizes put a SPIR-V module's magic exactly
  // there, they are right, and a count that reaches past it is the damage (not "too much bytecode").
  // Without this a count of 1000 in a 13 KB file reads the SPIR-V as reflection entries and buries the
  // one real problem under thousands of findings about its words.
  const bytecodeBytes = bytecodeWords.reduce((a, w) => a + w * 4, 0);
  const bytecodeStart = bytes.length - bytecodeBytes;
  const magicAt = (at: number) =>
    at + 4 <= bytes.length && (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0 === SPIRV_MAGIC;
  const reflectionEnd = bytecodeBytes > 0 && bytecodeStart >= VBC_HEADER_BYTES && magicAt(bytecodeStart) ? bytecodeStart : bytes.length;
  /** Bytes from the reader to where the reflection must end. */
  const room = () => Math.max(0, reflectionEnd - r.at);
  const pastEnd = (name: string, start: number, count: number, itemSize: number, unit: string) =>
    report(
      'vbc/section-past-end',
      start,
      4,
      count * itemSize > r.left
        ? `The ${name} section (byte ${start}) says ${count} ${unit} of ${itemSize} bytes, ${count * itemSize} bytes, but only ${r.left} bytes follow its count.`
        : `The ${name} section (byte ${start}) says ${count} ${unit} of ${itemSize} bytes, ${count * itemSize} bytes, but the stages' SPIR-V starts at byte ${reflectionEnd} (the header's bytecode sizes, ${bytecodeBytes} bytes, end the file there): only ${room()} bytes are left for it.`,
    );
  /** Reads a u32 count and checks that `count * itemSize` bytes follow; null when the section runs past the end. */
  const counted = (name: string, itemSize: number): number | null => {
    const start = r.at;
    if (r.left < 4) {
      report(
        'vbc/section-past-end',
        start,
        r.left,
        `The ${name} section starts at byte ${start}, but its 4-byte count does not fit in the ${bytes.length}-byte file.`,
      );
      return null;
    }
    const count = r.u32();
    if (count * itemSize > room()) {
      pastEnd(name, start, count, itemSize, 'entries');
      return null;
    }
    result.sections.push({ name, byteOffset: start, byteLength: 4 + count * itemSize });
    return count;
  };

  const interfaceSection = (name: string, list: VbcInterfaceVariable[], fragment: boolean): boolean => {
    const count = counted(name, 8);
    if (count === null) return false;
    const locations = new Map<number, number>();
    for (let i = 0; i < count; i++) {
      const at = r.at;
      const v: VbcInterfaceVariable = { location: r.u8(), baseType: r.u8(), dims: [r.u8(), r.u8()], arraySize: r.u8() };
      reserved(at + 5, 3, `${name} entry ${i}`);
      r.at += 3;
      list.push(v);
      if (!NUMERIC_BASE_TYPES.has(v.baseType))
        report(
          'vbc/bad-base-type',
          at + 1,
          1,
          `${name} entry ${i} (location ${v.location}) has base type ${v.baseType}; an interface variable is Boolean (1), Signed (2), Unsigned (3) or Float (4).`,
        );
      if (v.dims[0] < 1 || v.dims[0] > 4 || v.dims[1] < 1 || v.dims[1] > 4 || v.arraySize < 1 || (fragment && (v.dims[1] !== 1 || v.arraySize !== 1)))
        report(
          'vbc/bad-dimensions',
          at + 2,
          3,
          `${name} entry ${i} (location ${v.location}) has dimensions ${v.dims[0]}×${v.dims[1]}, array size ${v.arraySize}; components and columns are 1–4, the array size at least 1${fragment ? ', and a fragment output is never a matrix or an array' : ''}.`,
        );
      const first = locations.get(v.location);
      if (first !== undefined) report('vbc/duplicate-location', at, 1, `${name} entries ${first} and ${i} both have location ${v.location}.`);
      else locations.set(v.location, i);
    }
    return true;
  };

  if (!interfaceSection('vertex inputs', result.reflection.vertexInputs, false)) return result;
  if (!interfaceSection('fragment outputs', result.reflection.fragmentOutputs, true)) return result;

  const bindingCount = counted('bindings', 8);
  if (bindingCount === null) return result;
  const tableCounts = [0, 0, 0, 0, 0];
  const slots = new Map<number, number>();
  for (let i = 0; i < bindingCount; i++) {
    const at = r.at;
    const slot = r.u8();
    const baseType = r.u8();
    const stageMask = r.u16();
    const kind = BINDING_KINDS.get(baseType);
    const what = `Binding ${i} (slot ${slot})`;
    if (kind?.layout === 'buffer' || !kind) {
      const bufferSize = r.u16();
      if (kind) reserved(at + 6, 2, what);
      r.at += 2;
      result.reflection.bindings.push({ layout: 'buffer', slot, baseType, stageMask, bufferSize });
    } else {
      const b = { layout: 'texel' as const, slot, baseType, stageMask, rank: r.u8(), texelType: r.u8(), texelSize: r.u8(), texelComponents: r.u8() };
      result.reflection.bindings.push(b);
      if (!TEXEL_RANKS.has(b.rank)) report('vbc/bad-texel-rank', at + 4, 1, `${what} has texel rank ${b.rank}, not one of the ranks in docs/vbc.md.`);
      else if (b.rank === TexelRank.None) {
        if (baseType !== BaseType.Sampler || b.texelType || b.texelSize || b.texelComponents)
          report(
            'vbc/bad-texel-rank',
            at + 4,
            4,
            `${what} has rank None (a separate sampler), which only a Sampler binding with texel type, size and components 0 may have.`,
          );
      } else {
        if (!TEXEL_TYPES.has(b.texelType))
          report('vbc/bad-texel-type', at + 5, 1, `${what} has texel type ${b.texelType}; texel types are 0–4 (Signed, Unsigned, Float, UNorm, SNorm).`);
        if (![1, 2, 4].includes(b.texelComponents))
          report('vbc/bad-texel-components', at + 7, 1, `${what} has ${b.texelComponents} texel components; the format page allows 1, 2 or 4.`);
        if (![1, 2, 4, 8].includes(b.texelSize))
          report('vbc/bad-texel-components', at + 6, 1, `${what} has a texel component size of ${b.texelSize} bytes; expected 1, 2, 4 or 8.`);
      }
    }
    if (!kind)
      report(
        'vbc/bad-base-type',
        at + 1,
        1,
        `${what} has base type ${baseType}; a binding is Sampler (5), Image (6), ROBuffer (7), RWBuffer (8), ROTexels (9) or RWTexels (10).`,
      );
    else tableCounts[kind.table]!++;
    if (slot >= MAX_SLOTS) report('vbc/slot-out-of-range', at, 1, `${what}: slots are in [0, ${MAX_SLOTS}).`);
    const first = slots.get(slot);
    if (first !== undefined) report('vbc/duplicate-slot', at, 1, `Bindings ${first} and ${i} both use slot ${slot}.`);
    else slots.set(slot, i);
    checkMask(stageMask, at + 2, what);
  }
  BINDING_TABLES.forEach((table, t) => {
    if (bindingTableSizes[t] !== tableCounts[t])
      report(
        'vbc/binding-table-mismatch',
        15 + 2 * t,
        2,
        `The header's ${table} table size is ${bindingTableSizes[t]}, but the bindings section has ${tableCounts[t]} binding${tableCounts[t] === 1 ? '' : 's'} of that kind.`,
      );
  });

  // Uniform Data: a u16 size; when non-zero, a stage mask, a member count and the members.
  const uniformStart = r.at;
  if (r.left < 2) {
    report(
      'vbc/section-past-end',
      uniformStart,
      r.left,
      `The uniform section starts at byte ${uniformStart}, but its 2-byte size does not fit in the ${bytes.length}-byte file.`,
    );
    return result;
  }
  const uniformSize = r.u16();
  if (uniformSize !== 0) {
    if (r.left < 6) {
      report(
        'vbc/section-past-end',
        uniformStart,
        2 + r.left,
        `The uniform section (byte ${uniformStart}) has size ${uniformSize}, but its stage mask and member count do not fit in the file.`,
      );
      return result;
    }
    const stageMask = r.u16();
    checkMask(stageMask, uniformStart + 2, 'The uniform');
    const count = r.u32();
    // A member record is at least 6 bytes (empty name): a count beyond that cannot fit.
    if (count * 6 > room()) {
      pastEnd('uniform', uniformStart + 4, count, 6, 'members (at least)');
      return result;
    }
    const uniform: VbcUniform = { size: uniformSize, stageMask, members: [] };
    for (let i = 0; i < count; i++) {
      const at = r.at;
      const nameLength = r.left >= 1 ? r.u8() : 0;
      if (r.left < nameLength + 6) {
        report('vbc/section-past-end', at, bytes.length - at, `Uniform member ${i} (byte ${at}) needs ${nameLength + 6} bytes; the file ends first.`);
        return result;
      }
      const name = String.fromCharCode(...bytes.subarray(r.at, r.at + nameLength));
      r.at += nameLength;
      const m: VbcUniformMember = { name, offset: r.u16(), baseType: r.u8(), dims: [r.u8(), r.u8()], arraySize: r.u8() };
      uniform.members.push(m);
      result.uniformMemberOffsets.push(at);
      if (!NUMERIC_BASE_TYPES.has(m.baseType) && m.baseType !== BaseType.Struct)
        report('vbc/bad-base-type', r.at - 4, 1, `Uniform member "${name}" has base type ${m.baseType}; members are numeric (1–4) or Struct (13).`);
      if (m.offset >= uniformSize)
        report(
          'vbc/uniform-member-out-of-range',
          at + 1 + nameLength,
          2,
          `Uniform member "${name}" is at offset ${m.offset}, past the uniform's size of ${uniformSize} bytes.`,
        );
    }
    result.reflection.uniform = uniform;
  }
  result.sections.push({ name: 'uniform', byteOffset: uniformStart, byteLength: r.at - uniformStart });

  const subpassStart = r.at;
  const subpassCount = counted('subpass inputs', 4);
  if (subpassCount === null) return result;
  if (subpassCount > MAX_SUBPASS_INPUTS)
    report('vbc/too-many-subpass-inputs', subpassStart, 4, `The file has ${subpassCount} subpass inputs; the format allows at most ${MAX_SUBPASS_INPUTS}.`);
  for (let i = 0; i < subpassCount; i++) {
    const at = r.at;
    const s: VbcSubpassInput = { texelType: r.u8(), components: r.u8() };
    reserved(at + 2, 2, `Subpass input ${i}`);
    r.at += 2;
    result.reflection.subpassInputs.push(s);
    if (!TEXEL_TYPES.has(s.texelType)) report('vbc/bad-texel-type', at, 1, `Subpass input ${i} has texel type ${s.texelType}; texel types are 0–4.`);
    if (![1, 2, 4].includes(s.components))
      report('vbc/bad-texel-components', at + 1, 1, `Subpass input ${i} has ${s.components} components; the format page allows 1, 2 or 4.`);
  }

  // Bytecode: each present stage, 4 × words bytes, in stage order, to the end of the file.
  const expected = bytecodeWords.reduce((a, w) => a + w * 4, 0);
  if (r.left !== expected) {
    report(
      'vbc/bytecode-size-mismatch',
      r.at,
      r.left,
      `The header's bytecode sizes add up to ${expected} bytes (${bytecodeWords.map((w, i) => `${VBC_STAGES[i]} ${w}`).join(', ')} words), but ${r.left} bytes follow the reflection (byte ${r.at}): ${r.left < expected ? 'the file is cut short' : `${r.left - expected} bytes are left over`}.`,
    );
  }
  bytecodeWords.forEach((words, i) => {
    if (!words) return;
    const stage = VBC_STAGES[i]!;
    const byteOffset = r.at;
    const end = Math.min(bytes.length, byteOffset + words * 4);
    if (byteOffset >= bytes.length) return;
    result.stages.push({ stage, byteOffset, bytes: bytes.subarray(byteOffset, end) });
    result.sections.push({ name: `bytecode ${stage}`, byteOffset, byteLength: end - byteOffset });
    r.at = end;
  });
  return result;
}

class Writer {
  private buf = new Uint8Array(256);
  length = 0;
  private grow(n: number) {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }
  u8(v: number) {
    this.grow(1);
    this.buf[this.length++] = v & 0xff;
  }
  u16(v: number) {
    this.u8(v);
    this.u8(v >>> 8);
  }
  u32(v: number) {
    this.u16(v & 0xffff);
    this.u16(v >>> 16);
  }
  bytes(b: Uint8Array) {
    this.grow(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/**
 * Writes a VBC file. The caller (packVbc) has checked that every value fits its field; the header's
 * bytecode sizes and binding table sizes are computed here from `stages` and `reflection`.
 */
export function encodeVbc(reflection: VbcReflection, stages: Partial<Record<VbcStage, Uint8Array>>): Uint8Array {
  const w = new Writer();
  for (const c of VBC_MAGIC) w.u8(c.charCodeAt(0));
  w.u8(VBC_VERSION);
  w.u8(VBC_GRAPHICS);
  for (const s of VBC_STAGES) w.u16(Math.floor((stages[s]?.length ?? 0) / 4));
  const tables = [0, 0, 0, 0, 0];
  for (const b of reflection.bindings) {
    const kind = BINDING_KINDS.get(b.baseType);
    if (kind) tables[kind.table]!++;
  }
  for (const t of tables) w.u16(t);
  for (const list of [reflection.vertexInputs, reflection.fragmentOutputs]) {
    w.u32(list.length);
    for (const v of list) {
      w.u8(v.location);
      w.u8(v.baseType);
      w.u8(v.dims[0]);
      w.u8(v.dims[1]);
      w.u8(v.arraySize);
      w.u8(0);
      w.u16(0);
    }
  }
  w.u32(reflection.bindings.length);
  for (const b of reflection.bindings) {
    w.u8(b.slot);
    w.u8(b.baseType);
    w.u16(b.stageMask);
    if (b.layout === 'buffer') {
      w.u16(b.bufferSize);
      w.u16(0);
    } else {
      w.u8(b.rank);
      w.u8(b.texelType);
      w.u8(b.texelSize);
      w.u8(b.texelComponents);
    }
  }
  const u = reflection.uniform;
  w.u16(u?.size ?? 0);
  if (u && u.size) {
    w.u16(u.stageMask);
    w.u32(u.members.length);
    for (const m of u.members) {
      w.u8(m.name.length);
      for (const c of m.name) w.u8(c.charCodeAt(0));
      w.u16(m.offset);
      w.u8(m.baseType);
      w.u8(m.dims[0]);
      w.u8(m.dims[1]);
      w.u8(m.arraySize);
    }
  }
  w.u32(reflection.subpassInputs.length);
  for (const s of reflection.subpassInputs) {
    w.u8(s.texelType);
    w.u8(s.components);
    w.u16(0);
  }
  for (const s of VBC_STAGES) {
    const b = stages[s];
    if (b) w.bytes(b.subarray(0, Math.floor(b.length / 4) * 4));
  }
  return w.result();
}

/** True when the bytes start with the VBC magic (a SPIR-V module starts with 03 02 23 07 or 07 23 02 03). */
export function isVbc(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0x56 && bytes[1] === 0x42 && bytes[2] === 0x43;
}
