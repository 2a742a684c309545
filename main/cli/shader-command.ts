import { callChannel } from './cli-channel';
import { EXIT, printJson } from './cli-output';
import type { ShaderDisassembly } from '../../shared/shader/shader-disassembly';

const SEVERITY = ['', 'error', 'warning', 'info', 'hint'];

/** One line per diagnostic, for stderr: "FILE: word N: error: message [code]". */
export function formatSpirvDiagnostics(result: ShaderDisassembly): string {
  return result.diagnostics.map((d) => `${result.path}: word ${d.range.start.character}: ${SEVERITY[d.severity ?? 1]}: ${d.message} [${d.code}]\n`).join('');
}

/**
 * `strata shader dis FILE [--raw-id] [--json]`: the text on stdout (identical to `spirv-dis --raw-id`),
 * diagnostics on stderr; exit 1 when the module has errors. Ids are raw either way until friendly
 * names (from OpName) arrive, so `--raw-id` is accepted for spirv-dis habits and scripts.
 */
export async function shaderDisAction(file: string, opts: { json?: boolean; rawId?: boolean }): Promise<void> {
  const value = await callChannel('shader.disassemble', { path: file });
  if (opts.json) printJson(value);
  else {
    process.stdout.write(value.text);
    process.stderr.write(formatSpirvDiagnostics(value));
  }
  if (!value.ok) process.exitCode = EXIT.problems;
}
