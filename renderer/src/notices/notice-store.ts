import { create } from 'zustand';
import { addNotice, removeNotice, type Notice, type NoticeLevel } from './notice-list';

interface NoticeState {
  notices: Notice[];
  show(level: NoticeLevel, message: string): void;
  dismiss(id: number): void;
}

let nextId = 1;

export const useNotices = create<NoticeState>()((set) => ({
  notices: [],
  show: (level, message) => set((s) => ({ notices: addNotice(s.notices, { id: nextId++, level, message }) })),
  dismiss: (id) => set((s) => ({ notices: removeNotice(s.notices, id) })),
}));
