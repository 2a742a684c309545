import { create } from 'zustand';

/** The diagnostic whose source is open in the Problems panel (a problemKey), or none. */
interface ProblemsViewState {
  selected: string | null;
  select(key: string | null): void;
}

export const useProblemsView = create<ProblemsViewState>()((set) => ({
  selected: null,
  select: (selected) => set({ selected }),
}));
