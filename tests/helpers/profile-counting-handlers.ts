import type { Handlers } from '../../main/router/router';

type ProfileChannel = Extract<keyof Handlers, `profiles.${string}`>;

const PROFILE = { schemaVersion: 2 as const, name: 'Fake', layers: [{ name: 'VK_LAYER_KHRONOS_validation', state: 'on' as const }] };
const STORED = { name: 'Fake', file: '/tmp/strata-profiles/Fake.json', profile: PROFILE, migratedFrom: null };
const SYNC = { mechanism: 'override-app-keys' as const, loaderVersion: '1.3.239', files: [], removed: [], checks: [], notes: [] };

/** The profiles.* part of tests/helpers/counting-handlers.ts: each call is recorded in `calls`. */
/** A valid chain.explain answer with nothing in it (the counting handlers check routing, not the model). */
export const EMPTY_CHAIN = {
  loaderVersion: '1.3.239',
  rulesVersion: '1.3.239',
  rules: [],
  result: 'VK_SUCCESS' as const,
  chain: [],
  metaLayers: [],
  excluded: [],
  notes: [],
};

export function profileCountingHandlers(calls: string[]): Pick<Handlers, ProfileChannel> {
  const record =
    <T>(channel: ProfileChannel, value: T) =>
    () => {
      calls.push(channel);
      return value;
    };
  return {
    'profiles.list': record('profiles.list', {
      dir: '/tmp/strata-profiles',
      profiles: [],
      presets: [],
      problems: [],
      applicationsFile: '/tmp/applications.json',
      applications: [],
      applicationsProblem: null,
    }),
    'profiles.create': record('profiles.create', STORED),
    'profiles.save': record('profiles.save', STORED),
    'profiles.copy': record('profiles.copy', STORED),
    'profiles.rename': record('profiles.rename', STORED),
    'profiles.delete': record('profiles.delete', { deleted: STORED, unbound: [] }),
    'profiles.export': record('profiles.export', { fileName: 'Fake.strata-profile.json', text: '{}\n' }),
    'profiles.import': record('profiles.import', { stored: STORED, kind: 'profile' as const, migratedFrom: null, warnings: [] }),
    'profiles.apply': record('profiles.apply', {
      result: {
        scope: 'user' as const,
        path: '/tmp/VkLayer_override.json',
        action: 'created' as const,
        before: 'absent' as const,
        backup: null,
        originalBackup: null,
        sha256: '0'.repeat(64),
        text: '{}\n',
      },
      notes: [],
    }),
    'profiles.overrideExport': record('profiles.overrideExport', { fileName: 'VkLayer_override.json', text: '{}\n', notes: [] }),
    'profiles.launchEnvironment': record('profiles.launchEnvironment', { loaderVersion: '1.3.239', env: {}, notes: [] }),
    'profiles.explain': record('profiles.explain', {
      chain: EMPTY_CHAIN,
      drivers: [],
      notes: [],
    }),
    'profiles.bind': record('profiles.bind', { application: { path: '/usr/bin/true', profile: 'Fake' }, sync: SYNC, notes: [] }),
    'profiles.unbind': record('profiles.unbind', { sync: SYNC }),
  };
}

type ActivityChannel = Extract<keyof Handlers, `activity.${string}`>;

const ACTIVITY = {
  loaderVersion: '1.3.239',
  global: { path: '/tmp/VkLayer_override.json', ownership: 'absent' as const, writtenAt: null, on: [], off: [] },
  bindings: [],
  files: [],
  notes: [],
};

/** The activity.* part of tests/helpers/counting-handlers.ts. */
export function activityCountingHandlers(calls: string[]): Pick<Handlers, ActivityChannel> {
  return {
    'activity.status': () => {
      calls.push('activity.status');
      return ACTIVITY;
    },
    'activity.disable': () => {
      calls.push('activity.disable');
      return { removed: [], unbound: [], notes: [], status: ACTIVITY };
    },
  };
}
