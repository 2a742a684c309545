import type { Preset } from '../../../shared/profiles/presets';
import type { ProfilesList } from '../../../shared/profiles/profile-channels';
import { sameProfileName } from '../../../shared/profiles/profile-file-name';
import type { Profile } from '../../../shared/profiles/profile-schema';

/**
 * What the Profiles panel lists, pure so it can be tested: presets and the user's profiles as one
 * kind of entry with a stable key, a one-line summary, and free names for copies.
 */
export interface ProfileEntry {
  /** "preset:<id>" or "profile:<name>". */
  key: string;
  kind: 'preset' | 'profile';
  name: string;
  profile: Profile;
  /** One line: "on: A, B · off: C". */
  summary: string;
  /** Presets: missing layers; profiles: unknown-layer warnings. */
  warnings: string[];
  preset: Preset | null;
  file: string | null;
}

export function layerSummary(p: Profile): string {
  const by = (s: 'on' | 'off') => p.layers.filter((l) => l.state === s).map((l) => l.name.replace(/^VK_LAYER_/, ''));
  const parts: string[] = [];
  if (by('on').length) parts.push(`on: ${by('on').join(', ')}`);
  if (by('off').length) parts.push(`off: ${by('off').join(', ')}`);
  return parts.join(' · ') || 'no layer forced on or off';
}

export function profileEntries(list: ProfilesList): ProfileEntry[] {
  return [
    ...list.presets.map((preset) => ({
      key: `preset:${preset.id}`,
      kind: 'preset' as const,
      name: preset.profile.name,
      profile: preset.profile,
      summary: layerSummary(preset.profile),
      warnings: preset.note ? [preset.note] : [],
      preset,
      file: null,
    })),
    ...list.profiles.map((p) => ({
      key: `profile:${p.name}`,
      kind: 'profile' as const,
      name: p.name,
      profile: p.profile,
      summary: layerSummary(p.profile),
      warnings: p.warnings,
      preset: null,
      file: p.file,
    })),
  ];
}

/** "Copy of X", then "Copy of X (2)", … — the first name no profile or preset has. */
export function freeName(base: string, list: ProfilesList): string {
  const taken = [...list.profiles.map((p) => p.name), ...list.presets.map((p) => p.profile.name)];
  for (let n = 1; ; n++) {
    const candidate = (n === 1 ? base : `${base} (${n})`).slice(0, 80);
    if (!taken.some((t) => sameProfileName(t, candidate))) return candidate;
  }
}

/** The applications bound to a profile, from the list. */
export function boundApplications(list: ProfilesList, name: string): string[] {
  return list.applications.filter((a) => a.profile && sameProfileName(a.profile, name)).map((a) => a.path);
}
