import type { ManifestInventory } from '../discovery/manifest-inventory';
import { OVERRIDE_LAYER_NAME } from '../override/override-config';
import { inventoryDrivers, inventoryLayers, type InventoryLayer } from './inventory-layers';
import { LOADER_FEATURES, loaderAtLeast } from './loader-features';
import { chooseDrivers, matchesAny } from './loader-filters';
import type { Profile } from './profile-schema';

/**
 * A profile as environment variables for one launch from Strata, leaving the installed override
 * alone: what the given loader version obeys (LoaderLayerInterface "Layer Special Case
 * Environment Variables", "Implicit Layers", LoaderInterfaceArchitecture "Driver Filtering"), and a
 * note for each thing it cannot express. Values of null mean "unset this variable".
 *
 *   on, explicit    VK_INSTANCE_LAYERS (loader 1.3.239 enables them in its discovery order, not the
 *                   variable's: loader_add_environment_layers walks its own list)
 *   on, implicit    VK_LOADER_LAYERS_ENABLE (1.3.234+; before: the layer's enable_environment), and
 *                   its disable_environment unset, since that wins over everything
 *   off             VK_LOADER_LAYERS_DISABLE (1.3.234+), and for implicit layers their
 *                   disable_environment set to 1 (every version)
 *   drivers         VK_LOADER_DRIVERS_SELECT / VK_LOADER_DRIVERS_DISABLE (1.3.234+)
 *   messages        VK_LOADER_DEBUG
 *   settings        VK_LAYER_SETTINGS_PATH, when the caller wrote a vk_layer_settings.txt
 * Installed override layers are switched off through their disable_environment, so the profile
 * alone decides.
 */
export interface LaunchContext {
  inventory: Pick<ManifestInventory, 'manifests'> | null;
  loaderVersion: string;
  /** The environment the application would otherwise get; lets existing lists be merged, not replaced. */
  env?: Readonly<Record<string, string | undefined>>;
  /** A vk_layer_settings.txt holding the profile's settings, written by the caller. */
  layerSettingsPath?: string;
  /** VK_INSTANCE_LAYERS' separator: ';' on Windows (the loader's PATH_SEPARATOR), ':' elsewhere. */
  listSeparator?: ':' | ';';
}

export interface LaunchEnvironment {
  env: Record<string, string | null>;
  notes: string[];
}

/** VK_LOADER_DEBUG words (loader 1.3.239 log.c); "validation" exists only in the settings file's stderr_log. */
const DEBUG_WORDS = new Set(['error', 'warn', 'info', 'debug', 'perf', 'layer', 'driver', 'all']);

function enableValue(inventory: LaunchContext['inventory'], layer: InventoryLayer): [string, string] | null {
  const m = inventory?.manifests.implicit_layer.find((x) => x.path === layer.manifest);
  try {
    const json = JSON.parse(m?.text ?? '') as {
      layer?: { name?: string; enable_environment?: Record<string, string> };
      layers?: { name?: string; enable_environment?: Record<string, string> }[];
    };
    const l = json.layer ?? json.layers?.find((x) => x.name === layer.name);
    const entry = Object.entries(l?.enable_environment ?? {})[0];
    return entry ? [entry[0], String(entry[1])] : null;
  } catch {
    return null;
  }
}

const splitList = (v: string | undefined, sep: string) => (v ?? '').split(sep).filter((s) => s.length > 0);

export function launchEnvironment(profile: Profile, context: LaunchContext): LaunchEnvironment {
  const env: Record<string, string | null> = {};
  const notes: string[] = [];
  const base = context.env ?? {};
  const layers = inventoryLayers(context.inventory);
  const filters = loaderAtLeast(context.loaderVersion, LOADER_FEATURES.layerFilters);
  const v = `loader ${context.loaderVersion}`;
  const sep = context.listSeparator ?? ':';

  // The installed override layer(s) would add their own choices: off for this launch.
  const overrideVars = new Set<string>();
  for (const m of context.inventory?.manifests.implicit_layer ?? [])
    for (const l of m.layers) if (l.name === OVERRIDE_LAYER_NAME) for (const d of l.disableEnvironment) overrideVars.add(d);
  for (const d of overrideVars) env[d] = '1';
  if (overrideVars.size)
    notes.push(
      `the installed override layer is switched off for this launch (${[...overrideVars].map((d) => `${d}=1`).join(', ')}), so the profile alone decides`,
    );

  const on = profile.layers.filter((l) => l.state === 'on');
  const off = profile.layers.filter((l) => l.state === 'off');
  const missing = on.filter((l) => context.inventory && !layers.has(l.name)).map((l) => l.name);
  if (missing.length) notes.push(`not installed here, so the loader skips ${missing.length === 1 ? 'it' : 'them'}: ${missing.join(', ')}`);

  const explicitOn = on.filter((l) => !layers.get(l.name)?.implicit).map((l) => l.name);
  const implicitOn = on.filter((l) => layers.get(l.name)?.implicit).map((l) => layers.get(l.name)!);
  const offNames = off.map((l) => l.name);

  if (explicitOn.length) {
    const kept = splitList(base['VK_INSTANCE_LAYERS'], sep).filter((n) => !explicitOn.includes(n) && !offNames.includes(n));
    env['VK_INSTANCE_LAYERS'] = [...explicitOn, ...kept].join(sep);
  } else if (base['VK_INSTANCE_LAYERS'] !== undefined && offNames.some((n) => splitList(base['VK_INSTANCE_LAYERS'], sep).includes(n))) {
    // Loader 1.3.239 adds VK_INSTANCE_LAYERS names even when VK_LOADER_LAYERS_DISABLE matches them.
    const kept = splitList(base['VK_INSTANCE_LAYERS'], sep).filter((n) => !offNames.includes(n));
    env['VK_INSTANCE_LAYERS'] = kept.length ? kept.join(sep) : null;
  }

  const enable: string[] = [];
  for (const l of implicitOn) {
    for (const d of l.disableEnvironment) env[d] = null;
    if (l.enableEnvironment.length === 0) continue;
    if (filters) enable.push(l.name);
    else {
      const pair = enableValue(context.inventory, l);
      if (pair) env[pair[0]] = pair[1];
      else notes.push(`${l.name} is enabled by its enable_environment, whose value Strata could not read from ${l.manifest}`);
    }
  }
  if (enable.length)
    env['VK_LOADER_LAYERS_ENABLE'] = [
      ...enable,
      ...splitList(base['VK_LOADER_LAYERS_ENABLE'], ',').filter((f) => !enable.includes(f) && !matchesAny(f, offNames)),
    ].join(',');

  for (const l of off) for (const d of layers.get(l.name)?.implicit ? layers.get(l.name)!.disableEnvironment : []) env[d] = '1';
  if (offNames.length) {
    if (filters) {
      const kept = splitList(base['VK_LOADER_LAYERS_DISABLE'], ',').filter((f) => !offNames.includes(f) && !on.some((l) => matchesAny(l.name, [f])));
      env['VK_LOADER_LAYERS_DISABLE'] = [...offNames, ...kept].join(',');
    } else {
      const explicitOff = offNames.filter((n) => !layers.get(n)?.implicit);
      if (explicitOff.length)
        notes.push(
          `${v} has no VK_LOADER_LAYERS_DISABLE (${LOADER_FEATURES.layerFilters}+): an application that enables ${explicitOff.join(', ')} itself still gets ${explicitOff.length === 1 ? 'it' : 'them'}`,
        );
    }
  }

  // Order: implicit layers come first, in discovery order; VK_INSTANCE_LAYERS follows discovery order too.
  const discovery = [...layers.keys()];
  const onKnown = on.filter((l) => layers.has(l.name)).map((l) => l.name);
  const loaderOrder = [...onKnown].sort(
    (a, b) => Number(!layers.get(a)!.implicit) - Number(!layers.get(b)!.implicit) || discovery.indexOf(a) - discovery.indexOf(b),
  );
  if (onKnown.join('\0') !== loaderOrder.join('\0'))
    notes.push(
      `${v} puts these layers in the order it found them (implicit first), not the profile's: it will run ${loaderOrder.join(' → ')}; the installed override layer (\`strata profile apply\`) keeps the profile's order`,
    );
  if (profile.applicationLayersAt !== undefined && on.some((l) => profile.layers.indexOf(l) >= profile.applicationLayersAt!))
    notes.push(
      `the layers an application enables itself always come after (nearer the driver than) the layers set here; the profile's application layers position cannot be expressed at launch`,
    );

  if (profile.settings && Object.keys(profile.settings).length) {
    if (context.layerSettingsPath) env['VK_LAYER_SETTINGS_PATH'] = context.layerSettingsPath;
    else notes.push('layer settings are not passed through the environment: they need a vk_layer_settings.txt named by VK_LAYER_SETTINGS_PATH');
  }

  if (profile.loaderMessages?.length) {
    const words = profile.loaderMessages.filter((w) => DEBUG_WORDS.has(w));
    const dropped = profile.loaderMessages.filter((w) => !DEBUG_WORDS.has(w));
    if (words.length) env['VK_LOADER_DEBUG'] = words.join(',');
    if (dropped.length) notes.push(`VK_LOADER_DEBUG has no "${dropped.join('", "')}" level; only the loader settings file's stderr_log knows it`);
  }

  const d = profile.drivers;
  if (d && (d.select?.length || d.disable?.length || d.order?.length)) {
    if (loaderAtLeast(context.loaderVersion, LOADER_FEATURES.driverFilters)) {
      if (d.select?.length) env['VK_LOADER_DRIVERS_SELECT'] = d.select.join(',');
      if (d.disable?.length) env['VK_LOADER_DRIVERS_DISABLE'] = d.disable.join(',');
    } else if (d.select?.length || d.disable?.length)
      notes.push(`${v} has no driver filters (${LOADER_FEATURES.driverFilters}+); the profile's driver choices are not applied`);
    if (d.order?.length)
      notes.push(
        `${v} cannot order drivers from the environment; the order applies only through the loader settings file (loader ${LOADER_FEATURES.settingsDrivers}+)`,
      );
    const drivers = inventoryDrivers(context.inventory);
    if (context.inventory && drivers.length && !chooseDrivers(d, drivers).some((c) => c.kept))
      notes.push('these driver filters leave no driver: vkCreateInstance will fail with VK_ERROR_INCOMPATIBLE_DRIVER');
  }
  return { env, notes };
}

/** The environment after the additions (null unsets), for a child process. */
export function withLaunchEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  additions: Readonly<Record<string, string | null>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) out[k] = v;
  for (const [k, v] of Object.entries(additions)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}
