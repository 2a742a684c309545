import { disableMatch, enableMatch } from './layer-filters';
import { loaderHas } from './loader-rules';
import type { ChainApplication, ChainManifest, ChainReason, ExcludedLayer, LayerChain } from './chain-schema';
import type { SettingsControl, SettingsLayerConfig } from './loader-settings-file';
import { apiOf } from './layer-readings';
import { availability, implicitState, layerAt, placeLayers, readLayers, type Activation, type Filters, type Layer, type Vars } from './chain-layers';

/**
 * The chain when a loader settings file configures the layers (settings.c get_settings_layers,
 * combine_settings_layers_with_regular_layers, enable_correct_layers_from_settings; loader.c
 * loader_scan_for_layers and loader_validate_layers). The usual order (implicit layers, then
 * VK_INSTANCE_LAYERS, then the application's) does not apply: the loader walks one list in order,
 *
 * 1. the file's layers in the order written, each read from the manifest its "path" names (found by
 *    discovery or not), an "off" entry kept as a name only;
 * 2. when the file has an unordered_layer_location, every layer the usual discovery finds whose name
 *    the file does not mention, at that place;
 *
 * and enables, in that order, a layer that is "on", or (unless VK_LOADER_LAYERS_DISABLE names it) one
 * that VK_LOADER_LAYERS_ENABLE, VK_INSTANCE_LAYERS or the application names, or an implicit layer that
 * is enabled. A layer the application asks for that is "off" fails vkCreateInstance.
 */

export interface SettingsChainInput {
  settingsFile: string;
  entry: string;
  configs: readonly SettingsLayerConfig[];
  /** The manifests the configurations name, by path, as read (null: unreadable or absent). */
  manifests: ReadonlyMap<string, ChainManifest | null>;
  /** The loader's usual layer list after its removals (loader_scan_for_layers), for the unordered location. */
  regular: readonly Layer[];
  /** Why each usual layer not in `regular` left it. */
  regularExcluded: readonly ExcludedLayer[];
  /** The implicit layers the loader's implicit-layer scan (loader_scan_for_implicit_layers) starts from. */
  implicitScan: readonly Layer[];
  vars: Vars;
  filters: Filters;
  override: Layer | null;
  app: ChainApplication;
  version: string | null;
  /** The loader runs on Windows (its PATH_SEPARATOR is ";"): VK_INSTANCE_LAYERS is split there, and a pre-1.3.302 failure differs. */
  windows?: boolean;
}

type Item =
  | { kind: 'off'; name: string; manifest: string }
  | { kind: 'unordered' }
  | { kind: 'layer'; layer: Layer; control: Exclude<SettingsControl, 'off' | 'unordered_layer_location'>; fromFile: boolean };

export type SettingsChain = Pick<LayerChain, 'result' | 'chain' | 'metaLayers' | 'excluded' | 'notes'>;

const nameOf = (i: Item) => (i.kind === 'unordered' ? '' : i.kind === 'off' ? i.name : i.layer.name);

export function computeSettingsChain(input: SettingsChainInput): SettingsChain {
  const { version, filters, vars, app } = input;
  // Without an unordered location the loader does not scan for other layers, so no override layer is present.
  const override = input.configs.some((c) => c.control === 'unordered_layer_location') ? input.override : null;
  const notes: string[] = [];
  const excluded: ExcludedLayer[] = [];
  let pos = 0;

  // 1. get_settings_layers
  const fileItems: Item[] = [];
  for (const c of input.configs) {
    if (c.control === 'off') {
      fileItems.push({ kind: 'off', name: c.name!, manifest: c.path! });
      continue;
    }
    if (c.control === 'unordered_layer_location') {
      fileItems.push({ kind: 'unordered' });
      continue;
    }
    const m = input.manifests.get(c.path!) ?? null;
    const read = m ? readLayers(m, c.treatAsImplicit) : null;
    if ((!read || read.layers.length === 0) && !loaderHas(version, 'settings-failed-manifest')) {
      // Before 1.3.302 the loader does not notice that nothing was added: it takes the entry before
      // as this one, and removes it (twice) when its name is not this entry's name.
      const prev = fileItems.at(-1);
      if (!prev)
        return crashed(
          `${c.name}: its manifest gives no layer and it is the first entry, so the loader indexes before the start of its list`,
          input,
          excluded,
          FIX_MANIFEST,
        );
      if (nameOf(prev) === c.name) {
        if (prev.kind === 'layer') prev.control = c.control;
        else
          return crashed(
            `${c.name}: its manifest gives no layer, so the loader turns the entry before it (which has no library) ${c.control}`,
            input,
            excluded,
            FIX_MANIFEST,
          );
      } else {
        // The second removal of an emptied list does nothing (loader_remove_layer_in_list checks bounds).
        for (const gone of [fileItems.pop(), fileItems.pop()])
          if (gone)
            excluded.push({
              name: nameOf(gone) || 'unordered_layer_location',
              manifest: gone.kind === 'layer' ? gone.layer.manifest : gone.kind === 'off' ? gone.manifest : null,
              reasons: [
                {
                  code: 'settings/name-mismatch',
                  message: `removed by loader ${version} because a later entry (${c.name}) names a manifest that gives no layer: that loader then removes the last two entries of its list (fixed in 1.3.302)`,
                },
              ],
            });
      }
      continue;
    }
    if (!read || read.layers.length === 0) {
      excluded.push({
        name: c.name!,
        manifest: c.path,
        reasons: [
          {
            code: 'settings/manifest-unusable',
            message: `${input.settingsFile} names this manifest, but the loader cannot use it${m?.problem ? ` (${m.problem})` : m ? '' : ' (no file there)'}`,
          },
        ],
      });
      excluded.push(...(read?.rejected ?? []));
      continue;
    }
    // Before 1.4.347 only the manifest's last layer is checked against the entry; the others stay as "auto".
    const checked = loaderHas(version, 'settings-multi-layer-manifests') ? read.layers : read.layers.slice(-1);
    for (const decl of read.layers) {
      const layer = layerAt(decl, pos++);
      if (!checked.includes(decl)) {
        fileItems.push({ kind: 'layer', layer, control: 'auto', fromFile: true });
        continue;
      }
      if (decl.name !== c.name) {
        excluded.push({
          name: decl.name,
          manifest: decl.manifest,
          reasons: [
            {
              code: 'settings/name-mismatch',
              message: `${input.settingsFile} names ${c.name} for this manifest, which declares ${decl.name}: the loader leaves it out`,
            },
          ],
        });
        // Before 1.4.347 the loader then compares a zeroed entry (no name, no library) with every entry
        // but the last, and strcmp's their library names (null) when one has no name either: the
        // unordered_layer_location. From 1.4.326 a null check avoids that. Then it removes the last
        // entry of its list a second time: the entry before this one goes too.
        if (
          !loaderHas(version, 'settings-multi-layer-manifests') &&
          !loaderHas(version, 'settings-null-check') &&
          fileItems.slice(0, -1).some((i) => i.kind === 'unordered')
        )
          return crashed(
            `the manifest of ${c.name} declares ${decl.name}; removing it, the loader compares an emptied entry with the unordered_layer_location before it (strcmp on a null pointer)`,
            input,
            excluded,
            FIX_MANIFEST,
          );
        const dropped = loaderHas(version, 'settings-multi-layer-manifests') ? undefined : fileItems.pop();
        if (dropped && dropped.kind !== 'unordered')
          excluded.push({
            name: nameOf(dropped),
            manifest: dropped.kind === 'off' ? dropped.manifest : dropped.layer.manifest,
            reasons: [
              {
                code: 'settings/name-mismatch',
                message: `dropped from the settings file's list because the next entry (${c.name}) names a manifest that declares ${decl.name}: loader ${version} removes two entries for it (fixed in 1.4.347)`,
              },
            ],
          });
        continue;
      }
      // Before 1.4.326 the duplicate check compares library names with strcmp even when the earlier entry
      // of this name has none (an "off" entry, a meta-layer): a null pointer, the loader crashes.
      const nameless =
        !decl.meta && !loaderHas(version, 'settings-null-check')
          ? fileItems.find((i) => nameOf(i) === decl.name && (i.kind === 'off' || (i.kind === 'layer' && i.layer.libraryPath === null)))
          : undefined;
      if (nameless)
        return crashed(
          `${decl.name} is listed after an entry of the same name that has no library (${nameless.kind === 'off' ? 'an "off" entry' : 'a meta-layer'}); get_settings_layers calls strcmp on a null pointer before 1.4.326`,
          input,
          excluded,
          FIX_OFF,
        );
      const twin = fileItems.find(
        (i) => i.kind === 'layer' && i.layer.name === decl.name && !decl.meta && i.layer.libraryPath !== null && i.layer.libraryPath === decl.libraryPath,
      );
      if (twin) {
        excluded.push({
          name: decl.name,
          manifest: decl.manifest,
          reasons: [
            { code: 'duplicate/shadowed', message: `${input.settingsFile} names this layer twice with the same library; the loader keeps the first entry` },
          ],
        });
        continue;
      }
      fileItems.push({ kind: 'layer', layer, control: c.control, fromFile: true });
    }
  }

  // 2. combine_settings_layers_with_regular_layers
  const unordered = fileItems.findIndex((i) => i.kind === 'unordered');
  // Before 1.3.302 the implicit-layer scan (vkEnumerateInstanceVersion and the other global calls, so
  // before vkCreateInstance) combines the whole list with the enabled implicit layers, comparing
  // library names of same-named entries: an "off" entry or a meta-layer has none, strcmp on null.
  if (unordered >= 0 && !loaderHas(version, 'settings-layer-off-meta'))
    for (const r of input.implicitScan) {
      if (r.meta || !implicitState(r, vars, filters, override).enabled) continue;
      const same = fileItems.find(
        (i) => i.kind !== 'unordered' && nameOf(i) === r.name && (i.kind === 'off' || i.layer.libraryPath === null || i.layer.libraryPath === r.libraryPath),
      );
      if (same && (same.kind === 'off' || (same.kind === 'layer' && same.layer.libraryPath === null)))
        return crashed(
          `the implicit layer ${r.name} meets the settings file's ${same.kind === 'off' ? '"off" entry' : 'meta-layer'} of that name, which has no library (check_if_layer_is_in_list calls strcmp on a null pointer before 1.3.302); vkEnumerateInstanceVersion already crashes`,
          input,
          excluded,
          FIX_OFF,
        );
    }
  let list: Item[];
  const sawUnordered = input.configs.some((c) => c.control === 'unordered_layer_location');
  if (fileItems.length === 0 && sawUnordered) {
    // The file's list ended up empty (entries removed by the bugs above) after it asked for the other
    // layers: the loader uses those alone, in its usual order, enabled by the settings walk below.
    list = input.regular.map((layer) => ({ kind: 'layer', layer, control: 'auto', fromFile: false }));
    excluded.push(...input.regularExcluded);
  } else if (unordered < 0 || input.regular.length === 0) {
    // With no other layer found, the loader takes the file's list as it is (the unordered entry included).
    list = fileItems;
    for (const l of input.regular)
      excluded.push({
        name: l.name,
        manifest: l.manifest,
        reasons: [
          {
            code: 'settings/not-listed',
            message: `${input.settingsFile} (${input.entry}) lists its layers without an unordered_layer_location, so the loader uses only those`,
          },
        ],
      });
    excluded.push(...input.regularExcluded);
  } else {
    const offOrMetaMatches = loaderHas(version, 'settings-layer-off-meta');
    // Before 1.4.337 a same-named layer with another library is never "in the list", so both copies stay.
    const namesOnly = loaderHas(version, 'settings-consider-lib-path');
    // check_if_layer_is_in_list. Before 1.3.302 it compared library names of every same-named
    // entry, including an "off" entry that has none: strcmp on a null pointer, the loader crashes.
    let crash: string | null = null;
    const inList = (items: readonly Item[], x: Item, considerLib: boolean): boolean => {
      const name = nameOf(x);
      const meta = x.kind === 'layer' && x.layer.meta;
      const lib = x.kind === 'layer' ? x.layer.libraryPath : null;
      for (const e of items) {
        if (nameOf(e) !== name) continue;
        const eLib = e.kind === 'layer' ? e.layer.libraryPath : null;
        if (offOrMetaMatches) {
          if (e.kind === 'off' || meta || (namesOnly && !considerLib)) return true;
          if (eLib !== null && lib !== null) return eLib === lib;
        } else {
          if (meta) continue;
          if (eLib === null || lib === null) {
            crash ??= `${name}: the settings file's entry has no library to compare with (check_if_layer_is_in_list calls strcmp on a null pointer before 1.3.302)`;
            return true;
          }
          if (eLib === lib) return true;
        }
      }
      return false;
    };
    const out: Item[] = [];
    // An entry appended to the output is moved there (loader_append_layer_property zeroes the source),
    // so the file's list the discovered layers are checked against keeps only the entries before the
    // unordered location that were not appended, and those after it.
    const remaining: Item[] = [];
    for (const i of fileItems.slice(0, unordered)) (inList(out, i, true) ? remaining : out).push(i);
    remaining.push(...fileItems.slice(unordered));
    for (const l of input.regular) {
      const item: Item = { kind: 'layer', layer: l, control: 'auto', fromFile: false };
      if (inList(out, item, false) || inList(remaining, item, false)) {
        const turnedOff = fileItems.find((i) => nameOf(i) === l.name)?.kind === 'off';
        excluded.push({
          name: l.name,
          manifest: l.manifest,
          reasons: [
            turnedOff
              ? { code: 'settings/off', message: `turned off by ${input.settingsFile} (${input.entry})` }
              : {
                  code: 'settings/superseded',
                  message: `${input.settingsFile} (${input.entry}) configures a layer of this name, so the loader does not place this one at the unordered location`,
                },
          ],
        });
        continue;
      }
      out.push(item);
    }
    for (const i of fileItems.slice(unordered + 1)) if (!namesOnly || !inList(out, i, true)) out.push(i);
    excluded.push(...input.regularExcluded);
    if (crash) return crashed(crash, input, excluded, FIX_OFF);
    list = out;
  }

  // loader_validate_layers: every name the application asks for must be in the list and not "off".
  const first = (name: string) => list.find((i) => nameOf(i) === name);
  const refused = app.requestedLayers.filter((n) => {
    const i = first(n);
    return !i || i.kind === 'off';
  });
  if (refused.length) {
    for (const n of refused)
      excluded.push({
        name: n,
        manifest: null,
        reasons: [
          first(n)
            ? {
                code: 'settings/off',
                message: `requested by the application, but ${input.settingsFile} turns it off: vkCreateInstance fails with VK_ERROR_LAYER_NOT_PRESENT`,
              }
            : {
                code: 'explicit/not-found',
                message: `requested by the application but not among the loader's layers: vkCreateInstance fails with VK_ERROR_LAYER_NOT_PRESENT`,
              },
        ],
      });
    return { result: 'VK_ERROR_LAYER_NOT_PRESENT', chain: [], metaLayers: [], excluded, notes };
  }

  // 3. enable_correct_layers_from_settings
  const spareOn = loaderHas(version, 'settings-disable-spares-on');
  // 1.3.267–1.3.301 overflow their one copy of VK_INSTANCE_LAYERS; before and after, each layer reads it whole.
  const instanceLayersOverflow = loaderHas(version, 'settings-instance-layers-overflow') && !loaderHas(version, 'settings-instance-layers-fix');
  let instanceChecks = 0;
  const instanceNames = (vars.get('VK_INSTANCE_LAYERS') ?? '').split(input.windows ? ';' : ':').filter((n) => n.length > 0);
  const expanded: Activation[] = [];
  const metaLayers: LayerChain['metaLayers'] = [];
  const source = input.settingsFile;
  const fromWhere = (i: Extract<Item, { kind: 'layer' }>) =>
    i.fromFile ? `listed in ${source} (${input.entry})` : `placed at the unordered_layer_location of ${source}`;
  const enabledNames = () => new Set(expanded.map((a) => a.layer.name));
  let metaCrash: string | null = null;
  /** The unordered entry taken as a layer (before 1.3.302): how many layers were enabled before it (0: it is first in the chain). */
  let nameless: { at: number; why: string } | null = null;
  // loader_add_meta_layer: each component is the first entry of its name in the list (an "off" one too),
  // skipped when the layer filters disable it, added once (an implicit one only when enabled).
  const addMeta = (meta: Layer, via: ChainReason[], seen: Set<Layer>) => {
    if (seen.has(meta)) return;
    seen.add(meta);
    for (const [n, c] of meta.components.entries()) {
      const item = first(c);
      const here: ChainReason = { code: 'meta/expanded', message: `expanded from meta-layer ${meta.name} at position ${n + 1}` };
      if (!item || item.kind === 'unordered') {
        excluded.push({
          name: c,
          manifest: null,
          reasons: [{ code: 'meta/incomplete', message: `component of ${meta.name} not found in the loader's list; the other components are still used` }],
        });
        continue;
      }
      if (item.kind === 'off') {
        // The "off" entry is a name without a manifest; taken as an implicit layer that is enabled, the
        // loader adds it to the chain and crashes on its missing library (1.4.341, 1.4.359) or hangs (1.4.309, 1.4.321).
        const off = disableMatch(filters.disable, c, true) && !enableMatch(filters.allow, c) && !enableMatch(filters.enable, c);
        if (!off)
          metaCrash ??= `${meta.name} has ${c} as a component, and ${source} turns ${c} off: the loader takes the "off" entry, which has no library, as the component`;
        continue;
      }
      const comp = item.layer;
      const available = availability(comp, filters);
      if (!available.available) {
        excluded.push({
          name: comp.name,
          manifest: comp.manifest,
          reasons: [{ code: 'filter/disabled', message: `component of ${meta.name}, ${available.reason?.message ?? 'disabled'}` }],
        });
        continue;
      }
      if (comp.implicit) {
        const state = implicitState(comp, vars, filters, override);
        if (!state.enabled) continue;
        if (comp.meta) addMeta(comp, [...via, here, state.reason], seen);
        else if (!enabledNames().has(comp.name)) expanded.push({ layer: comp, reasons: [...via, here, state.reason] });
      } else if (comp.meta) addMeta(comp, [...via, here], seen);
      else if (!enabledNames().has(comp.name)) expanded.push({ layer: comp, reasons: [...via, here] });
    }
    metaLayers.push({ name: meta.name, manifest: meta.manifest, components: meta.components, reasons: via });
  };
  for (const item of list) {
    if (item.kind === 'off') {
      // Said once per manifest: a discovered layer the entry turns off already has this reason.
      if (!excluded.some((e) => e.name === item.name && e.manifest === item.manifest && e.reasons.some((r) => r.code === 'settings/off')))
        excluded.push({ name: item.name, manifest: item.manifest, reasons: [{ code: 'settings/off', message: `turned off by ${source} (${input.entry})` }] });
      continue;
    }
    if (item.kind === 'unordered') {
      // Before 1.3.302 the unordered entry is walked like an implicit layer without a name, enabled unless
      // the disable filter covers every layer, and the loader crashes on its missing library.
      if (!spareOn && !(disableMatch(filters.disable, '', true, '') && !enableMatch(filters.allow, '', ''))) {
        const why = 'the unordered_layer_location entry is taken as a layer without a library (no other layer was found to put there)';
        // Windows: LoadLibrary of the null path fails (error 87) and vkCreateInstance fails instead of crashing (rules table).
        if (input.windows && !loaderHas(version, 'settings-unordered-windows-oom'))
          return {
            result: 'VK_ERROR_OUT_OF_HOST_MEMORY',
            chain: [],
            metaLayers: [],
            excluded,
            notes: [
              `loader ${input.version} fails vkCreateInstance with VK_ERROR_OUT_OF_HOST_MEMORY with this settings file on Windows: ${why}, and loading it fails (LoadLibrary error 87). ${FIX_UPDATE}`,
            ],
          };
        // The entry is opened as the program itself (dlopen(NULL)), whose vkGetInstanceProcAddr is the
        // loader's own. First in the chain, the loader asks it for vkCreateInstance with the new
        // instance, gets NULL and fails ("Failed to find 'vkCreateInstance'"); below a real layer, that
        // layer's call down re-enters the loader and it crashes (builds of 1.3.251–1.3.301).
        nameless ??= { at: expanded.length, why };
      }
      continue;
    }
    const l = item.layer;
    let why: ChainReason | null = null;
    if (item.control === 'on') why = { code: 'settings/on', message: `turned on by ${source} (${input.entry})` };
    if (!why || !spareOn) {
      // The disable filter's ~implicit~ applies to every layer here, ~explicit~ to none (loader code as of 1.4.359).
      const off = disableMatch(filters.disable, l.name, true, l.lower);
      if (off && !enableMatch(filters.allow, l.name, l.lower)) {
        excluded.push({
          name: l.name,
          manifest: l.manifest,
          reasons: [{ code: 'filter/disabled', message: `${fromWhere(item)}, but disabled by ${off.variable}=${off.raw}: ${off.why}` }],
        });
        continue;
      }
    }
    const on = why ? null : enableMatch(filters.enable, l.name, l.lower);
    if (on) why = { code: 'filter/enabled', message: `enabled by ${on.variable}=${on.raw}: ${on.why}` };
    if (!why && instanceNames.length && instanceLayersOverflow && instanceChecks++ > 1)
      return crashed(
        `VK_INSTANCE_LAYERS is read for a third layer (${l.name}): from the second on, loaders 1.3.267–1.3.301 copy it past the end of their buffer, and by the third the copy overwrites the loader's own variables (seen on 1.3.275; came with 0a5fdecfb, fixed by 5bd87fba3)`,
        input,
        excluded,
      );
    if (!why && instanceNames.includes(l.name)) why = { code: 'explicit/vk-instance-layers', message: 'named in VK_INSTANCE_LAYERS' };
    if (!why && app.requestedLayers.includes(l.name)) why = { code: 'explicit/requested-by-app', message: 'requested by the application' };
    if (!why && l.implicit) {
      const state = implicitState(l, vars, filters, override);
      if (state.enabled) why = state.reason;
      else {
        excluded.push({ name: l.name, manifest: l.manifest, reasons: [state.reason, { code: 'settings/auto', message: fromWhere(item) }] });
        continue;
      }
    }
    if (!why) {
      excluded.push({
        name: l.name,
        manifest: l.manifest,
        reasons: [{ code: 'explicit/not-requested', message: `${fromWhere(item)} as "auto", and nothing asks for it` }],
      });
      continue;
    }
    const reasons = [why, { code: 'settings/order' as const, message: `${fromWhere(item)}; the loader enables the settings file's list in order` }];
    if (l.meta) addMeta(l, reasons, new Set());
    else expanded.push({ layer: l, reasons });
  }
  if (nameless && nameless.at === 0)
    return {
      result: 'VK_ERROR_INITIALIZATION_FAILED',
      chain: [],
      metaLayers: [],
      excluded,
      notes: [
        `loader ${input.version} fails vkCreateInstance with VK_ERROR_INITIALIZATION_FAILED with this settings file: ${nameless.why}, and first in the chain it is the program itself, which gives no vkCreateInstance. ${FIX_UPDATE}`,
      ],
    };
  if (nameless) return crashed(nameless.why, input, excluded);
  if (metaCrash) {
    // The entry without a library is opened as the program itself (dlopen(NULL)), whose
    // vkGetInstanceProcAddr is the loader's own: vkCreateInstance then calls into the loader again.
    // 1.4.324+ crash every time (77ccbe4f4 asks for the real path of each opened library); before, what follows is undefined:
    // a crash, a hang, or VK_ERROR_INITIALIZATION_FAILED depending on the rest of the chain.
    const fix = 'Turn the meta-layer off too, or leave its component out of the settings file.';
    if (!loaderHas(version, 'settings-off-component-crash'))
      return crashed(`${metaCrash}; undefined behaviour: it crashes, hangs or fails with VK_ERROR_INITIALIZATION_FAILED`, input, excluded, fix);
    return crashed(metaCrash, input, excluded, fix);
  }
  const { chain } = placeLayers(expanded, () => undefined, apiOf(app.apiVersion ?? '1.0'));
  return { result: 'VK_SUCCESS', chain, metaLayers, excluded, notes };
}

const FIX_OFF = 'Remove the "off" entry, or give it a different name from the installed layer.';
const FIX_MANIFEST = 'Point the entry at a manifest the loader accepts, or remove it.';
const FIX_UPDATE = 'Update the loader, or leave the settings file out for this application.';

function crashed(why: string, input: SettingsChainInput, excluded: ExcludedLayer[], fix: string = FIX_UPDATE): SettingsChain {
  return {
    result: 'LOADER_CRASH',
    chain: [],
    metaLayers: [],
    excluded,
    notes: [`loader ${input.version} crashes (or hangs) in vkCreateInstance with this settings file: ${why}. ${fix}`],
  };
}
