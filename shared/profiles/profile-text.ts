import type { Profile } from './profile-schema';

/**
 * The profile as stored and exported: stable key order, two-space JSON, a final newline. Apart from
 * the profile's schema (profile-schema.ts), which reading a file checks against: writing one builds
 * no schema, and the renderer's first view, whose profile edit bar diffs two texts, builds none
 * (issue #19: first render).
 */
export function serializeProfile(p: Profile): string {
  const ordered: Record<string, unknown> = {
    schemaVersion: p.schemaVersion,
    name: p.name,
    ...(p.description !== undefined ? { description: p.description } : {}),
    layers: p.layers.map((l) => ({ name: l.name, state: l.state })),
    ...(p.applicationLayersAt !== undefined ? { applicationLayersAt: p.applicationLayersAt } : {}),
    ...(p.settings !== undefined ? { settings: p.settings } : {}),
    ...(p.loaderMessages !== undefined ? { loaderMessages: p.loaderMessages } : {}),
    ...(p.drivers !== undefined ? { drivers: p.drivers } : {}),
    ...(p.overridePaths !== undefined ? { overridePaths: p.overridePaths } : {}),
    ...(p.applications !== undefined ? { applications: p.applications } : {}),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
