import { create } from 'zustand';
import type { ActivityDisableRequest, ActivityDisableResult, ActivityStatus } from '../../../shared/activity/activity-status';
import type { StrataError } from '../../../shared/errors/strata-error';
import { isOwnChange, noteOwnWrites, type OwnWrites } from './own-writes';
import { toStrataError, type RequestState } from '../requests/request-state';
import { strataApi } from '../strata-bridge';

/**
 * "What is active for whom" (activity.status), read by the status strip in the window frame, the
 * Disable dialog and the Chain panel's application field; re-read after every write of Strata's and
 * every change on disk. Also the record of the files Strata just wrote (own-writes.ts).
 */
export type DisableDialog = { kind: 'closed' } | { kind: 'open'; busy: boolean; error: StrataError | null; result: ActivityDisableResult | null };

interface ActivityState {
  status: RequestState<ActivityStatus>;
  /** The strip's details are open. */
  expanded: boolean;
  disable: DisableDialog;
  ownWrites: OwnWrites;
  load(): Promise<void>;
  setExpanded(expanded: boolean): void;
  openDisable(): void;
  closeDisable(): void;
  runDisable(request: ActivityDisableRequest): Promise<ActivityDisableResult | null>;
  /** Files Strata wrote or removed just now (and their folders): their discovery.changed is not news. */
  noteWrites(paths: readonly string[]): void;
  isOwnChange(change: { paths: readonly string[]; more: number }): boolean;
  /**
   * Runs a write of Strata's: the files Strata has now are noted first (a write may rewrite them, and
   * the watcher may report it before the answer comes), and a change reported meanwhile is judged
   * after the write ends (settled()).
   */
  writing<T>(write: () => Promise<T>): Promise<T>;
  /** Resolves when no write of Strata's is under way (at most 10 s). */
  settled(): Promise<void>;
}

const folderOf = (p: string) => p.replace(/[\\/][^\\/]*$/, '');

export const useActivity = create<ActivityState>()((set, get) => {
  let ticket = 0;
  let inFlight = 0;
  const waiters: (() => void)[] = [];
  return {
    status: { status: 'idle' },
    expanded: false,
    disable: { kind: 'closed' },
    ownWrites: { at: new Map() },

    load: async () => {
      const mine = ++ticket;
      if (get().status.status !== 'ready') set({ status: { status: 'loading' } });
      try {
        const value = await strataApi().call('activity.status', {});
        if (mine === ticket) set({ status: { status: 'ready', value } });
      } catch (e) {
        // A later failure keeps the last answer on screen; the strip says it could not refresh only when it has none.
        if (mine === ticket && get().status.status !== 'ready') set({ status: { status: 'error', error: toStrataError(e, 'activity.status') } });
      }
    },

    setExpanded: (expanded) => set({ expanded }),

    openDisable: () => {
      set({ disable: { kind: 'open', busy: false, error: null, result: null } });
      void get().load();
    },
    closeDisable: () => set({ disable: { kind: 'closed' } }),

    runDisable: async (request) => {
      set({ disable: { kind: 'open', busy: true, error: null, result: null } });
      const before = get().status.status === 'ready' ? (get().status as { value: ActivityStatus }).value.files.map((f) => f.path) : [];
      get().noteWrites(before);
      try {
        const result = await get().writing(async () => {
          const answer = await strataApi().call('activity.disable', request);
          get().noteWrites(answer.removed);
          return answer;
        });
        set({ status: { status: 'ready', value: result.status }, disable: { kind: 'open', busy: false, error: null, result } });
        return result;
      } catch (e) {
        set({ disable: { kind: 'open', busy: false, error: toStrataError(e, 'activity.disable'), result: null } });
        return null;
      }
    },

    writing: async (write) => {
      const s = get().status;
      if (s.status === 'ready') get().noteWrites(s.value.files.filter((f) => f.owner !== 'foreign').map((f) => f.path));
      inFlight++;
      try {
        return await write();
      } finally {
        inFlight--;
        if (inFlight === 0) for (const w of waiters.splice(0)) w();
      }
    },
    settled: () =>
      inFlight === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiters.push(resolve);
            setTimeout(resolve, 10_000);
          }),

    noteWrites: (paths) => set((s) => ({ ownWrites: noteOwnWrites(s.ownWrites, [...paths, ...paths.map(folderOf)], Date.now()) })),
    isOwnChange: (change) => isOwnChange(get().ownWrites, change, Date.now()),
  };
});
