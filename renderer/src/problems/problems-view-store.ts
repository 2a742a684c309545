import { create } from 'zustand';
import type { ProblemOrder } from './problem-groups';

/** The diagnostic whose source is open in the Problems panel (a problemKey), or none; and the order of the files. */
interface ProblemsViewState {
  selected: string | null;
  order: ProblemOrder;
  select(key: string | null): void;
  setOrder(order: ProblemOrder): void;
}

export const useProblemsView = create<ProblemsViewState>()((set) => ({
  selected: null,
  order: 'loader',
  select: (selected) => set({ selected }),
  setOrder: (order) => set({ order }),
}));
