import { create } from 'zustand';
import type { ChannelName, ResponseOf } from '../../../shared/ipc/contract';
import type { DevicesReport } from '../../../shared/vulkan/devices';
import type { DriversNegotiateReport } from '../../../shared/vulkan/driver-negotiation';
import type { LoaderInfo } from '../../../shared/vulkan/loader-info';
import { refreshAnnouncement } from './device-labels';
import { valueOf, whileRefreshing } from '../requests/refresh-state';
import { toStrataError, type RequestState } from '../requests/request-state';
import { strataApi } from '../strata-bridge';

interface DriversDevicesState {
  loader: RequestState<LoaderInfo>;
  devices: RequestState<DevicesReport>;
  drivers: RequestState<DriversNegotiateReport>;
  /** A refresh is out; the view sets aria-busy and spins the Refresh button. */
  busy: boolean;
  /** What the polite live region last said ("Updated: 1 driver; 1 physical device."). */
  announcement: string;
  /** Asks all three channels again; a call while one is out joins it instead of starting another. */
  refresh(): Promise<void>;
}

type Slot = 'loader' | 'devices' | 'drivers';

/** The three calls the panel makes, each answered (and shown) as soon as it arrives. */
const CALLS: readonly { slot: Slot; channel: ChannelName; label: string }[] = [
  { slot: 'loader', channel: 'loader.info', label: 'loader information' },
  { slot: 'devices', channel: 'devices.list', label: 'physical devices' },
  { slot: 'drivers', channel: 'drivers.negotiate', label: 'drivers' },
];

export const useDriversDevices = create<DriversDevicesState>()((set, get) => {
  let inFlight: Promise<void> | null = null;

  async function load<C extends ChannelName>(slot: Slot, channel: C): Promise<boolean> {
    let next: RequestState<ResponseOf<C>>;
    try {
      // Every one of these channels takes an optional request; {} asks in the host's own environment.
      next = { status: 'ready', value: await strataApi().call(channel, {} as never) };
    } catch (e) {
      next = { status: 'error', error: toStrataError(e, channel) };
    }
    set({ [slot]: next } as Partial<DriversDevicesState>);
    return next.status === 'ready';
  }

  async function run(): Promise<void> {
    const s = get();
    set({
      busy: true,
      announcement: 'Refreshing drivers and devices…',
      loader: whileRefreshing(s.loader),
      devices: whileRefreshing(s.devices),
      drivers: whileRefreshing(s.drivers),
    });
    const results = await Promise.all(CALLS.map((c) => load(c.slot, c.channel)));
    const done = get();
    set({
      busy: false,
      announcement: refreshAnnouncement({
        devices: valueOf(done.devices),
        drivers: valueOf(done.drivers)?.drivers ?? null,
        failed: CALLS.filter((_, i) => !results[i]).map((c) => c.label),
      }),
    });
  }

  return {
    loader: { status: 'idle' },
    devices: { status: 'idle' },
    drivers: { status: 'idle' },
    busy: false,
    announcement: '',
    refresh() {
      inFlight ??= run().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
  };
});
