import { promises as fsPromises } from 'node:fs';
import { GuardedReadError, readGuarded } from '../platform/guarded-read';
import { resolve } from 'node:path';
import { serviceError } from '../../shared/errors/strata-error';
import type { ShaderDisassembly } from '../../shared/shader/shader-disassembly';
import { disassembleSpirv, disassembleSpirvUtf8, disassemblyTexts, type DisassemblyOptions } from '../../shared/shader/spirv-disassembler';
import { parseSpirv } from '../../shared/shader/spirv-instructions';
import type { ShaderPackResult } from '../../shared/shader/shader-pack';
import { decodeVbc } from '../../shared/shader/vbc-format';
import type { ShaderInspection } from '../../shared/shader/shader-inspection';
import { inspectParsed, inspectSpirv } from '../../shared/shader/spirv-inspect';
import { inspectVbc, packVbc, readAsVbc, type PackedVbc, type VbcStageInput } from '../../shared/shader/vbc';
import { VBC_STAGES, type VbcStage } from '../../shared/shader/vbc-enums';
import type { ShaderInspectBytes } from '../../shared/shader/shader-inspect-bytes';
// The limit from its own module: importing it from shader-inspect-bytes.ts would build that file's
// schemas (zod) in every command that loads this service, `strata shader dis` included.
import { SHADER_BYTES_LIMIT } from '../../shared/shader/shader-bytes-limit';

async function readSpirvFile(path: string): Promise<Uint8Array> {
  try {
    // Guarded: /dev/zero, a FIFO or a 1 GB file is refused before it is read (shared/files/read-limits.ts).
    return new Uint8Array(await readGuarded(path, 'shader'));
  } catch (e) {
    if (e instanceof GuardedReadError) {
      throw serviceError(e.reason === 'too-large' ? 'shader/too-large' : 'shader/unreadable', e.message, {
        where: path,
        fix: e.folder ? 'name a .spv file, not a folder' : e.fix,
      });
    }
    const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
    throw serviceError('shader/unreadable', `Cannot read the SPIR-V file: ${code}`, {
      where: path,
      fix: code === 'ENOENT' ? 'check the path' : code === 'EISDIR' ? 'name a .spv file, not a folder' : 'check the file’s permissions',
    });
  }
}

/** Reads a SPIR-V file (I/O here, decoding in shared/) and disassembles it like `spirv-dis` (or `spirv-dis --raw-id`). */
export async function disassembleShaderFile(request: { path: string; rawIds?: boolean | undefined; utf8?: boolean | undefined }): Promise<ShaderDisassembly> {
  const path = resolve(request.path);
  return disassembleBytes(path, await readSpirvFile(path), { rawIds: request.rawIds ?? false }, request.utf8 ?? false);
}

/** Reads a SPIR-V file and answers its summary, reflection and validation diagnostics (all decoded in shared/). */
export async function inspectShaderFile(request: { path: string }): Promise<ShaderInspection> {
  const path = resolve(request.path);
  return inspectBytes(path, await readSpirvFile(path));
}

/**
 * The part every shader channel shares once the bytes are in hand, wherever they came from (a file
 * main read, or a request's base64). `path` is what the answer names the module by.
 */
function disassembleBytes(path: string, bytes: Uint8Array, options: DisassemblyOptions, utf8 = false): ShaderDisassembly {
  if (readAsVbc(bytes, path)) {
    // A VBC file has no text of its own: each stage's, in file order, under a comment naming it (docs/vbc.md).
    const inspection = inspectVbc(bytes);
    const text = decodeVbc(bytes)
      .stages.map(
        (s) => `; Stage ${s.stage}: bytes ${s.byteOffset}–${s.byteOffset + s.bytes.length - 1} of the file\n${disassembleSpirv(s.bytes, options).text}`,
      )
      .join('\n');
    return { path, ok: inspection.ok, text, diagnostics: inspection.diagnostics, format: 'vbc' };
  }
  const result = utf8 ? disassembleSpirvUtf8(bytes, options) : disassembleSpirv(bytes, options);
  // LSP 3.18 allows MarkupContent messages; ours are plain strings, and the contract says so.
  const diagnostics = result.diagnostics.map((d) => ({ ...d, message: typeof d.message === 'string' ? d.message : d.message.value }));
  return 'utf8' in result ? { path, ok: result.ok, text: '', utf8: result.utf8, diagnostics } : { path, ok: result.ok, text: result.text, diagnostics };
}

function inspectBytes(path: string, bytes: Uint8Array): ShaderInspection {
  // A VBC file is told apart by its magic ("VBC"), whatever its name ends in (or by .vbc, when its magic is damaged).
  return { path, ...(readAsVbc(bytes, path) ? inspectVbc(bytes) : inspectSpirv(bytes)) };
}

/**
 * Reads SPIR-V stage files and packs them into a VBC file at `output` (temp file, then rename, so a
 * failed pack never leaves half a file). Nothing is written when the stages do not validate or link.
 */
export async function packShaderFiles(request: {
  stages: Partial<Record<VbcStage, string>>;
  output: string;
}): Promise<Omit<PackedVbc, 'bytes'> & { output: string | null; byteLength: number }> {
  const stages: VbcStageInput = {};
  for (const [stage, path] of Object.entries(request.stages)) if (path) stages[stage as VbcStage] = await readSpirvFile(resolve(path));
  const packed = packVbc(stages);
  if (!packed.bytes) return { ok: false, reflection: null, diagnostics: packed.diagnostics, output: null, byteLength: 0 };
  const output = resolve(request.output);
  const temp = `${output}.${process.pid}.tmp`;
  try {
    // Through fs.promises, read when `shader pack` writes: as an import, node:fs/promises and its
    // stream internals loaded with every shader command (issue #19).
    await fsPromises.writeFile(temp, packed.bytes);
    await fsPromises.rename(temp, output);
  } catch (e) {
    // The temp file may not exist, nor its folder (-o under a regular file: ENOTDIR); the error to report is the write's.
    await fsPromises.rm(temp, { force: true }).catch(() => undefined);
    throw serviceError('shader/unwritable', `Cannot write the VBC file: ${(e as NodeJS.ErrnoException).code ?? 'EIO'}`, {
      where: output,
      fix: 'check the folder exists and is writable',
    });
  }
  return { ok: true, reflection: packed.reflection, diagnostics: packed.diagnostics, output, byteLength: packed.bytes.length };
}

/** The bytes of a base64 request field (the contract has checked its alphabet and size). */
function decodeBase64(base64: string, name: string): Uint8Array {
  const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
  if (bytes.length > SHADER_BYTES_LIMIT) {
    throw serviceError('shader/too-large', `The module is ${bytes.length} bytes; Strata inspects modules up to ${SHADER_BYTES_LIMIT} bytes`, {
      where: name,
      fix: 'run `strata shader inspect FILE` on the machine that has the file',
    });
  }
  return bytes;
}

/**
 * Decodes a module sent as base64 and answers inspect + both disassembly texts (one parse for all);
 * for a VBC file, each stage's texts.
 */
export function inspectShaderBytes(request: { name: string; base64: string }): ShaderInspectBytes {
  const bytes = decodeBase64(request.base64, request.name);
  if (readAsVbc(bytes, request.name)) {
    const stageDisassemblies = decodeVbc(bytes).stages.map((s) => ({ stage: s.stage, ...disassemblyTexts(parseSpirv(s.bytes)) }));
    return { path: request.name, ...inspectVbc(bytes), disassembly: '', rawDisassembly: '', idNames: [], stageDisassemblies };
  }
  const module = parseSpirv(bytes);
  return { path: request.name, ...inspectParsed(module), ...disassemblyTexts(module) };
}

/** Packs SPIR-V stages sent as base64 into a VBC file answered as base64 (nothing is written here). */
export function packShaderBytes(request: { stages: Partial<Record<VbcStage, string | undefined>> }): ShaderPackResult {
  const stages: VbcStageInput = {};
  for (const stage of VBC_STAGES) {
    const base64 = request.stages[stage];
    if (base64 !== undefined) stages[stage] = decodeBase64(base64, `${stage} stage`);
  }
  const packed = packVbc(stages);
  return {
    ok: packed.ok,
    base64: packed.bytes ? Buffer.from(packed.bytes).toString('base64') : null,
    byteLength: packed.bytes?.length ?? 0,
    reflection: packed.reflection,
    diagnostics: packed.diagnostics.map((d) => ({ ...d, message: typeof d.message === 'string' ? d.message : d.message.value })),
  };
}
