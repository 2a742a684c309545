import { create } from 'zustand';
import type { StrataError } from '../../../shared/errors/strata-error';
import type { SessionDiff } from '../../../shared/sessions/session-diff';
import type { SessionList, SessionOpen, SessionSummary } from '../../../shared/sessions/session-ipc';
import type { LineSource, SessionFooter, Severity } from '../../../shared/sessions/session-records';
import { downloadText } from '../files/download-file';
import { toStrataError, type RequestState } from '../requests/request-state';
import { launchRequest, type LaunchForm } from './launch-request';
import { appendLive, emptyLiveLog, type LiveLog } from './live-log';
import { hasStrataApi, strataApi } from '../strata-bridge';

/**
 * The Sessions panel: the Launcher form, the live log of the launch in progress (fed by the
 * `session.*` events), the history of sessions, one opened session, and a comparison of two.
 */
export type SessionsTab = 'launch' | 'history';

export interface LogFilters {
  sources: LineSource[];
  severities: Severity[];
  text: string;
}

export interface LiveSession {
  summary: SessionSummary;
  log: LiveLog;
  footer: SessionFooter | null;
}

interface SessionsState {
  tab: SessionsTab;
  form: LaunchForm;
  starting: boolean;
  startError: StrataError | null;
  live: LiveSession | null;
  /** The live view shows records up to this seq while paused. */
  pausedAt: number | null;
  follow: boolean;
  filters: LogFilters;
  list: RequestState<SessionList>;
  opened: RequestState<SessionOpen>;
  /** Two sessions picked for comparison (a first, b second). */
  compare: string[];
  diff: RequestState<SessionDiff>;
  actionError: StrataError | null;
  setTab(tab: SessionsTab): void;
  setForm(patch: Partial<LaunchForm>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  setPaused(paused: boolean): void;
  setFollow(follow: boolean): void;
  setFilters(patch: Partial<LogFilters>): void;
  loadList(): Promise<void>;
  open(id: string): Promise<void>;
  closeOpened(): void;
  toggleCompare(id: string): void;
  runDiff(): Promise<void>;
  remove(id: string): Promise<void>;
  exportSession(id: string, format: 'json' | 'html'): Promise<void>;
  /** Subscribes to the session events once (the panel calls it on mount; a launch too). */
  listen(): void;
}

export const ALL_SOURCES: readonly LineSource[] = ['app', 'loader', 'validation'];
export const ALL_SEVERITIES: readonly Severity[] = ['error', 'warning', 'info', 'perf', 'debug', 'verbose'];

export const useSessions = create<SessionsState>()((set, get) => {
  let listening = false;
  // Events can overtake the launch.start answer (they come on another connection): what arrives for
  // a session not yet shown waits here until its summary does.
  const early = new Map<string, { log: LiveLog; footer: SessionFooter | null }>();
  const earlyFor = (id: string) => {
    let e = early.get(id);
    if (!e) {
      if (early.size >= 8) early.delete(early.keys().next().value!);
      early.set(id, (e = { log: emptyLiveLog(), footer: null }));
    }
    return e;
  };
  const show = (summary: SessionSummary) => {
    const e = early.get(summary.id);
    early.delete(summary.id);
    const footer = e?.footer ?? null;
    const shown = footer ? { ...summary, status: 'ended' as const, exit: footer.exit, durationMs: footer.durationMs, counts: footer.counts } : summary;
    set({ live: { summary: shown, log: e?.log ?? emptyLiveLog(), footer }, pausedAt: null, follow: true });
  };
  return {
    tab: 'launch',
    form: { commandLine: '', cwd: '', profile: '', loaderDebug: '', timeout: '', env: '' },
    starting: false,
    startError: null,
    live: null,
    pausedAt: null,
    follow: true,
    filters: { sources: [...ALL_SOURCES], severities: [], text: '' },
    list: { status: 'idle' },
    opened: { status: 'idle' },
    compare: [],
    diff: { status: 'idle' },
    actionError: null,
    setTab: (tab) => set({ tab }),
    setForm: (patch) => set({ form: { ...get().form, ...patch } }),
    listen: () => {
      if (listening || !hasStrataApi()) return;
      listening = true;
      const api = strataApi();
      api.on('session.started', ({ summary }) => {
        // A launch from another window or host of this Strata shows here too, unless one is running.
        const live = get().live;
        if (live?.summary.id === summary.id) return;
        if (!live || live.footer || get().starting) show(summary);
      });
      api.on('session.lines', ({ id, records, dropped }) => {
        const live = get().live;
        if (live?.summary.id !== id) {
          const e = earlyFor(id);
          e.log = appendLive(e.log, records, dropped);
          return;
        }
        set({ live: { ...live, log: appendLive(live.log, records, dropped) } });
      });
      api.on('session.ended', ({ id, footer }) => {
        const live = get().live;
        if (live?.summary.id === id)
          set({
            live: { ...live, footer, summary: { ...live.summary, status: 'ended', exit: footer.exit, durationMs: footer.durationMs, counts: footer.counts } },
          });
        else earlyFor(id).footer = footer;
        void get().loadList();
      });
    },
    start: async () => {
      const built = launchRequest(get().form);
      if (!built.ok) {
        set({ startError: built.error });
        return;
      }
      get().listen();
      set({ starting: true, startError: null });
      try {
        const r = await strataApi().call('launch.start', built.request);
        set({ starting: false });
        // session.started may have arrived first and already shows it.
        if (get().live?.summary.id === r.id) return;
        const summary: SessionSummary = {
          id: r.id,
          file: r.file,
          sizeBytes: 0,
          command: r.header.application.command,
          args: r.header.application.args,
          cwd: r.header.application.cwd,
          profile: r.header.profile?.name ?? null,
          loaderDebug: r.header.loaderDebug,
          startedAt: r.header.startedAt,
          startWall: r.header.startWall,
          status: 'running',
          exit: null,
          durationMs: null,
          counts: null,
        };
        show(summary);
      } catch (e) {
        set({ starting: false, startError: toStrataError(e, 'launch.start') });
      }
    },
    stop: async () => {
      const live = get().live;
      if (!live || live.footer) return;
      try {
        await strataApi().call('launch.stop', { id: live.summary.id });
      } catch (e) {
        set({ actionError: toStrataError(e, 'launch.stop') });
      }
    },
    setPaused: (paused) => {
      const live = get().live;
      const last = live?.log.records.at(-1)?.seq ?? 0;
      set({ pausedAt: paused ? last : null, follow: paused ? false : get().follow });
    },
    setFollow: (follow) => set({ follow }),
    setFilters: (patch) => set({ filters: { ...get().filters, ...patch } }),
    loadList: async () => {
      if (get().list.status !== 'ready') set({ list: { status: 'loading' } });
      try {
        const value = await strataApi().call('sessions.list', {});
        const ids = new Set(value.sessions.map((s) => s.id));
        set({ list: { status: 'ready', value }, compare: get().compare.filter((id) => ids.has(id)) });
      } catch (e) {
        set({ list: { status: 'error', error: toStrataError(e, 'sessions.list') } });
      }
    },
    open: async (id) => {
      set({ opened: { status: 'loading' }, tab: 'history' });
      try {
        set({ opened: { status: 'ready', value: await strataApi().call('sessions.open', { id, limit: 50_000 }) } });
      } catch (e) {
        set({ opened: { status: 'error', error: toStrataError(e, 'sessions.open') } });
      }
    },
    closeOpened: () => set({ opened: { status: 'idle' } }),
    toggleCompare: (id) => {
      const c = get().compare;
      set({ compare: c.includes(id) ? c.filter((x) => x !== id) : [...c, id].slice(-2), diff: { status: 'idle' } });
    },
    runDiff: async () => {
      const [a, b] = get().compare;
      if (!a || !b) return;
      set({ diff: { status: 'loading' } });
      try {
        set({ diff: { status: 'ready', value: await strataApi().call('sessions.diff', { a, b }) } });
      } catch (e) {
        set({ diff: { status: 'error', error: toStrataError(e, 'sessions.diff') } });
      }
    },
    remove: async (id) => {
      try {
        await strataApi().call('sessions.delete', { id });
        const opened = get().opened;
        if (opened.status === 'ready' && opened.value.header.id === id) set({ opened: { status: 'idle' } });
        set({ actionError: null });
        await get().loadList();
      } catch (e) {
        set({ actionError: toStrataError(e, 'sessions.delete') });
      }
    },
    exportSession: async (id, format) => {
      try {
        const r = await strataApi().call('sessions.export', { id, format });
        downloadText(r.fileName, r.text, r.mediaType);
        set({ actionError: null });
      } catch (e) {
        set({ actionError: toStrataError(e, 'sessions.export') });
      }
    },
  };
});
