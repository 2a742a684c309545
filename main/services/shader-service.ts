import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { strataError, StrataRequestError } from '../../shared/errors/strata-error';
import type { ShaderDisassembly } from '../../shared/shader/shader-disassembly';
import { disassembleSpirv } from '../../shared/shader/spirv-disassembler';
import type { ShaderInspection } from '../../shared/shader/shader-inspection';
import { inspectSpirv } from '../../shared/shader/spirv-inspect';

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
  const { text, diagnostics, ok } = disassembleSpirv(await readSpirvFile(path));
  // LSP 3.18 allows MarkupContent messages; ours are plain strings, and the contract says so.
  return { path, ok, text, diagnostics: diagnostics.map((d) => ({ ...d, message: typeof d.message === 'string' ? d.message : d.message.value })) };
}

/** Reads a SPIR-V file and answers its summary, reflection and validation diagnostics (all decoded in shared/). */
export async function inspectShaderFile(request: { path: string }): Promise<ShaderInspection> {
  const path = resolve(request.path);
  return { path, ...inspectSpirv(await readSpirvFile(path)) };
}
