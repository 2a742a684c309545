import { createRouter, type Handlers } from '../../main/router/router';
import type { AppInfo } from '../../shared/app/app-info';
import { activityCountingHandlers, EMPTY_CHAIN, profileCountingHandlers } from './profile-counting-handlers';

export const FAKE_APP_INFO: AppInfo = {
  name: 'Strata',
  version: '9.9.9',
  host: 'cli',
  platform: 'linux',
  arch: 'x64',
  versions: { node: '20', v8: '11', electron: null, chrome: null },
  loader: { found: false, library: 'libvulkan.so.1', reason: 'not installed' },
};

/**
 * Handlers for every channel that record each call, for tests of the hosts and the router: a
 * refused request must leave `calls` untouched. Overrides replace single channels.
 */
export function countingHandlers(overrides: Partial<Handlers> = {}) {
  const calls: string[] = [];
  const handlers: Handlers = {
    'app.info': (_req, ctx) => {
      calls.push('app.info');
      return { ...FAKE_APP_INFO, host: ctx.host };
    },
    'env.summary': () => {
      calls.push('env.summary');
      return { platform: 'linux', variables: [], xdg: null };
    },
    'discovery.paths': () => {
      calls.push('discovery.paths');
      return { platform: { os: 'linux' as const }, elevated: false, home: null, locations: { implicit_layer: [], explicit_layer: [], driver: [] } };
    },
    'loader.info': () => {
      calls.push('loader.info');
      return { library: 'libvulkan.so.1', path: null, apiVersion: 4206831, version: '1.3.239', layers: [], extensions: [] };
    },
    'devices.list': () => {
      calls.push('devices.list');
      return { requestedApiVersion: '1.1.0', enabledExtensions: [], devices: [], driverManifests: null };
    },
    'discovery.manifests': () => {
      calls.push('discovery.manifests');
      return { locations: { implicit_layer: [], explicit_layer: [], driver: [] }, manifests: { implicit_layer: [], explicit_layer: [], driver: [] } };
    },
    'chain.explain': () => {
      calls.push('chain.explain');
      return EMPTY_CHAIN;
    },
    'chain.compare': () => {
      calls.push('chain.compare');
      return { chains: [], same: true, changes: [] };
    },
    'chain.context': () => {
      calls.push('chain.context');
      return { env: {}, loaderVersion: '1.3.239', overrideFile: '/tmp/implicit_layer.d/VkLayer_override.json', overrideDir: '/tmp/implicit_layer.d' };
    },
    'lint.files': () => {
      calls.push('lint.files');
      return [];
    },
    'diagnostics.saveFolder': () => {
      calls.push('diagnostics.saveFolder');
      return { path: '/tmp/strata-diagnostics', files: 0, bytes: 0 };
    },
    'drivers.negotiate': () => {
      calls.push('drivers.negotiate');
      return { loaderInterfaceVersion: 7, source: 'request' as const, drivers: [] };
    },
    'layers.inspect': () => {
      calls.push('layers.inspect');
      return { offeredInterfaceVersion: 2, layers: [], notFound: [] };
    },
    'shader.disassemble': (req) => {
      calls.push('shader.disassemble');
      return { path: req.path, ok: true, text: '; SPIR-V\n', diagnostics: [] };
    },
    'shader.inspect': (req) => {
      calls.push('shader.inspect');
      return {
        path: req.path,
        ok: true,
        summary: null,
        reflection: { entryPoints: [], descriptorBindings: [], pushConstants: [], specializationConstants: [] },
        diagnostics: [],
      };
    },
    'shader.inspectBytes': (req) => {
      calls.push('shader.inspectBytes');
      return {
        path: req.name,
        ok: true,
        summary: null,
        reflection: { entryPoints: [], descriptorBindings: [], pushConstants: [], specializationConstants: [] },
        diagnostics: [],
        disassembly: '',
        rawDisassembly: '',
        idNames: [],
      };
    },
    'shader.pack': () => {
      calls.push('shader.pack');
      return { ok: false, base64: null, byteLength: 0, reflection: null, diagnostics: [] };
    },
    'override.status': () => {
      calls.push('override.status');
      return {
        scope: 'user' as const,
        path: '/tmp/VkLayer_override.json',
        ownership: 'absent' as const,
        text: null,
        sha256: null,
        writtenAt: null,
        layers: null,
        originalBackup: null,
        recordPath: '/tmp/override-record.json',
        diff: null,
      };
    },
    'override.apply': () => {
      calls.push('override.apply');
      return {
        scope: 'user' as const,
        path: '/tmp/VkLayer_override.json',
        action: 'created' as const,
        before: 'absent' as const,
        backup: null,
        originalBackup: null,
        sha256: '0'.repeat(64),
        text: '{}\n',
      };
    },
    'override.remove': () => {
      calls.push('override.remove');
      return { scope: 'user' as const, path: '/tmp/VkLayer_override.json', action: 'nothing' as const, backup: null, reason: 'no override' };
    },
    'override.preview': () => {
      calls.push('override.preview');
      return { scope: 'user' as const, files: [], needsForce: false };
    },
    'override.export': () => {
      calls.push('override.export');
      return { fileName: 'VkLayer_override.json', text: '{}\n' };
    },
    'launch.start': () => {
      calls.push('launch.start');
      throw new Error('counting handlers do not launch applications');
    },
    'launch.stop': (req) => {
      calls.push('launch.stop');
      return { id: req.id, stopping: false };
    },
    'sessions.list': () => {
      calls.push('sessions.list');
      return { dir: '/tmp/strata-sessions', sessions: [], unreadable: [] };
    },
    'sessions.open': () => {
      calls.push('sessions.open');
      throw new Error('counting handlers hold no sessions');
    },
    'sessions.search': () => {
      calls.push('sessions.search');
      return { results: [] };
    },
    'sessions.delete': (req) => {
      calls.push('sessions.delete');
      return { id: req.id, deleted: false };
    },
    'sessions.export': (req) => {
      calls.push('sessions.export');
      return { fileName: `${req.id}.json`, mediaType: 'application/json', text: '{}\n' };
    },
    'sessions.diff': () => {
      calls.push('sessions.diff');
      throw new Error('counting handlers hold no sessions');
    },
    ...profileCountingHandlers(calls),
    ...activityCountingHandlers(calls),
    ...overrides,
  };
  return { handlers, calls, router: createRouter(handlers) };
}
