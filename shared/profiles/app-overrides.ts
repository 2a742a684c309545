import { overrideManifestObject } from '../override/override-config';
import { profileFileStem } from './profile-file-name';
import { profileToOverrideConfig } from './profile-override';
import type { Profile } from './profile-schema';

/**
 * Per-application profiles for loaders that read no settings file (Debian's 1.3.239): one override
 * layer file per bound profile, each scoped by app_keys, beside the global one.
 *
 * What loader 1.3.239 does with several override layers (remove_all_non_valid_override_layers,
 * checked with recording layers in tests/integration/profile-bindings.test.ts): walking the
 * override layers in its discovery order, it drops those whose app_keys do not name the
 * executable *until one does*; after that, later ones survive even when they do not match, and
 * their components are loaded too. A later one that names the executable again is dropped as a
 * duplicate. So the executable of the j-th file (in the loader's order) must also be in the
 * app_keys of every file after it: then each application keeps exactly its own file. A global
 * override (no app_keys) is dropped whenever a keyed one matches, so it is the default for the rest.
 */
export const APP_OVERRIDE_PREFIX = 'VkLayer_override_strata_';

export interface AppOverrideGroup {
  profile: Profile;
  /** Executables bound to this profile, as the loader sees them (real paths). */
  apps: string[];
}

export interface AppOverrideFile {
  fileName: string;
  profileName: string;
  /** The group's own applications. */
  apps: string[];
  /** What the file lists: its apps plus those of every file before it in the loader's order. */
  appKeys: string[];
  text: string;
  notes: string[];
}

/** One file name per profile, stable for a name: VkLayer_override_strata_<stem>.json. */
export function appOverrideFileNames(profileNames: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const name of [...profileNames].sort()) {
    const stem = profileFileStem(name);
    let file = `${APP_OVERRIDE_PREFIX}${stem}.json`;
    for (let n = 2; used.has(file.toLowerCase()); n++) file = `${APP_OVERRIDE_PREFIX}${stem}-${n}.json`;
    used.add(file.toLowerCase());
    out.set(name, file);
  }
  return out;
}

/** K_j = apps_j ∪ apps_1..j-1, for files given in the loader's order. */
export function cumulativeAppKeys(ordered: readonly { apps: readonly string[] }[]): string[][] {
  const before: string[] = [];
  return ordered.map((g) => {
    const keys = [...g.apps, ...before.filter((a) => !g.apps.includes(a))];
    before.push(...g.apps.filter((a) => !before.includes(a)));
    return keys;
  });
}

/**
 * The files for `groups`, with app_keys built for `loaderOrder` (file names in the order the loader
 * reads them; names it does not list go after, sorted). Groups without applications get no file.
 */
export function planAppOverrides(groups: readonly AppOverrideGroup[], loaderOrder: readonly string[] = []): AppOverrideFile[] {
  const bound = groups.filter((g) => g.apps.length > 0);
  const names = appOverrideFileNames(bound.map((g) => g.profile.name));
  const rank = (file: string) => {
    const i = loaderOrder.indexOf(file);
    return i < 0 ? loaderOrder.length : i;
  };
  const ordered = [...bound].sort(
    (a, b) => rank(names.get(a.profile.name)!) - rank(names.get(b.profile.name)!) || names.get(a.profile.name)!.localeCompare(names.get(b.profile.name)!),
  );
  const keys = cumulativeAppKeys(ordered);
  return ordered.map((g, i) => {
    const converted = profileToOverrideConfig(g.profile);
    const notes = converted.ok
      ? [...converted.notes]
      : [`"${g.profile.name}" forces no layer on or off, so its applications get no override at all (not even the global one)`];
    // One vk_layer_settings.txt serves every application of a user; the override layer cannot point at another.
    if (Object.keys(g.profile.settings ?? {}).length)
      notes.push(
        `"${g.profile.name}": its layer settings are not per application outside Strata (one vk_layer_settings.txt per user); launches from Strata get them`,
      );
    // An override that forces nothing is still a valid override for the loader: it shadows the global one.
    const config = converted.ok
      ? { ...converted.config, appKeys: keys[i]! }
      : { layers: g.profile.layers.map((l) => ({ name: l.name, state: l.state })), appKeys: keys[i]! };
    const manifest = overrideManifestObject(config);
    manifest.layer.description = `Strata profile "${g.profile.name}" for ${g.apps.length === 1 ? g.apps[0] : `${g.apps.length} applications`}`;
    return {
      fileName: names.get(g.profile.name)!,
      profileName: g.profile.name,
      apps: [...g.apps],
      appKeys: keys[i]!,
      text: `${JSON.stringify(manifest, null, 2)}\n`,
      notes,
    };
  });
}
