import { strataError, type StrataError } from '../errors/strata-error';
import { OVERRIDE_LAYER_NAME, type OverrideConfig } from '../override/override-config';
import { buildOverrideManifest, OverrideConfigSchema } from '../override/override-config-schema';
import { parseProfileJson } from './profile-document';
import {
  fieldPath,
  invalidProfileError,
  PROFILE_SCHEMA_VERSION,
  ProfileSchema,
  issuesOf,
  type Profile,
  type ProfileIssue,
  type ProfileLayer,
} from './profile-schema';

/**
 * A profile as the override meta-layer (LoaderLayerInterface "Override Meta-Layer"): 'on' layers
 * become component_layers in profile order, 'off' layers blacklisted_layers, 'auto' layers are left
 * out. And the reverse: a VkLayer_override.json (vkconfig's, or one written by hand) as a profile,
 * so a user moving from vkconfig keeps their setup.
 */
export type ProfileOverrideResult = { ok: true; config: OverrideConfig; notes: string[] } | { ok: false; error: StrataError };

/** Where the profile asks for something the override layer cannot say: one sentence each. */
export function overrideLimits(profile: Profile): string[] {
  const notes: string[] = [];
  if (profile.applicationLayersAt !== undefined) {
    const laterOn = profile.layers.slice(profile.applicationLayersAt).filter((l) => l.state === 'on');
    if (laterOn.length)
      notes.push(
        `the override layer always puts its layers on the application side of the layers an application enables itself; ${laterOn.map((l) => l.name).join(', ')} cannot sit nearer the driver than them (the loader settings file of loader 1.3.251+ can: "unordered_layer_location")`,
      );
  }
  if (profile.loaderMessages?.length)
    notes.push(
      `loader messages (${profile.loaderMessages.join(', ')}) are not part of the override layer: they apply to launches from Strata (VK_LOADER_DEBUG) and to loaders that read vk_loader_settings.json`,
    );
  if (profile.drivers && (profile.drivers.select?.length || profile.drivers.disable?.length || profile.drivers.order?.length))
    notes.push(
      'driver choices are not part of the override layer: they apply to launches from Strata (VK_LOADER_DRIVERS_SELECT / VK_LOADER_DRIVERS_DISABLE) and to loaders with a driver section in vk_loader_settings.json',
    );
  return notes;
}

export function profileToOverrideConfig(profile: Profile, options: { appKeys?: readonly string[] } = {}): ProfileOverrideResult {
  const config: OverrideConfig = {
    layers: profile.layers.map((l) => ({ name: l.name, state: l.state })),
    ...(options.appKeys?.length ? { appKeys: [...options.appKeys] } : {}),
    ...(profile.overridePaths?.length ? { overridePaths: [...profile.overridePaths] } : {}),
    ...(profile.settings && Object.keys(profile.settings).length ? { settings: profile.settings } : {}),
  };
  const checked = OverrideConfigSchema.safeParse(config);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    return {
      ok: false,
      error: strataError('profile/not-an-override', `The profile "${profile.name}" cannot be an override layer: ${issue.message}`, {
        where: `profile "${profile.name}"${issue.path.length ? `, field ${fieldPath(issue.path)}` : ''}`,
        fix: "turn at least one layer 'on' or 'off' (an override that changes nothing is refused)",
      }),
    };
  }
  return { ok: true, config: checked.data, notes: overrideLimits(profile) };
}

/** The VkLayer_override.json text of a profile, or the error value. */
export function profileOverrideText(
  profile: Profile,
  options: { appKeys?: readonly string[] } = {},
): { ok: true; text: string; notes: string[] } | { ok: false; error: StrataError } {
  const r = profileToOverrideConfig(profile, options);
  return r.ok ? { ok: true, text: buildOverrideManifest(r.config), notes: r.notes } : r;
}

export type OverrideImportResult = { ok: true; profile: Profile; warnings: string[] } | { ok: false; error: StrataError };

function stringList(value: unknown, path: (string | number)[], issues: ProfileIssue[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    issues.push({ path: fieldPath(path), message: 'must be an array of strings' });
    return [];
  }
  const out: string[] = [];
  value.forEach((v, i) => {
    if (typeof v === 'string' && v.length > 0) out.push(v);
    else issues.push({ path: fieldPath([...path, i]), message: 'must be a non-empty string' });
  });
  return out;
}

/** A VkLayer_override.json as a new profile named `name`; errors point at the field of the file. */
export function profileFromOverrideJson(value: unknown, name: string, where: string): OverrideImportResult {
  const fix = 'this does not look like an override layer file (VkLayer_override.json); check the file';
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, error: invalidProfileError([{ path: '', message: 'an override layer file is a JSON object' }], where, fix) };
  const root = value as Record<string, unknown>;
  let layer: unknown = root['layer'];
  let layerPath: (string | number)[] = ['layer'];
  if (layer === undefined && Array.isArray(root['layers'])) {
    const i = (root['layers'] as unknown[]).findIndex((l) => (l as { name?: unknown } | null)?.name === OVERRIDE_LAYER_NAME);
    layer = i >= 0 ? (root['layers'] as unknown[])[i] : undefined;
    layerPath = ['layers', Math.max(i, 0)];
  }
  if (typeof layer !== 'object' || layer === null || Array.isArray(layer))
    return { ok: false, error: invalidProfileError([{ path: fieldPath(layerPath), message: `missing: no ${OVERRIDE_LAYER_NAME} layer object` }], where, fix) };
  const l = layer as Record<string, unknown>;
  if (l['name'] !== OVERRIDE_LAYER_NAME)
    return {
      ok: false,
      error: invalidProfileError(
        [{ path: fieldPath([...layerPath, 'name']), message: `is ${JSON.stringify(l['name'] ?? null)}; an override layer is named ${OVERRIDE_LAYER_NAME}` }],
        where,
        fix,
      ),
    };
  const issues: ProfileIssue[] = [];
  const on = stringList(l['component_layers'], [...layerPath, 'component_layers'], issues);
  const off = stringList(l['blacklisted_layers'], [...layerPath, 'blacklisted_layers'], issues);
  const apps = stringList(l['app_keys'], [...layerPath, 'app_keys'], issues);
  const paths = stringList(l['override_paths'], [...layerPath, 'override_paths'], issues);
  if (issues.length) return { ok: false, error: invalidProfileError(issues, where, fix) };
  const warnings: string[] = [];
  const layers: ProfileLayer[] = [];
  const seen = new Set<string>();
  // The loader removes blacklisted layers before it expands the override, so a layer in both lists is off.
  for (const n of off)
    if (on.includes(n)) warnings.push(`${n} is both a component and blacklisted in the file; the loader keeps it out, so the profile has it off`);
  for (const n of on)
    if (!off.includes(n) && !seen.has(n) && n !== OVERRIDE_LAYER_NAME) {
      seen.add(n);
      layers.push({ name: n, state: 'on' });
    }
  for (const n of off)
    if (!seen.has(n) && n !== OVERRIDE_LAYER_NAME) {
      seen.add(n);
      layers.push({ name: n, state: 'off' });
    }
  const candidate = {
    schemaVersion: PROFILE_SCHEMA_VERSION,
    name,
    description: `Imported from ${where}`,
    layers,
    ...(paths.length ? { overridePaths: paths } : {}),
    ...(apps.length ? { applications: apps } : {}),
  };
  const checked = ProfileSchema.safeParse(candidate);
  if (!checked.success) return { ok: false, error: invalidProfileError(issuesOf(checked.error), where) };
  if (apps.length)
    warnings.push(
      `the file was limited to ${apps.join(', ')} (app_keys); the profile lists them as its applications, but binds nothing until you run \`strata profile bind\``,
    );
  return { ok: true, profile: checked.data, warnings };
}

export function profileFromOverrideText(text: string, name: string, where: string): OverrideImportResult {
  const json = parseProfileJson(text, where);
  return json.ok ? profileFromOverrideJson(json.value, name, where) : json;
}
