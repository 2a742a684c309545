import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { strataError, StrataRequestError } from '../../shared/errors/strata-error';
import type { ShaderDisassembly } from '../../shared/shader/shader-disassembly';
import { disassembleSpirv } from '../../shared/shader/spirv-disassembler';
import type { ShaderInspection } from '../../shared/shader/shader-inspection';
import { inspectSpirv } from '../../shared/shader/spirv-inspect';
import { inspectVbc, isVbc, packVbc, type PackedVbc, type VbcStageInput } from '../../shared/shader/vbc';
import type { VbcStage } from '../../shared/shader/vbc-enums';
import { SHADER_BYTES_LIMIT, type ShaderInspectBytes } from '../../shared/shader/shader-inspect-bytes';

async function readSpirvFile(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
    throw new StrataRequestError(
      strataError('shader/unreadable', `Cannot read the SPIR-V file: ${code}`, {
        where: path,
        fix: code === 'ENOENT' ? 'check the path' : code === 'EISDIR' ? 'name a .spv file, not a folder' : 'check the file’s permissions',
      }),
    );
  }
}

/** Reads a SPIR-V file (I/O here, decoding in shared/) and disassembles it like `spirv-dis --raw-id`. */
export async function disassembleShaderFile(request: { path: string }): Promise<ShaderDisassembly> {
  const path = resolve(request.path);
  return disassembleBytes(path, await readSpirvFile(path));
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
function disassembleBytes(path: string, bytes: Uint8Array): ShaderDisassembly {
  const { text, diagnostics, ok } = disassembleSpirv(bytes);
  // LSP 3.18 allows MarkupContent messages; ours are plain strings, and the contract says so.
  return { path, ok, text, diagnostics: diagnostics.map((d) => ({ ...d, message: typeof d.message === 'string' ? d.message : d.message.value })) };
}

function inspectBytes(path: string, bytes: Uint8Array): ShaderInspection {
  // A VBC file is told apart by its magic ("VBC"), whatever its name ends in.
  return { path, ...(isVbc(bytes) ? inspectVbc(bytes) : inspectSpirv(bytes)) };
}

/**
 * Reads SPIR-V stage files and packs them into a VBC file at `output` (temp file, then rename, so a
 * failed pack never leaves half a file). Nothing is written when the stages do not validate or link.
 */
export async function packShaderFiles(request: { stages: Partial<Record<VbcStage, string>>; output: string }): Promise<Omit<PackedVbc, 'bytes'> & { output: string | null; byteLength: number }> {
  const stages: VbcStageInput = {};
  for (const [stage, path] of Object.entries(request.stages)) if (path) stages[stage as VbcStage] = await readSpirvFile(resolve(path));
  const packed = packVbc(stages);
  if (!packed.bytes) return { ok: false, reflection: null, diagnostics: packed.diagnostics, output: null, byteLength: 0 };
  const output = resolve(request.output);
  const temp = `${output}.${process.pid}.tmp`;
  try {
    await writeFile(temp, packed.bytes);
    await rename(temp, output);
  } catch (e) {
    await rm(temp, { force: true });
    throw new StrataRequestError(strataError('shader/unwritable', `Cannot write the VBC file: ${(e as NodeJS.ErrnoException).code ?? 'EIO'}`, { where: output, fix: 'check the folder exists and is writable' }));
  }
  return { ok: true, reflection: packed.reflection, diagnostics: packed.diagnostics, output, byteLength: packed.bytes.length };
}

/** Decodes a module sent as base64 (the contract has checked its alphabet and size) and answers inspect + disassembly. */
export function inspectShaderBytes(request: { name: string; base64: string }): ShaderInspectBytes {
  const bytes = new Uint8Array(Buffer.from(request.base64, 'base64'));
  if (bytes.length > SHADER_BYTES_LIMIT) {
    throw new StrataRequestError(
      strataError('shader/too-large', `The module is ${bytes.length} bytes; Strata inspects modules up to ${SHADER_BYTES_LIMIT} bytes`, { where: request.name, fix: 'run `strata shader inspect FILE` on the machine that has the file' }),
    );
  }
  return { ...inspectBytes(request.name, bytes), disassembly: disassembleBytes(request.name, bytes).text };
}
