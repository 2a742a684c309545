import { create } from 'zustand';
import { strataError } from '../../../shared/errors/strata-error';
import { SHADER_BYTES_LIMIT, type ShaderInspectBytes } from '../../../shared/shader/shader-inspect-bytes';
import { toStrataError, type RequestState } from '../requests/request-state';
import { base64FromDataUrl, formatBytes } from '../shaders/file-base64';
import type { ShaderTab } from '../shaders/shader-tabs';
import { strataApi } from '../strata-bridge';

/**
 * The module open in the Shaders panel. The file is read here (FileReader → base64) and sent to
 * main with `shader.inspectBytes`, which works in both hosts: the browser cannot name a path.
 */
interface ShadersState {
  file: { name: string; size: number } | null;
  module: RequestState<ShaderInspectBytes>;
  tab: ShaderTab;
  /** The Disassembly tab's search text. */
  query: string;
  open(file: File): Promise<void>;
  setTab(tab: ShaderTab): void;
  setQuery(query: string): void;
}

function readAsBase64(file: Blob): Promise<string> {
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

export const useShaders = create<ShadersState>()((set) => {
  // A second file opened while the first is still being read wins.
  let latest = 0;
  return {
    file: null,
    module: { status: 'idle' },
    tab: 'summary',
    query: '',
    async open(file) {
      const ticket = ++latest;
      set({ file: { name: file.name, size: file.size }, module: { status: 'loading' } });
      let next: RequestState<ShaderInspectBytes>;
      if (file.size > SHADER_BYTES_LIMIT) {
        next = {
          status: 'error',
          error: strataError('shader/too-large', `${file.name} is ${formatBytes(file.size)}; Strata inspects modules up to ${formatBytes(SHADER_BYTES_LIMIT)}`, {
            fix: 'run `strata shader inspect FILE` on the command line',
          }),
        };
      } else {
        try {
          const base64 = await readAsBase64(file);
          next = { status: 'ready', value: await strataApi().call('shader.inspectBytes', { name: file.name, base64 }) };
        } catch (e) {
          next = { status: 'error', error: toStrataError(e, 'shader.inspectBytes') };
        }
      }
      if (ticket === latest) set({ module: next });
    },
    setTab: (tab) => set({ tab }),
    setQuery: (query) => set({ query }),
  };
});
