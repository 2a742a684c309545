/**
 * The probe process: the only place Strata maps libvulkan and driver libraries. It answers one
 * request per line on stdin with one JSON line on stdout: {"id", "ok", "value"|"error"}.
 * Main talks to it through main/bridge-client.ts, which restarts it if a driver crashes it.
 * A probe answers for the environment it was started with (the loader reads VK_DRIVER_FILES,
 * HOME, … at load and instance creation), so requests carry no environment: the client keeps one
 * probe per environment.
 */
import { createInterface } from 'node:readline';
import { queryLoaderVersion } from './loader-library';
import { queryDevices, queryLoaderInfo, VkError } from './vulkan-queries';
import { negotiateDrivers } from './driver-negotiation';

export const PROBE_PROTOCOL_VERSION = 1;

type Handler = (params: unknown) => unknown;
const handlers: Record<string, Handler> = {
  'loader.version': () => queryLoaderVersion(),
  'loader.info': () => queryLoaderInfo(),
  devices: () => queryDevices(),
  // Maps nothing: lets main tell a slow start from a driver that hangs (main/services/driver-negotiation-service.ts).
  ping: () => ({ pid: process.pid }),
  'drivers.negotiate': (params) => negotiateDrivers(params),
};

function reply(message: object) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let id: unknown = null;
  try {
    const request = JSON.parse(line) as { id?: unknown; method?: unknown; params?: unknown };
    id = request.id ?? null;
    const handler = typeof request.method === 'string' ? handlers[request.method] : undefined;
    if (!handler) {
      reply({ id, ok: false, error: { code: 'bridge/unknown-method', message: `Unknown probe method ${String(request.method)}` } });
      return;
    }
    reply({ id, ok: true, value: handler(request.params) });
  } catch (e) {
    const { code, fix } = e instanceof VkError ? e : { code: 'bridge/failed', fix: undefined };
    reply({ id, ok: false, error: { code, message: e instanceof Error ? e.message : String(e), where: 'native-bridge probe', ...(fix ? { fix } : {}) } });
  }
});
rl.on('close', () => process.exit(0));
