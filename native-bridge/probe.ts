/**
 * The probe process: the only place Strata maps libvulkan, driver and layer libraries. It answers
 * one request per line with one JSON line on stdout: {"id", "ok", "value"|"error"}. Requests come
 * on stdin (a Node child process), or as messages on process.parentPort when Electron started it
 * with utilityProcess.fork (a utility process has no stdin); each message is the same JSON line.
 * Main talks to it through main/bridge-client.ts, which restarts it if a driver crashes it.
 * A probe answers for the environment it was started with (the loader reads VK_DRIVER_FILES,
 * HOME, … at load and instance creation), so requests carry no environment: the client keeps one
 * probe per environment.
 */
import { createInterface } from 'node:readline';
import { queryLoaderVersion } from './loader-library';
import { queryDevices, queryLoaderInfo, VkError } from './vulkan-queries';
import { negotiateDrivers } from './driver-negotiation';
import { inspectLayers } from './layer-inspection';

export const PROBE_PROTOCOL_VERSION = 1;

type Handler = (params: unknown) => unknown;
const handlers: Record<string, Handler> = {
  'loader.version': () => queryLoaderVersion(),
  'loader.info': () => queryLoaderInfo(),
  devices: (params) => queryDevices(params),
  // Maps nothing: lets main tell a slow start from a driver that hangs (main/services/driver-negotiation-service.ts).
  ping: () => ({ pid: process.pid }),
  'drivers.negotiate': (params) => negotiateDrivers(params),
  'layers.inspect': (params) => inspectLayers(params),
};

function reply(message: object) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function answer(line: string) {
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
}

/** Electron's utility-process port (absent under plain Node). */
interface ParentPort {
  on(event: 'message', listener: (message: { data: unknown }) => void): void;
}
const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

if (parentPort) {
  parentPort.on('message', (message) => answer(typeof message.data === 'string' ? message.data : JSON.stringify(message.data)));
} else {
  const rl = createInterface({ input: process.stdin });
  rl.on('line', answer);
  rl.on('close', () => process.exit(0));
}
