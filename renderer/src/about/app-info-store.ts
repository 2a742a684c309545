import { create } from 'zustand';
import type { AppInfo } from '../../../shared/app/app-info';
import type { EnvSummary } from '../../../shared/loader/environment-summary';
import type { ChannelName, RequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { toStrataError, type RequestState } from '../requests/request-state';
import { strataApi } from '../strata-bridge';

interface AppInfoState {
  appInfo: RequestState<AppInfo>;
  envSummary: RequestState<EnvSummary>;
  loadAppInfo(): Promise<void>;
  loadEnvSummary(): Promise<void>;
}

type Slot = 'appInfo' | 'envSummary';

export const useAppInfo = create<AppInfoState>()((set) => {
  // A retry while an older call is still out must not be overwritten by that older answer.
  const latest: Record<Slot, number> = { appInfo: 0, envSummary: 0 };

  // Both channels take an empty request; the cast is only for the generic signature.
  async function load<C extends ChannelName>(slot: Slot, channel: C) {
    const ticket = ++latest[slot];
    set({ [slot]: { status: 'loading' } } as Partial<AppInfoState>);
    let next: RequestState<ResponseOf<C>>;
    try {
      next = { status: 'ready', value: await strataApi().call(channel, {} as RequestOf<C>) };
    } catch (e) {
      next = { status: 'error', error: toStrataError(e, channel) };
    }
    if (ticket === latest[slot]) set({ [slot]: next } as Partial<AppInfoState>);
  }

  return {
    appInfo: { status: 'idle' },
    envSummary: { status: 'idle' },
    loadAppInfo: () => load('appInfo', 'app.info'),
    loadEnvSummary: () => load('envSummary', 'env.summary'),
  };
});
