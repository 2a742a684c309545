/**
 * How the layer details word a layers.inspect result (LayerLibraryCard). Pure, unit-tested in
 * tests/unit/renderer-layer-library-labels.test.ts.
 */
import type { LayerInspection, LayersInspectReport } from '../../../shared/vulkan/layer-inspection';
import { libraryViaText } from '../../../shared/vulkan/library-search';

/** The result for this manifest's layer of that name (a name can be defined by several manifests). */
export function inspectionFor(report: LayersInspectReport, manifest: string, name: string | null): LayerInspection | null {
  return report.layers.find((l) => l.manifest === manifest && l.name === name) ?? null;
}

/** "Interface 2, negotiated", "Interface 1, no negotiation", or why the loader cannot use it. */
export function interfaceText(l: LayerInspection): string {
  if (l.libraryPath === null) return 'No library (meta-layer)';
  if (l.interfaceVersion === null) return 'The loader cannot use this library';
  return l.negotiation && l.negotiation.interfaceVersion === l.interfaceVersion
    ? `Interface ${l.interfaceVersion}, negotiated (offered ${l.negotiation.offered})`
    : `Interface ${l.interfaceVersion}, no negotiation`;
}

/** Where the library is and how it was found: "…/libVkLayer_khronos_validation.so · found in the ld.so cache". */
export function libraryText(l: LayerInspection): { path: string | null; how: string | null } {
  const path = l.library ?? l.resolution?.path ?? l.libraryPath;
  return { path, how: l.resolution ? libraryViaText(l.resolution.via) : null };
}

export interface SymbolLine {
  key: string;
  /** The Vulkan function (or a count, for extension entrypoints). */
  label: string;
  /** The symbol looked up, when it differs from the function's name. */
  symbol: string | null;
  /** 'info': a count, neither good nor bad. */
  state: 'exported' | 'missing' | 'not-looked-up' | 'info';
}

/** The loader's three lookups and the pre-instance functions one by one; extension entrypoints as one count. */
export function symbolLines(l: LayerInspection): SymbolLine[] {
  const state = (exported: boolean | null): SymbolLine['state'] => (exported === null ? 'not-looked-up' : exported ? 'exported' : 'missing');
  const lines: SymbolLine[] = l.symbols
    .filter((s) => s.role !== 'extension-entrypoint')
    .map((s) => ({ key: `${s.role}:${s.function}`, label: s.function, symbol: s.symbol !== s.function ? s.symbol : null, state: state(s.exported) }));
  const entry = l.symbols.filter((s) => s.role === 'extension-entrypoint');
  if (entry.length) {
    const exported = entry.filter((s) => s.exported).length;
    lines.push({
      key: 'entrypoints',
      label: `${entry.length} extension entrypoint${entry.length === 1 ? '' : 's'} (${exported} exported; a layer may hand them out through vkGet*ProcAddr instead)`,
      symbol: null,
      state: entry.some((s) => s.exported === null) ? 'not-looked-up' : 'info',
    });
  }
  return lines;
}
