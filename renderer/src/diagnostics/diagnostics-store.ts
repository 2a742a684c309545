import { create } from 'zustand';

/** What the Diagnostics view was asked: kept while the user visits other views (a file link, a rule's problem) and comes back. */
interface DiagnosticsState {
  target: 'system' | 'app';
  command: string;
  /** VK_LOADER_DEBUG for the run. */
  level: string;
  /** The session of the last run started here. */
  ranId: string | null;
  set(patch: Partial<Omit<DiagnosticsState, 'set'>>): void;
}

export const useDiagnostics = create<DiagnosticsState>()((set) => ({
  target: 'system',
  command: '',
  level: 'error,warn,info,layer,driver',
  ranId: null,
  set: (patch) => set(patch),
}));
