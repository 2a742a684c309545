import * as z from 'zod';
import type { Environment } from './xdg-directories';
import { disableMatch, enableMatch } from './layer-filters';
import { loaderHas, rulesFor, RULES_VERSION } from './loader-rules';
import { REQUEST_LIMITS, tooMany } from '../ipc/request-limits';
import { computeSettingsChain } from './settings-chain';
import { driverListWithSettings } from './settings-drivers';
import { stderrLogFor } from './loader-settings-file';
import type { ChainInput, ChainReason, ExcludedLayer, LayerChain } from './chain-schema';
import { OVERRIDE_LAYER_NAME } from '../override/override-names';
import { apiOf } from './layer-readings';
import {
  availability,
  baseList,
  filtersFor,
  implicitState,
  liveLookup,
  metaProblem,
  overridePathsOf,
  placeLayers,
  pruneOverrideLayers,
  varsOf,
  versionNotes,
  LayerReasons,
  LayerSet,
  type Activation,
  type Layer,
} from './chain-layers';

/**
 * The effective instance layer chain: which layers the loader puts between the application and the
 * driver, in which order, and why each layer is in or out. Pure; the real loader is its oracle
 * (tests/integration/chain-vs-loader.test.ts).
 *
 * Sources: LoaderLayerInterface.md "Layer Manifest File Format", "Meta-layers", "Override Meta-Layer",
 * "Loader and Layer Interface Policy" (LLP_LOADER_6/7/10/11/12). Where a loader's code does
 * something else, the loader wins. The base behaviour is Debian 12's loader 1.3.239 (loader.c,
 * loader_environment.c at tag v1.3.239); every later change is a row of the rules table
 * (loader-rules.ts: first version and commit) that this model asks with `loaderHas`, and the six
 * real loaders of the matrix are its oracle. VK_LOADER_LAYERS_ENABLE / _DISABLE / _ALLOW follow
 * loader_environment.c; see layer-filters.ts.
 */

export type * from './chain-schema';
export { RULES_VERSION } from './loader-rules';
export { overridePathsFor } from './chain-layers';

export function computeLayerChain(input: ChainInput): LayerChain {
  const { env, app } = input;
  const version = input.loaderVersion;
  const filters = filtersFor(env, version);
  const notes = versionNotes(version, env, filters);
  const vars = varsOf(env);

  // Implicit layers first (loader_scan_for_layers), then the override layers pruned by app_keys, then explicit.
  // The loader's list shrinks step by step; `gone` holds what has left it so far, and lookups by name
  // (loader_find_layer_property: the first of that name) skip it.
  const base = baseList(input.implicit, input.explicit);
  const everything = base.all;
  const removedWhy = new LayerReasons(base);
  /** Reasons that do not decide anything on their own (a filter overridden or ignored), shown with the layer. */
  const remarks = new LayerReasons(base);
  const gone = new LayerSet(base);
  const find = liveLookup(base.index, gone);
  pruneOverrideLayers(base.implicit, app.path, removedWhy, gone);
  const overridePaths = overridePathsOf(base.implicit, gone, vars, filters, version);

  // Meta-layers must be complete (LLP_LOADER_10); invalid ones leave the list, in list order, and
  // later checks see the shorter list (verify_all_meta_layers). Filters do not act yet.
  let overridePresent = false;
  for (const l of everything) {
    if (gone.has(l)) continue;
    const problem = l.meta ? metaProblem(l, find) : null;
    if (problem) {
      removedWhy.add(l, problem.code, problem.message);
      gone.add(l);
    } else if (l.name === OVERRIDE_LAYER_NAME && implicitState(l, vars, filters, null).enabled) overridePresent = true;
  }
  const override = overridePresent ? (find(OVERRIDE_LAYER_NAME) ?? null) : null;
  if (override && override.blacklist.length) {
    // LLP_LOADER_12: every layer named in the blacklist leaves the list, implicit or explicit.
    for (const l of everything) {
      if (gone.has(l) || l.name === OVERRIDE_LAYER_NAME || !override.blacklist.includes(l.name)) continue;
      removedWhy.add(l, 'override/blacklisted', `blacklisted by the override layer ${override.manifest} (blacklisted_layers)`);
      gone.add(l);
    }
  }
  // Loader 1.3.239 loader_scan_for_layers, last step: layers the filters disable leave the list, so
  // asking for one by name fails like asking for a missing layer.
  if (filters.disable) {
    for (const l of everything) {
      if (gone.has(l)) continue;
      const a = availability(l, filters);
      if (a.reason) (a.available ? remarks : removedWhy).add(l, a.reason.code, a.reason.message);
      if (!a.available) gone.add(l);
    }
  }
  // Loader 1.4.340+ (remove-duplicate-layers), last step of loader_scan_for_layers: for each layer
  // in list order the next one with the same name leaves the list. One is removed per earlier
  // layer, so of a name's copies the 1st, 3rd, 5th … stay.
  if (loaderHas(version, 'remove-duplicate-layers') && base.index.later.size) {
    const seen = new Map<string, { first: Layer; count: number }>();
    for (const l of everything) {
      if (gone.has(l)) continue;
      const s = seen.get(l.name);
      if (!s) seen.set(l.name, { first: l, count: 1 });
      else if (s.count++ % 2 === 1) {
        removedWhy.add(
          l,
          'duplicate/shadowed',
          `removed from the loader's layer list as a duplicate of ${s.first.manifest} (loader 1.4.340+ keeps the first of a name)`,
        );
        gone.add(l);
      }
    }
  }
  const list = gone.size ? everything.filter((l) => !gone.has(l)) : everything;
  if (filters.ignored) {
    for (const l of everything) {
      const off = disableMatch(filters.ignored.disable, l.name, l.implicit, l.lower);
      const on = enableMatch(filters.ignored.enable, l.name, l.lower);
      for (const m of [off, on])
        if (m)
          remarks.add(
            l,
            'filter/unsupported',
            `${m.variable}=${m.raw}: ${m.why}, but loader ${filters.ignored.version} predates the layer filters (1.3.234) and ignores them`,
          );
    }
  }

  const settings = input.settings;
  if (settings) notes.push(settingsNote(settings), ...settingsOtherNotes(settings, version));
  if (settings?.read.active && settings.read.layers) {
    const regularExcluded: ExcludedLayer[] = [
      ...base.rejected,
      ...everything.filter((l) => gone.has(l)).map((l) => ({ name: l.name, manifest: l.manifest, reasons: removedWhy.get(l) ?? [] })),
    ];
    const s = computeSettingsChain({
      settingsFile: settings.path,
      entry: settings.read.entry,
      configs: settings.read.layers,
      manifests: settings.manifests,
      regular: list,
      regularExcluded,
      // The implicit-layer scan keeps what the override layer blacklists (it removes no implicit layer for it).
      implicitScan: base.implicit.filter((l) => !gone.has(l) || (removedWhy.get(l) ?? []).every((r) => r.code === 'override/blacklisted')),
      vars,
      filters,
      override,
      app,
      version,
      // PATH_SEPARATOR is ";" on Windows only (vk_loader_platform.h).
      ...(input.listSeparator === ';' ? { windows: true } : {}),
    });
    return {
      loaderVersion: version,
      rulesVersion: version ?? RULES_VERSION,
      rules: rulesFor(version),
      ...s,
      notes: [...notes, ...s.notes],
      settingsFile: settings.path,
    };
  }

  const excludedExtra: ExcludedLayer[] = [];
  const missing = app.requestedLayers.filter((n) => !find(n));
  const appApi = apiOf(app.apiVersion ?? '1.0');

  const expanded: Activation[] = [];
  /** app_activated_layer_list by name: layers and complete meta-layers added so far. */
  const activatedNames = new Set<string>();
  const metaUses: LayerChain['metaLayers'] = [];
  const expandedMetas = new LayerSet(base);
  const activate = (l: Layer, reasons: ChainReason[]) => {
    activatedNames.add(l.name);
    expanded.push({ layer: l, reasons });
  };

  // Version-keyed enabling rules (loader-rules.ts).
  const firstWins = loaderHas(version, 'first-occurrence-wins');
  const orderedInstanceLayers = loaderHas(version, 'instance-layers-ordered');
  const metaNoDuplicates = loaderHas(version, 'meta-no-duplicates');
  const instanceLayersOrderImplicit = loaderHas(version, 'instance-layers-order-implicit');
  /** Loader 1.3.247+: a name already in app_activated_layer_list is not added again. */
  const alreadyEnabled = (l: Layer): boolean => {
    if (!firstWins || !activatedNames.has(l.name)) return false;
    remarks.add(l, 'duplicate/shadowed', `a layer named ${l.name} is already enabled; loader 1.3.247+ keeps the first occurrence`);
    return true;
  };

  const addImplicit = (l: Layer, via: ChainReason[]) => {
    const state = implicitState(l, vars, filters, override);
    if (!state.enabled) {
      removedWhy.add(l, state.reason.code, via.length ? `${state.reason.message}; ${via.map((v) => v.message).join('; ')}` : state.reason.message);
      return;
    }
    // The meta-layer's own reason travels with its components: name it, so it is not read as the component's.
    if (l.meta) addMeta(l, [...via, { code: state.reason.code, message: `${l.name}: ${state.reason.message}` }]);
    else if (!alreadyEnabled(l)) activate(l, [...via, state.reason]);
  };

  const addMeta = (meta: Layer, via: ChainReason[]): void => {
    let all = true;
    const isOverride = meta === override;
    for (const [i, c] of meta.components.entries()) {
      const comp = find(c);
      const here: ChainReason = isOverride
        ? { code: 'override/component', message: `component #${i + 1} of the override layer ${meta.manifest}` }
        : { code: 'meta/expanded', message: `expanded from meta-layer ${meta.name} at position ${i + 1}` };
      if (!comp) {
        // A component removed after the meta-layer was verified (blacklisted, or disabled by
        // VK_LOADER_LAYERS_DISABLE) is skipped; the others stay.
        all = false;
        const why = everything.filter((l) => l.name === c).flatMap((l) => removedWhy.get(l) ?? []);
        excludedExtra.push({
          name: c,
          manifest: null,
          reasons: [
            { code: 'meta/incomplete', message: `component of ${meta.name} not found when the chain was built; the other components are still used` },
            ...why,
          ],
        });
        continue;
      }
      if (comp.implicit) addImplicit(comp, [...via, here]);
      // Every loader of the matrix never passes a nested meta-layer's missing component up
      // (loader_add_meta_layer writes its "found all" flag only when it is true), so the outer one
      // still counts as complete.
      // (Cycles never get here: metaProblem removed them, as verification does from 1.4.304; older
      // loaders overflow their stack on one, which the model does not predict.)
      else if (comp.meta) addMeta(comp, [...via, here]);
      // Loader 1.3.251+: a component already enabled is not added again.
      else if (!(metaNoDuplicates && alreadyEnabled(comp))) activate(comp, [...via, here]);
    }
    if (all) activatedNames.add(meta.name);
    expandedMetas.add(meta);
    metaUses.push({
      name: meta.name,
      manifest: meta.manifest,
      components: meta.components,
      reasons: [...via, ...(isOverride ? [{ code: 'override/active' as const, message: 'override meta-layer active (LLP_LOADER_11)' }] : [])],
    });
  };
  /** Adds a layer named by a variable or the application: a meta-layer expands, any other joins the chain. */
  const addNamed = (l: Layer, why: ChainReason) => {
    if (l.meta) addMeta(l, [why]);
    else activate(l, [why]);
  };

  if (missing.length === 0) {
    const instanceLayers = env['VK_INSTANCE_LAYERS'];
    const instanceNames = (instanceLayers ?? '').split(input.listSeparator ?? ':').filter((n) => n.length > 0);
    // 1. implicit layers in the loader's order (loader_add_implicit_layers). Loader 1.4.326+ leaves
    // an implicit layer whose name occurs in VK_INSTANCE_LAYERS (strstr: a substring counts) to step 2.
    for (const l of list) {
      if (!l.implicit) continue;
      if (instanceLayersOrderImplicit && instanceLayers !== undefined && instanceLayers.includes(l.name)) {
        if (!instanceNames.includes(l.name))
          removedWhy.add(
            l,
            'implicit/not-enabled',
            `VK_INSTANCE_LAYERS contains its name inside a longer one ("${instanceLayers}"): loader 1.4.326+ leaves the layer to VK_INSTANCE_LAYERS, which does not name it exactly`,
          );
        continue;
      }
      addImplicit(l, []);
    }
    // 2. loader_add_environment_layers: VK_INSTANCE_LAYERS and VK_LOADER_LAYERS_ENABLE.
    if (orderedInstanceLayers) {
      // Loader 1.3.247+: VK_INSTANCE_LAYERS in the order written, the first layer of each name of
      // any kind (an implicit one too, without its enable checks), then the explicit layers the
      // enable filter names, in the loader's layer order.
      for (const n of instanceNames) {
        const l = find(n);
        if (!l) {
          const why = everything.filter((x) => x.name === n).flatMap((x) => removedWhy.get(x) ?? []);
          excludedExtra.push({
            name: n,
            manifest: null,
            reasons: [
              { code: 'explicit/not-found', message: 'named in VK_INSTANCE_LAYERS but no layer has this name; the loader logs an error and goes on' },
              ...why,
            ],
          });
          continue;
        }
        if (activatedNames.has(n)) continue;
        addNamed(l, {
          code: 'explicit/vk-instance-layers',
          message: l.implicit
            ? 'named in VK_INSTANCE_LAYERS, which adds an implicit layer whatever its enable_environment says'
            : 'named in VK_INSTANCE_LAYERS',
        });
      }
      if (filters.enable)
        for (const l of list) {
          if (l.implicit) continue;
          const on = enableMatch(filters.enable, l.name, l.lower);
          if (!on || alreadyEnabled(l)) continue;
          addNamed(l, {
            code: 'filter/enabled',
            message: `enabled by ${on.variable}=${on.raw}: ${on.why} (added after VK_INSTANCE_LAYERS, in the loader's layer order)`,
          });
        }
    } else if (instanceLayers !== undefined || filters.enable) {
      // Loader 1.3.239 walks its layer list, not the variables: the layers come in discovery order,
      // every explicit manifest that matches is added (duplicates too), names that match nothing are
      // ignored silently, implicit layers named there are not added.
      const names = new Set(instanceNames);
      for (const l of list) {
        if (l.implicit) continue;
        const on = enableMatch(filters.enable, l.name, l.lower);
        let why: ChainReason;
        if (on)
          why = {
            code: 'filter/enabled',
            message: `enabled by ${on.variable}=${on.raw}: ${on.why} (added with VK_INSTANCE_LAYERS, in the loader's layer order)`,
          };
        else if (names.has(l.name)) why = { code: 'explicit/vk-instance-layers', message: `named in VK_INSTANCE_LAYERS` };
        else continue;
        addNamed(l, why);
      }
      for (const n of names)
        if (!list.some((l) => !l.implicit && l.name === n)) {
          const why = everything.filter((l) => l.name === n && !l.implicit).flatMap((l) => removedWhy.get(l) ?? []);
          excludedExtra.push({
            name: n,
            manifest: null,
            reasons: [
              { code: 'explicit/not-found', message: 'named in VK_INSTANCE_LAYERS but no explicit layer has this name; the loader ignores it' },
              ...why,
            ],
          });
        }
    }
    // 3. The application's layers, the first layer of each name; one already enabled is skipped.
    for (const [i, n] of app.requestedLayers.entries()) {
      const l = find(n)!;
      if (activatedNames.has(n)) continue;
      addNamed(l, { code: 'explicit/requested-by-app', message: `requested by the application (ppEnabledLayerNames[${i}])` });
    }
  } else {
    for (const n of missing) {
      const why = everything.filter((l) => l.name === n).flatMap((l) => removedWhy.get(l) ?? []);
      excludedExtra.push({
        name: n,
        manifest: null,
        reasons: [
          {
            code: 'explicit/not-found',
            message: `requested by the application but not among the loader's layers: vkCreateInstance fails with VK_ERROR_LAYER_NOT_PRESENT`,
          },
          ...why,
        ],
      });
    }
  }

  const { chosen, chain } = placeLayers(expanded, (l) => remarks.get(l), appApi);
  const inChain = new LayerSet(base);
  for (const a of chosen) inChain.add(a.layer);
  const expandedLayers = new LayerSet(base);
  for (const a of expanded) expandedLayers.add(a.layer);
  const excluded: ExcludedLayer[] = base.rejected.map((r) => ({ ...r, reasons: [...r.reasons] }));
  for (const l of everything) {
    if (inChain.has(l) || expandedMetas.has(l)) continue;
    const reasons = removedWhy.get(l) ?? [];
    // Only a layer found earlier shadows: one that came later is first now only because the
    // earlier ones left the list. (Most names are unique: no lookup for them.)
    const first = base.index.later.has(l.name) ? find(l.name) : undefined;
    if (first && first !== l && first.pos < l.pos)
      reasons.push({ code: 'duplicate/shadowed', message: `shadowed by ${first.manifest} found earlier (${first.origin}); lookups by name take the first` });
    if (expandedLayers.has(l))
      reasons.push({ code: 'duplicate/earlier-occurrence-dropped', message: 'enabled more than once; the loader keeps a later occurrence' });
    if (reasons.length === 0 && missing.length)
      reasons.push({
        code: l.implicit ? 'implicit/not-enabled' : 'explicit/not-requested',
        message: `not loaded: vkCreateInstance fails with VK_ERROR_LAYER_NOT_PRESENT (missing: ${missing.join(', ')}) before any layer is enabled`,
      });
    if (reasons.length === 0)
      reasons.push(
        l.implicit
          ? { code: 'implicit/not-enabled', message: 'implicit layer not enabled' }
          : { code: 'explicit/not-requested', message: 'explicit layer: not requested by the application nor in VK_INSTANCE_LAYERS' },
      );
    const remark = remarks.size ? remarks.get(l) : undefined;
    if (remark) reasons.push(...remark);
    excluded.push({ name: l.name, manifest: l.manifest, reasons });
  }
  excluded.push(...excludedExtra);
  if (overridePaths)
    notes.push(`explicit layers are searched only in the override layer's override_paths: ${overridePaths.join(', ')} (VK_LAYER_PATH is ignored)`);

  return {
    loaderVersion: version,
    rulesVersion: version ?? RULES_VERSION,
    rules: rulesFor(version),
    result: missing.length ? 'VK_ERROR_LAYER_NOT_PRESENT' : 'VK_SUCCESS',
    chain: missing.length ? [] : chain,
    metaLayers: metaUses,
    excluded,
    notes,
    settingsFile: settings?.path ?? null,
  };
}

function settingsNote(settings: NonNullable<ChainInput['settings']>): string {
  const r = settings.read;
  if (!r.active) return `the loader reads ${settings.path} but no settings in it apply to this application: ${r.why}`;
  if (r.layers === null) return `the loader applies ${r.entry} of ${settings.path}; it configures no layers, so the usual rules decide them`;
  if (r.layers.length === 0) return `the loader applies ${r.entry} of ${settings.path}, which lists no layers: the application gets none`;
  return `the loader applies ${r.entry} of ${settings.path}: its layer list decides the chain (in its order; unordered_layer_location places the layers it does not name)`;
}

/** What the same entry does to the application's drivers, devices and stderr log (settings-drivers.ts). */
function settingsOtherNotes(settings: NonNullable<ChainInput['settings']>, version: string | null): string[] {
  const r = settings.read;
  if (!r.active) return [];
  const notes: string[] = [];
  const d = r.drivers;
  const count = d ? `${d.additional.length} driver${d.additional.length === 1 ? '' : 's'} (${d.additional.map((a) => a.path).join(', ')})` : '';
  if (d?.active && d.additional.length)
    notes.push(
      d.useExclusively
        ? `${settings.path} gives the application its ${count} and no other driver (additional_drivers_use_exclusively); the last one listed comes first`
        : `${settings.path} adds ${count} in front of the drivers the loader finds; the last one listed comes first`,
    );
  if (d) notes.push(...driverListWithSettings([], d, settings.path).notes.filter((n) => !(d.additional.length && n.includes('use_exclusively is true'))));
  const log = stderrLogFor(r, version);
  if (log.source === 'settings')
    notes.push(
      log.filters.length
        ? `the loader's stderr log follows ${settings.path}'s stderr_log (${log.filters.join(', ')}), not VK_LOADER_DEBUG`
        : `loader ${version ?? 'of unknown version'} writes no log to stderr for this application (${settings.path} is active and has no stderr_log; 1.3.302 falls back to VK_LOADER_DEBUG)`,
    );
  return notes;
}

// ---- chain.explain (IPC) ----

/** A loader version as the loader reports it ("1.4.359"). */
export const LoaderVersionTextSchema = z.string().regex(/^\d{1,3}\.\d{1,3}\.\d{1,4}$/, 'expected a loader version such as 1.4.309');

export const ChainExplainRequestSchema = /* @__PURE__ */ z
  .object({
    /** Variables to set (a string) or unset (null) on top of the environment Strata reasons about. */
    env: z.record(z.string(), z.string().nullable()).optional(),
    /** The application's executable (compared with the override layer's app_keys). */
    appPath: z.string().min(1).optional(),
    /** VkInstanceCreateInfo::ppEnabledLayerNames, in order. */
    requestedLayers: z.array(z.string().min(1)).max(REQUEST_LIMITS.requestedLayers, tooMany('requested layers', REQUEST_LIMITS.requestedLayers)).optional(),
    /** VkApplicationInfo::apiVersion as "MAJOR.MINOR"; default 1.0. */
    apiVersion: z
      .string()
      .regex(/^\d+\.\d+(\.\d+)?$/)
      .optional(),
    /** Model the chain for this loader version instead of asking the installed loader (the model alone). */
    loaderVersion: z.optional(LoaderVersionTextSchema),
    /** Ask this loader library (a libvulkan / vulkan-1.dll) for its version, then model the chain for it. */
    loaderPath: z.string().min(1).max(4096).optional(),
  })
  .strict()
  .refine((r) => !(r.loaderVersion && r.loaderPath), { message: 'give loaderVersion or loaderPath, not both' });
export type ChainExplainRequest = z.infer<typeof ChainExplainRequestSchema>;

/** The environment after a request's overrides (null unsets). */
export function applyEnvOverrides(base: Environment, overrides: Record<string, string | null> | undefined): Environment {
  const env: Record<string, string | undefined> = { ...base };
  for (const [k, v] of Object.entries(overrides ?? {})) {
    if (v === null) delete env[k];
    else env[k] = v;
  }
  return env;
}
