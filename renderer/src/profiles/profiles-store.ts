import { create } from 'zustand';
import type { StrataError } from '../../../shared/errors/strata-error';
import type { ChannelName, RequestOf, ResponseOf } from '../../../shared/ipc/contract';
import type { ProfilesList } from '../../../shared/profiles/profile-channels';
import { toStrataError, type RequestState } from '../requests/request-state';
import { strataApi } from '../strata-bridge';
import { useActivity } from '../activity/activity-store';

/** The files an answer says were written or removed (profiles.apply, .bind, .unbind, .rename, .delete). */
function writtenPaths(r: unknown): string[] {
  const o = r as { sync?: { files?: { path: string }[]; removed?: string[] }; result?: { path?: string; settings?: { path?: string } } } | null;
  if (!o || typeof o !== 'object') return [];
  return [...(o.sync?.files?.map((f) => f.path) ?? []), ...(o.sync?.removed ?? []), o.result?.path ?? '', o.result?.settings?.path ?? ''].filter(Boolean);
}

/**
 * The Profiles and Applications panels: the last profiles.list answer, the selected entry, and the
 * outcome of the last action (a sentence, warnings and notes, or an error value). Every change is
 * a call to main followed by a fresh list, so the panel shows what is on disk.
 */
export interface ActionOutcome {
  ok: boolean;
  message: string;
  details: string[];
  error: StrataError | null;
}

interface ProfilesState {
  list: RequestState<ProfilesList>;
  selected: string | null;
  busy: boolean;
  outcome: ActionOutcome | null;
  load(): Promise<void>;
  select(key: string | null): void;
  /** Runs one channel; on success reloads and shows `describe`'s sentence; returns the answer or null. */
  run<C extends ChannelName>(
    channel: C,
    request: RequestOf<C>,
    describe: (r: ResponseOf<C>) => { message: string; details?: string[]; select?: string | null },
  ): Promise<ResponseOf<C> | null>;
  clearOutcome(): void;
}

export const useProfiles = create<ProfilesState>()((set, get) => ({
  list: { status: 'idle' },
  selected: null,
  busy: false,
  outcome: null,
  load: async () => {
    if (get().list.status !== 'ready') set({ list: { status: 'loading' } });
    try {
      const value = await strataApi().call('profiles.list', {});
      const selected = get().selected;
      const stillThere = selected === null || selected.startsWith('preset:') || value.profiles.some((p) => `profile:${p.name}` === selected);
      set({ list: { status: 'ready', value }, ...(stillThere ? {} : { selected: null }) });
    } catch (e) {
      set({ list: { status: 'error', error: toStrataError(e, 'profiles.list') } });
    }
  },
  select: (selected) => set({ selected }),
  run: async (channel, request, describe) => {
    set({ busy: true });
    try {
      // What Strata wrote (noted before the write ends): its discovery.changed is no news; the status strip reads it again.
      const r = await useActivity.getState().writing(async () => {
        const answer = await strataApi().call(channel, request);
        useActivity.getState().noteWrites(writtenPaths(answer));
        return answer;
      });
      void useActivity.getState().load();
      const d = describe(r);
      // The list first, then the outcome: what the message names is already shown when it appears.
      if (d.select !== undefined) set({ selected: d.select });
      await get().load();
      set({ outcome: { ok: true, message: d.message, details: d.details ?? [], error: null } });
      return r;
    } catch (e) {
      const error = toStrataError(e, channel);
      set({ outcome: { ok: false, message: error.message, details: [], error } });
      return null;
    } finally {
      set({ busy: false });
    }
  },
  clearOutcome: () => set({ outcome: null }),
}));
