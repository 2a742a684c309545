import { formatTable } from './cli-output';
import { formatStrataError } from '../../../shared/errors/strata-error';
import type { LayerInspection, LayersInspectReport } from '../../../shared/vulkan/layer-inspection';
import { libraryViaText } from '../../../shared/vulkan/library-search';

/** The human form of `strata layer inspect` (loaded with the command: library-search.ts brings zod). */

const ROLE_SHORT: Readonly<Record<string, string>> = {
  negotiate: 'negotiate',
  'get-instance-proc-addr': 'GIPA',
  'get-device-proc-addr': 'GDPA',
};

/** "negotiate,GIPA,GDPA 1/1 pre-instance 10 entrypoints (0 exported)": the exported loader functions by short name, then the counts. */
function exportsCell(l: LayerInspection): string {
  if (l.symbols.length && l.symbols.every((s) => s.exported === null)) return '—';
  const core = l.symbols.filter((s) => ROLE_SHORT[s.role] && s.exported).map((s) => `${ROLE_SHORT[s.role]}${s.symbol !== s.function ? `=${s.symbol}` : ''}`);
  const pre = l.symbols.filter((s) => s.role === 'pre-instance');
  const entry = l.symbols.filter((s) => s.role === 'extension-entrypoint');
  const parts = [core.join(',') || 'none'];
  if (pre.length) parts.push(`${pre.filter((s) => s.exported).length}/${pre.length} pre-instance`);
  if (entry.length) parts.push(`${entry.length} entrypoints (${entry.filter((s) => s.exported).length} exported)`);
  return parts.join(' ');
}

function libraryCell(l: LayerInspection): string {
  if (l.libraryPath === null) return '—';
  const file = l.library ?? l.resolution?.path ?? l.libraryPath;
  return l.resolution && l.resolution.via !== 'absolute' ? `${file} (${libraryViaText(l.resolution.via)})` : file;
}

function interfaceCell(l: LayerInspection): string {
  if (l.interfaceVersion === null) return l.negotiation?.result ?? '—';
  return l.negotiation ? String(l.interfaceVersion) : `${l.interfaceVersion} (no negotiation)`;
}

/** `strata layer inspect`: one row per layer, then every error and warning with its fix. */
export function formatLayersInspection(report: LayersInspectReport): string {
  const lines: string[] = [];
  if (report.layers.length === 0) lines.push('No layers to inspect. Run `strata layer list` to see what the loader finds.');
  else {
    lines.push(
      `Loader–layer interface version offered: ${report.offeredInterfaceVersion}`,
      '',
      formatTable(
        ['LAYER', 'TYPE', 'LIBRARY', 'EXPORTS', 'INTERFACE', 'RESULT', 'TIME'],
        report.layers.map((l) => [
          l.name ?? '(no name)',
          l.kind,
          libraryCell(l),
          exportsCell(l),
          interfaceCell(l),
          l.ok ? (l.warnings.length ? `ok, ${l.warnings.length} warning${l.warnings.length > 1 ? 's' : ''}` : 'ok') : (l.error?.code ?? 'failed'),
          `${Math.round(l.elapsedMs)} ms`,
        ]),
        '  ',
      ),
    );
  }
  const errors = report.layers.filter((l) => l.error);
  if (errors.length || report.notFound.length) {
    lines.push('', 'Problems:');
    for (const name of report.notFound) lines.push(`  No discovered layer manifest defines ${name}. Fix: check the name with \`strata layer list\``);
    for (const l of errors) lines.push(`  ${formatStrataError(l.error!)}`);
  }
  const warnings = report.layers.flatMap((l) => l.warnings);
  if (warnings.length) {
    lines.push('', 'Warnings:');
    for (const w of warnings) lines.push(`  ${formatStrataError(w)}`);
  }
  return lines.join('\n');
}
