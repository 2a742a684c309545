import { create } from 'zustand';
import { strataError } from '../../../shared/errors/strata-error';
import type { ShaderInspectBytes } from '../../../shared/shader/shader-inspect-bytes';
import { SHADER_BYTES_LIMIT } from '../../../shared/shader/shader-bytes-limit';
import type { ShaderPackResult } from '../../../shared/shader/shader-pack';
import type { VbcStage } from '../../../shared/shader/vbc-enums';
import { toStrataError, type RequestState } from '../requests/request-state';
import { base64FromDataUrl, formatBytes } from './file-base64';
import type { ShaderTab } from './shader-tabs';
import { strataApi } from '../strata-bridge';

/**
 * The file open in the Shaders panel (a SPIR-V module or a VBC file) and the Pack VBC dialog. Files
 * are read here (FileReader → base64) and sent to main with `shader.inspectBytes` / `shader.pack`,
 * which work in both hosts: the browser cannot name a path.
 */
export type IdMode = 'friendly' | 'raw';

export interface PackedFile {
  name: string;
  base64: string;
}

interface ShadersState {
  file: { name: string; size: number } | null;
  module: RequestState<ShaderInspectBytes>;
  tab: ShaderTab;
  /** The Disassembly tab's search text. */
  query: string;
  /** Friendly names (plain spirv-dis) or raw ids (spirv-dis --raw-id). */
  idMode: IdMode;
  /** A VBC file's stage shown in the Interface, Bindings and Disassembly tabs (null: the first). */
  stage: VbcStage | null;
  /** The VBC file the Pack dialog made and opened, for the download link. */
  packed: PackedFile | null;
  open(file: File): Promise<void>;
  /** Opens bytes that are already base64 (a packed VBC file). */
  openBase64(name: string, base64: string, size: number): Promise<void>;
  pack(name: string, stages: Partial<Record<VbcStage, File>>): Promise<RequestState<ShaderPackResult>>;
  setTab(tab: ShaderTab): void;
  setQuery(query: string): void;
  setIdMode(mode: IdMode): void;
  setStage(stage: VbcStage): void;
}

export function readAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const base64 = typeof reader.result === 'string' ? base64FromDataUrl(reader.result) : null;
      if (base64 === null) reject(new Error('the browser did not return the file as base64'));
      else resolve(base64);
    };
    reader.onerror = () => reject(reader.error ?? new Error('the browser could not read the file'));
    reader.readAsDataURL(file);
  });
}

const tooLarge = (name: string, size: number) =>
  strataError('shader/too-large', `${name} is ${formatBytes(size)}; Strata inspects modules up to ${formatBytes(SHADER_BYTES_LIMIT)}`, {
    fix: 'run `strata shader inspect FILE` on the command line',
  });

export const useShaders = create<ShadersState>()((set, get) => {
  // A second file opened while the first is still being read wins.
  let latest = 0;
  const inspect = async (ticket: number, name: string, base64: () => Promise<string>) => {
    let next: RequestState<ShaderInspectBytes>;
    try {
      next = { status: 'ready', value: await strataApi().call('shader.inspectBytes', { name, base64: await base64() }) };
    } catch (e) {
      next = { status: 'error', error: toStrataError(e, 'shader.inspectBytes') };
    }
    if (ticket === latest) set({ module: next, stage: null });
  };
  return {
    file: null,
    module: { status: 'idle' },
    tab: 'summary',
    query: '',
    idMode: 'friendly',
    stage: null,
    packed: null,
    async open(file) {
      const ticket = ++latest;
      set({ file: { name: file.name, size: file.size }, module: { status: 'loading' }, packed: null });
      if (file.size > SHADER_BYTES_LIMIT) {
        set({ module: { status: 'error', error: tooLarge(file.name, file.size) } });
        return;
      }
      await inspect(ticket, file.name, () => readAsBase64(file));
    },
    async openBase64(name, base64, size) {
      const ticket = ++latest;
      set({ file: { name, size }, module: { status: 'loading' }, packed: { name, base64 }, tab: 'summary' });
      await inspect(ticket, name, async () => base64);
    },
    async pack(name, files) {
      const stages: Partial<Record<VbcStage, string>> = {};
      try {
        for (const [stage, file] of Object.entries(files) as [VbcStage, File][]) {
          if (file.size > SHADER_BYTES_LIMIT) return { status: 'error', error: tooLarge(file.name, file.size) };
          stages[stage] = await readAsBase64(file);
        }
        const result = await strataApi().call('shader.pack', { stages });
        if (result.ok && result.base64 !== null) await get().openBase64(name, result.base64, result.byteLength);
        return { status: 'ready', value: result };
      } catch (e) {
        return { status: 'error', error: toStrataError(e, 'shader.pack') };
      }
    },
    setTab: (tab) => set({ tab }),
    setQuery: (query) => set({ query }),
    setIdMode: (idMode) => set({ idMode }),
    setStage: (stage) => set({ stage }),
  };
});
