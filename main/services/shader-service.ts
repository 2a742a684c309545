import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { strataError, StrataRequestError } from '../../shared/errors/strata-error';
import type { ShaderDisassembly } from '../../shared/shader/shader-disassembly';
import { disassembleSpirv } from '../../shared/shader/spirv-disassembler';

/** Reads a SPIR-V file (I/O here, decoding in shared/) and disassembles it like `spirv-dis --raw-id`. */
export async function disassembleShaderFile(request: { path: string }): Promise<ShaderDisassembly> {
  const path = resolve(request.path);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
    throw new StrataRequestError(
      strataError('shader/unreadable', `Cannot read the SPIR-V file: ${code}`, {
        where: path,
        fix: code === 'ENOENT' ? 'check the path' : code === 'EISDIR' ? 'name a .spv file, not a folder' : 'check the file’s permissions',
      }),
    );
  }
  const { text, diagnostics, ok } = disassembleSpirv(bytes);
  // LSP 3.18 allows MarkupContent messages; ours are plain strings, and the contract says so.
  return { path, ok, text, diagnostics: diagnostics.map((d) => ({ ...d, message: typeof d.message === 'string' ? d.message : d.message.value })) };
}
