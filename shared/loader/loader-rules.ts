/**
 * The one table of loader behaviour that changed between releases. Each row is one behaviour, the
 * first Khronos loader release that has it, and the commit it came in (KhronosGroup/Vulkan-Loader).
 * The chain model, the layer filters, search paths, the settings-file reader/writer and the profile
 * code ask this table (`loaderHas`) instead of comparing versions themselves.
 *
 * How the rows were found: every suite that compares with the real loader runs against six real
 * builds (1.3.239, 1.3.275, 1.4.309, 1.4.321, 1.4.341, 1.4.359: tests/helpers/loader-builds.ts);
 * a disagreement was traced to the loader source and its history, and the row's `since` is the
 * first tag containing that commit. A row whose first version falls between two matrix versions was
 * also run on builds of the tags either side of it (the matrix suites with STRATA_LOADER_SOURCES
 * naming those builds, and STRATA_RULE_FLIP moving the row one release either way, which must fail):
 * the `proven` field says which.
 */

/** What the model does when the loader's version is unknown (Debian 12's system loader). */
export const RULES_VERSION = '1.3.239';
/** The oldest and newest loaders the model is proven against. */
export const OLDEST_PROVEN = '1.3.239';
export const NEWEST_PROVEN = '1.4.359';
/** The loaders of the matrix, and who runs them (the UI's loader selector shows both). */
export const PROVEN_LOADERS = [
  { version: '1.3.239', who: 'Debian 12' },
  { version: '1.3.275', who: 'Ubuntu 24.04' },
  { version: '1.4.309', who: 'Debian 13, Fedora 41' },
  { version: '1.4.321', who: 'Ubuntu 25.10, Fedora 43' },
  { version: '1.4.341', who: 'Arch, Fedora 44' },
  { version: '1.4.359', who: 'newest release' },
] as const;
export const PROVEN_VERSIONS = PROVEN_LOADERS.map((l) => l.version);

/**
 * Every rule's id. A plain constant (its schema is chain-schema.ts's LoaderRuleIdSchema): the rules
 * are read by the renderer's first view, which builds no schema (issue #19: first render).
 */
export const LOADER_RULE_IDS = [
  'layer-chain',
  'layer-filters',
  'driver-filters',
  'first-occurrence-wins',
  'instance-layers-ordered',
  'settings-file',
  'meta-no-duplicates',
  'override-paths-first',
  'settings-folder-renamed',
  'settings-windows-exists-check',
  'settings-layer-off-meta',
  'settings-disable-spares-on',
  'settings-unordered-windows-oom',
  'settings-first-app-match',
  'settings-layers-optional',
  'settings-multi-layer-manifests',
  'settings-consider-lib-path',
  'settings-null-check',
  'settings-instance-layers-overflow',
  'settings-instance-layers-fix',
  'settings-failed-manifest',
  'settings-off-component-crash',
  'settings-empty-entry-ignored',
  'layers-allow',
  'implicit-layer-path',
  'meta-recursion-check',
  'settings-drivers',
  'settings-device-configurations',
  'settings-device-driver-uuid',
  'settings-device-malformed-continue',
  'settings-device-none-matched-fails',
  'settings-device-malformed-skipped',
  'settings-stderr-log-fallback',
  'settings-search-xdg',
  'instance-layers-order-implicit',
  'settings-layer-configurations',
  'remove-duplicate-layers',
  'meta-expansion-cycle-break',
  'filter-whole-wildcards',
  'log-column-19',
  'log-prefix',
  'json-helpers',
  'invalid-json-skips-file',
  'strict-manifest-types',
  'invalid-type-skipped',
  'missing-versions-skipped',
] as const;
export type LoaderRuleId = (typeof LOADER_RULE_IDS)[number];

export interface LoaderRule {
  id: LoaderRuleId;
  since: string;
  /** The commit (and its subject) the behaviour came in, or the file it lives in. */
  source: string;
  summary: string;
  /** False for a rule the model knows of but does not implement. */
  modeled: boolean;
  /** For a row between two matrix versions: the builds either side it was run on, or how its commit was found. */
  proven?: string;
}

export const LOADER_RULES: readonly LoaderRule[] = [
  {
    id: 'layer-chain',
    since: '1.0.0',
    source: 'loader.c loader_enable_instance_layers',
    summary:
      'implicit layers (enable_environment / disable_environment), VK_INSTANCE_LAYERS, requested layers, meta-layers, the override layer and chain order',
    modeled: true,
  },
  {
    id: 'layer-filters',
    since: '1.3.234',
    source: 'loader_environment.c',
    summary: 'VK_LOADER_LAYERS_ENABLE / VK_LOADER_LAYERS_DISABLE layer-name filters',
    modeled: true,
  },
  {
    id: 'driver-filters',
    since: '1.3.234',
    source: 'loader.c loader_icd_scan',
    summary: 'VK_LOADER_DRIVERS_SELECT / VK_LOADER_DRIVERS_DISABLE, matched on the manifest file name',
    modeled: true,
  },
  {
    id: 'first-occurrence-wins',
    since: '1.3.247',
    source: 'c3eb97de2 "Make correct layer be used when duplicates are present"',
    summary: 'a layer enabled twice keeps its first occurrence (nearest the application); before, the one nearest the driver won',
    modeled: true,
    proven: 'builds of v1.3.246 and v1.3.247 (chain-vs-loader)',
  },
  {
    id: 'instance-layers-ordered',
    since: '1.3.247',
    source: '50df6bc57 "Fix ordering regression for VK_INSTANCE_LAYERS"',
    summary:
      'VK_INSTANCE_LAYERS is read in the order it is written, before the layers VK_LOADER_LAYERS_ENABLE adds, and may name implicit layers; before, layers came in discovery order',
    modeled: true,
    proven: 'builds of v1.3.246 and v1.3.247 (chain-vs-loader)',
  },
  {
    id: 'settings-file',
    since: '1.3.251',
    source: '9a7de469f "Add loader settings file"',
    summary:
      'vk_loader_settings.json: an object of layer configurations (on/off/auto, in order, with unordered_layer_location for the layers it does not name) replaces the usual chain rules',
    modeled: true,
    proven: 'builds of v1.3.250 and v1.3.251 (chain-vs-loader)',
  },
  {
    id: 'meta-no-duplicates',
    since: '1.3.251',
    source: '180b1c3ef "Meta layers now dont add layers more than once"',
    summary: "a meta-layer's component already enabled is not added again",
    modeled: true,
    proven: 'builds of v1.3.250 and v1.3.251 (chain-vs-loader)',
  },
  {
    id: 'override-paths-first',
    since: '1.3.251',
    source: 'fe73c4187 "Significantly reduce duplicate layer scanning code"',
    summary: 'explicit layers are searched in the override_paths of the first enabled override layer that has some (before: the last)',
    modeled: true,
    proven: 'builds of v1.3.250 and v1.3.251 (chain-vs-loader)',
  },
  {
    id: 'settings-folder-renamed',
    since: '1.3.253',
    source: 'settings.c',
    summary: 'the settings file lives in vulkan/loader_settings.d/ (1.3.251–1.3.252: vulkan/settings.d/)',
    modeled: true,
    proven: 'builds of v1.3.251 and v1.3.253 (settings-file-search-vs-loader; there is no v1.3.252 tag)',
  },
  {
    id: 'settings-windows-exists-check',
    since: '1.3.302',
    source: 'PR #1607 "Correctly check if settings file exists on windows" (loader_windows.c get_settings_path_if_exists_in_registry_key)',
    summary:
      'Windows: a LoaderSettings value naming a vk_loader_settings.json that does not exist is skipped and HKLM is read next; before, the loader takes it, opens nothing and reads no settings file',
    modeled: true,
  },
  {
    id: 'settings-layer-off-meta',
    since: '1.3.302',
    source: '44d99e3d8 "Redo logic of check_if_layer_is_in_list()"',
    summary:
      'the settings file can turn a meta-layer (the override layer) off; before, a meta-layer was never matched, so "off" for it did nothing. Strata binds profiles to applications through the settings file only from here, through override layers with app_keys before',
    modeled: true,
    proven: 'builds of v1.3.301 and v1.3.302 (chain-vs-loader)',
  },
  {
    id: 'settings-disable-spares-on',
    since: '1.3.302',
    source: '63dcb0a8f "Log when Filter Env-Vars act when settings file is active"',
    summary:
      'VK_LOADER_LAYERS_DISABLE no longer turns off a layer the settings file turns "on", and the unordered_layer_location entry is skipped when layers are enabled; before, that entry was enabled as a layer without a library: first in the chain, vkCreateInstance fails with VK_ERROR_INITIALIZATION_FAILED, below a real layer it crashes',
    modeled: true,
    proven: 'builds of v1.3.301 and v1.3.302 (chain-vs-loader)',
  },
  {
    id: 'settings-unordered-windows-oom',
    since: '1.3.302',
    source:
      "63dcb0a8f (as settings-disable-spares-on); Windows: loader_platform_open_library of the entry's null library path fails (LoadLibrary error 87), seen on the mingw-built 1.3.275 under Wine (docs/windows.md)",
    summary:
      'Windows: before this, an unordered_layer_location entry left in the layer list (no other layer found to put there) is enabled as a layer without a library, and vkCreateInstance returns VK_ERROR_OUT_OF_HOST_MEMORY; on Linux the loader crashes there instead',
    modeled: true,
  },
  {
    id: 'settings-first-app-match',
    since: '1.4.303',
    source: 'cc9d0cbfd "Refactor get_loader_settings to not allocate app_keys"',
    summary: 'the first entry of settings_array whose app_keys name the executable applies; before, the last one did',
    modeled: true,
    proven: 'builds of v1.3.302 and v1.4.303 (chain-vs-loader)',
  },
  {
    id: 'settings-layers-optional',
    since: '1.4.309',
    source: '30aa753ee "Allow settings with only debug logging to work"',
    summary: 'a settings object without "layers" is valid (before, the file was ignored); until 1.4.336 such a file left the application with no layers at all',
    modeled: true,
  },
  {
    id: 'settings-multi-layer-manifests',
    since: '1.4.347',
    source: 'e30b49a24 "fix: handle multi-layer setting additions and fix settings equality checks"',
    summary:
      'every layer of a manifest the settings file names is checked against the entry; before, only the manifest\'s last layer was (the others stayed as "auto"), and an entry whose manifest declares another name removed the entry before it too',
    modeled: true,
    proven: 'builds of v1.4.346 and v1.4.347 (chain-vs-loader)',
  },
  {
    id: 'settings-consider-lib-path',
    since: '1.4.337',
    source: 'bf546ec93 "Fix duplicate layer output with the settings file"',
    summary:
      'a layer found by discovery is left out of the unordered_layer_location when the settings file or an earlier layer has its name; before, only one with the same library was, so two copies of a name could both be enabled',
    modeled: true,
    proven: 'builds of v1.4.336 and v1.4.337 (chain-vs-loader)',
  },
  {
    id: 'settings-null-check',
    since: '1.4.326',
    source: '272251ff5 "Add null check before strcmp"',
    summary: 'a settings file that lists a layer after an "off" entry (or a meta-layer) of the same name no longer crashes the loader in vkCreateInstance',
    modeled: true,
    proven: 'builds of v1.4.325 and v1.4.326 (chain-vs-loader)',
  },
  {
    id: 'settings-instance-layers-overflow',
    since: '1.3.267',
    source:
      '0a5fdecfb "Fix problems detected by CodeQL static analysis" (enable_correct_layers_from_settings: one copy of VK_INSTANCE_LAYERS for every layer, advanced and never reset)',
    summary:
      'with a settings file that lists layers, the second layer that reads VK_INSTANCE_LAYERS makes the loader write past its buffer (crashing by the third); before, each layer read a fresh copy and the variable worked (fixed again in 1.3.302)',
    modeled: true,
    proven: 'git bisect run over v1.3.251..v1.3.267 (chain-vs-loader seeds 105, 125, 214, 252: no crash on builds of v1.3.251–v1.3.266, a crash on v1.3.267)',
  },
  {
    id: 'settings-instance-layers-fix',
    since: '1.3.302',
    source: '5bd87fba3 "Fix VK_INSTANCE_LAYERS bug when using vk_loader_settings.json"',
    summary:
      'with a settings file that lists layers, VK_INSTANCE_LAYERS is read correctly for every layer; before, the second layer that asked for it made the loader write past its buffer and crash',
    modeled: true,
    proven:
      'builds of v1.3.301 and v1.3.302 (chain-vs-loader); the overflow it fixes came in 0a5fdecfb (v1.3.267, git bisect run): builds of v1.3.251–v1.3.266 do not crash',
  },
  {
    id: 'settings-failed-manifest',
    since: '1.3.302',
    source: '44d99e3d8 "Redo logic of check_if_layer_is_in_list()"',
    summary:
      'a settings file entry whose manifest gives no layer is skipped; before, the loader took the entry before it in its place (removing it twice when the names differ, or crashing when there was none)',
    modeled: true,
    proven: 'builds of v1.3.301 and v1.3.302 (chain-vs-loader)',
  },
  {
    id: 'settings-off-component-crash',
    since: '1.4.324',
    source: '77ccbe4f4 "Get real path to layer & driver binaries" (found by git bisect run between v1.4.321 and v1.4.341)',
    summary:
      'a meta-layer whose component the settings file turns "off" crashes vkCreateInstance (the loader now asks for the real path of every library it opened, and the "off" entry has none); before, the loader calls into itself and the outcome is undefined: a crash, a hang or VK_ERROR_INITIALIZATION_FAILED',
    modeled: true,
    proven: 'git bisect run over v1.4.321..v1.4.341 (no crash on v1.4.323, SIGSEGV on v1.4.324)',
  },
  {
    id: 'settings-empty-entry-ignored',
    since: '1.4.323',
    source:
      '1d2a2fdb5 "Add device and drivers fields to settings file" (get_loader_settings: "Only consider the settings active if there is at least one setting active")',
    summary:
      'a settings entry without a stderr_log filter, a layer entry, an additional driver or a device configuration is not active: the loader ignores the file and the usual rules decide the layers; before, "layers": [] left the application with no layers at all. From 1.4.336 a "layers" array counts again, even an empty one',
    modeled: true,
    proven: 'builds of v1.4.322 and v1.4.323 (chain-vs-loader: 5 of 315 scenarios disagreed on v1.4.323 before this row)',
  },
  {
    id: 'layers-allow',
    since: '1.3.262',
    source: '870fd572d "Add VK_LOADER_LAYERS_ALLOW environment variable."',
    summary: 'VK_LOADER_LAYERS_ALLOW exempts layers from VK_LOADER_LAYERS_DISABLE',
    modeled: true,
    proven: 'builds of v1.3.261 and v1.3.262 (chain-vs-loader)',
  },
  {
    id: 'implicit-layer-path',
    since: '1.3.296',
    source: 'vk_loader_platform.h VK_IMPLICIT_LAYER_PATH_ENV_VAR',
    summary: 'VK_IMPLICIT_LAYER_PATH / VK_ADD_IMPLICIT_LAYER_PATH',
    modeled: false,
    proven: 'builds of v1.3.295 and v1.3.296 (discovery-vs-loader)',
  },
  {
    id: 'meta-recursion-check',
    since: '1.4.304',
    source: 'eab360311 "Verify meta layers aren\'t recursive to any depth"',
    summary:
      'meta-layers that lead back to themselves through other meta-layers are removed; older loaders recurse until the stack overflows (the model removes them for every version and does not predict the crash)',
    modeled: false,
    proven: 'builds of v1.4.303 and v1.4.304 (chain-vs-loader: a cycle of three meta-layers; v1.4.303 already removes a cycle of two, 9c806e1f9)',
  },
  {
    id: 'settings-drivers',
    since: '1.4.323',
    source: '1d2a2fdb5 "Add device and drivers fields to settings file"',
    summary:
      'the settings file\'s additional_drivers go in front of the searched driver manifests (VK_DRIVER_FILES included), the last one first; additional_drivers_use_exclusively: true drops the searched ones; a last path not ending in ".json" leaves no driver at all; a malformed entry drops every additional driver',
    modeled: true,
    proven: 'builds of v1.4.322 and v1.4.323 (settings-drivers-vs-loader)',
  },
  {
    id: 'settings-device-configurations',
    since: '1.4.323',
    source: '1d2a2fdb5 "Add device and drivers fields to settings file"',
    summary:
      'device_configurations: vkEnumeratePhysicalDevices reports only the devices the settings file lists (by UUID), in its order, and the loader ignores VK_DRIVER_FILES, VK_ICD_FILENAMES, VK_ADD_DRIVER_FILES, VK_LOADER_DRIVERS_SELECT and VK_LOADER_DRIVERS_DISABLE',
    modeled: true,
    proven: 'builds of v1.4.322 and v1.4.323 (settings-drivers-vs-loader)',
  },
  {
    id: 'settings-device-malformed-continue',
    since: '1.4.325',
    source: '434131b09 "Fix invalid settings configuration parsing errors"',
    summary:
      'a malformed device configuration before the last one is skipped; before, it dropped the whole device_configurations list, so every device was reported',
    modeled: true,
    proven: 'builds of v1.4.324 and v1.4.325 (settings-drivers-vs-loader)',
  },
  {
    id: 'settings-device-none-matched-fails',
    since: '1.4.325',
    source: 'c3394a6c8 "Log when device configurations removes VkPhysicalDevices"',
    summary:
      'when no device configuration matches a device, vkEnumeratePhysicalDevices fails with VK_ERROR_INITIALIZATION_FAILED; before, it answered VK_SUCCESS with no device',
    modeled: true,
    proven: 'builds of v1.4.324 and v1.4.325 (settings-drivers-vs-loader)',
  },
  {
    id: 'settings-device-driver-uuid',
    since: '1.4.329',
    source: '74047e496 "Add driverUUID and driverVersion to settings file device configuration parameters"',
    summary: 'a device configuration needs driverUUID and driverVersion as well as deviceUUID (an entry without them is malformed)',
    modeled: true,
    proven: 'builds of v1.4.328 and v1.4.329 (settings-drivers-vs-loader)',
  },
  {
    id: 'settings-device-malformed-skipped',
    since: '1.4.358',
    source: '89df12056 "skip malformed entries in parse_device_configurations"',
    summary:
      'a malformed device configuration is skipped and not counted; before, vkEnumeratePhysicalDevices counted it (1.4.325–1.4.357), and a malformed last entry left the list active and empty, so no device at all (1.4.336–1.4.357), or the list ignored (1.4.323–1.4.335)',
    modeled: true,
    proven: 'builds of v1.4.357 and v1.4.358 (settings-drivers-vs-loader)',
  },
  {
    id: 'settings-stderr-log-fallback',
    since: '1.3.302',
    source: '6c0e5ef3f "Use VK_LOADER_DEBUG if settings stderr_log is empty", 684dceecf "Only set global debug level from settings if above 0"',
    summary:
      "an active settings file without stderr_log filters leaves the log to VK_LOADER_DEBUG; before, it silenced the loader's stderr log (fatal errors aside). With stderr_log filters, they replace VK_LOADER_DEBUG on every version that reads the file",
    modeled: true,
    proven: 'builds of v1.3.301 and v1.3.302 (settings-drivers-vs-loader)',
  },
  {
    id: 'settings-search-xdg',
    since: '1.4.324',
    source: '508795c7f "loader settings unix search path follows driver/layer searching"',
    summary:
      'vk_loader_settings.json is searched in XDG_CONFIG_HOME, XDG_DATA_HOME, HOME/.config, HOME/.local/share, XDG_CONFIG_DIRS, /etc, XDG_DATA_DIRS (before: HOME/.local/share, XDG_DATA_HOME, /etc)',
    modeled: true,
    proven: 'builds of v1.4.323 and v1.4.324 (settings-file-search-vs-loader)',
  },
  {
    id: 'instance-layers-order-implicit',
    since: '1.4.326',
    source: '5c5cfd4f2 "Allow VK_INSTANCE_LAYERS to order implicit layers"',
    summary:
      'an implicit layer whose name appears anywhere in VK_INSTANCE_LAYERS (a substring test) is left to VK_INSTANCE_LAYERS: placed in its order, without its enable checks, or not at all when only a longer name contains it',
    modeled: true,
    proven: 'builds of v1.4.325 and v1.4.326 (chain-vs-loader)',
  },
  {
    id: 'settings-layer-configurations',
    since: '1.4.336',
    source: '002a13d8f "Fix devices in the settings file removing layers"',
    summary:
      'a settings file without "layers", or with an invalid layer entry, leaves the layer chain to the usual rules (before: no layers at all, or the whole file ignored); an empty "layers" or "device_configurations" array counts as a setting (an empty device list: no device)',
    modeled: true,
    proven: 'builds of v1.4.335 and v1.4.336 (chain-vs-loader, settings-drivers-vs-loader)',
  },
  {
    id: 'remove-duplicate-layers',
    since: '1.4.340',
    source: '28a23dbbb "Remove duplicates from vkEnumerateInstanceLayerProperties"',
    summary: 'for each layer, the next manifest with the same name leaves the layer list (one per earlier layer, so a third copy can stay)',
    modeled: true,
    proven: 'builds of v1.4.339 and v1.4.340 (chain-vs-loader)',
  },
  {
    id: 'meta-expansion-cycle-break',
    since: '1.4.357',
    source: '2feb31c48 "break cyclic meta-layer recursion in loader_add_meta_layer"',
    summary: 'a meta-layer met again while it is being expanded is skipped (only layers from a settings file can get there)',
    modeled: false,
    proven: 'builds of v1.4.356 and v1.4.357 (chain-vs-loader)',
  },
  {
    id: 'filter-whole-wildcards',
    since: '1.4.359',
    source: 'ce22e49b8 "fix whole-wildcard and short prefix globs in determine_filter_type"',
    summary: 'in the layer filters "*" and "**" mean every layer and a two-character "v*" is a prefix (before: "**" matched nothing and "v*" was a full name)',
    modeled: true,
    proven: 'builds of v1.4.358 and v1.4.359 (chain-vs-loader)',
  },
  // The VK_LOADER_DEBUG log layout (the session parser: shared/sessions/loader-log-line.ts).
  {
    id: 'log-column-19',
    since: '1.3.262',
    source:
      'acff43362 "Add CRT Warnings & fix them" (loader_log: num_used starts at 0; f94b5f48b of 1.3.251 padded to 19 counting the terminator, so still 18)',
    summary: 'log messages start at column 19 (18 before)',
    modeled: true,
    proven: 'builds of v1.3.261 and v1.3.262 (loader-log-vs-loader; builds of v1.3.250 to v1.3.261 still put messages at column 18)',
  },
  {
    id: 'log-prefix',
    since: '1.4.309',
    source: '9d963994e "Prepend [Vulkan Loader] to stderr log output"',
    summary: 'every log line starts with "[Vulkan Loader] ", and the message at column 16 after it',
    modeled: true,
  },
  // Manifest reading (the lint's verdicts: tests/fixtures/manifests/bad/expected.json "loaderSince").
  {
    id: 'json-helpers',
    since: '1.3.251',
    source: '6ff96f5b1 "Add helper parsing functions to cJSON", 1ef966206 "Add NULL checks to cJSON helper functions"',
    summary:
      'an empty enable_environment no longer crashes the loader (the layer is then always on), and a layer whose name is not a string is skipped instead of listed with an empty name',
    modeled: true,
    proven: 'builds of v1.3.250 and v1.3.251 (lint-vs-loader)',
  },
  {
    id: 'invalid-json-skips-file',
    since: '1.3.268',
    source: 'ebde1f99f "Distinguish OOM from json parsing errors"',
    summary:
      'a manifest that is not valid JSON is skipped; before, vkEnumerateInstanceLayerProperties and vkCreateInstance failed with VK_ERROR_OUT_OF_HOST_MEMORY for every application',
    modeled: true,
    proven: 'builds of v1.3.267 and v1.3.268 (lint-vs-loader)',
  },
  {
    id: 'strict-manifest-types',
    since: '1.4.303',
    source: 'a5efda7f5 "Better error checking of loader_parse_json functions"',
    summary:
      'a field of the wrong JSON type skips the layer (a number as file_format_version or implementation_version included), and the manifests that crashed older loaders (a "layer" that is not an object, "functions" not an object, an empty enable_environment) no longer do',
    modeled: true,
    proven: 'builds of v1.3.302 and v1.4.303 (lint-vs-loader)',
  },
  {
    id: 'invalid-type-skipped',
    since: '1.4.333',
    source: '1629b3b53 "Stop layers with an invalid "type" field from being added"',
    summary: 'a layer without a valid "type" is skipped again; 1.4.303–1.4.332 list it, and enabling it hangs vkCreateInstance',
    modeled: true,
    proven: 'builds of v1.4.332 and v1.4.333 (lint-vs-loader)',
  },
  {
    id: 'missing-versions-skipped',
    since: '1.4.357',
    source: '2d396283a "skip layers missing api_version or implementation_version"',
    summary:
      'a layer without api_version or implementation_version is skipped again; 1.4.303–1.4.356 list it, and enabling it hangs (1.4.309, 1.4.321) or crashes (1.4.341) vkCreateInstance',
    modeled: true,
    proven: 'builds of v1.4.356 and v1.4.357 (lint-vs-loader)',
  },
];

/** "1.3.239" → [1, 3, 239]; missing or unreadable parts are 0. */
// Lint asks loaderHas a few times per manifest, always of the same few versions: parsed once each
// (10,000 manifests spent ~0.3 s splitting the same strings; issue #19). Bounded: versions can come from files.
const parsedVersions = new Map<string, readonly [number, number, number]>();

function parts(v: string): readonly [number, number, number] {
  let p = parsedVersions.get(v);
  if (!p) {
    const [a = 0, b = 0, c = 0] = v.split('.').map((x) => Number.parseInt(x, 10) || 0);
    p = [a, b, c];
    if (parsedVersions.size >= 256) parsedVersions.clear();
    parsedVersions.set(v, p);
  }
  return p;
}

/** Negative when `a` is older than `b`, 0 when equal, positive when newer. */
export function compareLoaderVersions(a: string, b: string): number {
  const x = parts(a);
  const y = parts(b);
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** The rules the chain model reads (chain.ts, layer-filters.ts): a change of chain between two versions is one of these. */
export const CHAIN_RULE_IDS: readonly LoaderRuleId[] = [
  'layer-filters',
  'first-occurrence-wins',
  'instance-layers-ordered',
  'meta-no-duplicates',
  'override-paths-first',
  'layers-allow',
  'instance-layers-order-implicit',
  'remove-duplicate-layers',
  'filter-whole-wildcards',
  // The settings file's layer configuration (settings-chain.ts).
  'settings-file',
  'settings-layer-off-meta',
  'settings-disable-spares-on',
  'settings-instance-layers-overflow',
  'settings-instance-layers-fix',
  'settings-failed-manifest',
  'settings-first-app-match',
  'settings-layers-optional',
  'settings-null-check',
  'settings-layer-configurations',
  'settings-consider-lib-path',
  'settings-multi-layer-manifests',
  'settings-off-component-crash',
  'settings-empty-entry-ignored',
];

// Mutation tests flip one rule's version to prove some real-loader scenario depends on it.
const sinceOverrides = new Map<LoaderRuleId, string>();

/** Test seam: pretend rule `id` arrived in `since` (pass the table's own value to restore it). */
export function setRuleSinceForTest(id: LoaderRuleId, since: string): void {
  if (since === LOADER_RULES.find((r) => r.id === id)!.since) sinceOverrides.delete(id);
  else sinceOverrides.set(id, since);
}

export function ruleOf(id: LoaderRuleId): LoaderRule {
  const rule = LOADER_RULES.find((r) => r.id === id)!;
  const since = sinceOverrides.get(id);
  return since === undefined ? rule : { ...rule, since };
}

/**
 * The first version that has the rule. Marked free of side effects: loader-features.ts calls it as
 * its module loads, and a bundle that never reads those results then drops the calls.
 */
/* @__NO_SIDE_EFFECTS__ */
export function sinceOf(id: LoaderRuleId): string {
  return ruleOf(id).since;
}

/** The loader has the rule (an unknown version is taken as RULES_VERSION). */
export function loaderHas(version: string | null, id: LoaderRuleId): boolean {
  return compareLoaderVersions(version ?? RULES_VERSION, ruleOf(id).since) >= 0;
}

/** A rule as an answer names it (chain-schema.ts's LoaderRuleUseSchema describes the same). */
export interface LoaderRuleUse {
  id: LoaderRuleId;
  /** The first loader version that has the rule. */
  since: string;
  applied: boolean;
  summary: string;
}

/** Every rule with whether the model applied it for this loader version. */
export function rulesFor(version: string | null): LoaderRuleUse[] {
  return LOADER_RULES.map((r) => ({ id: r.id, since: r.since, applied: r.modeled && loaderHas(version, r.id), summary: r.summary }));
}

/** What a person should know about how far the model's answer for `version` is proven. */
export function provenNote(version: string | null): string | null {
  if (version === null) return `the loader's version is unknown; the rules of loader ${RULES_VERSION} were applied`;
  if (compareLoaderVersions(version, OLDEST_PROVEN) < 0)
    return `loader ${version} is older than the oldest loader Strata is checked against (${OLDEST_PROVEN}); its rules were applied by version, unproven`;
  if (compareLoaderVersions(version, NEWEST_PROVEN) > 0)
    return `loader ${version} is newer than the newest loader Strata is checked against (${NEWEST_PROVEN}); the rules of ${NEWEST_PROVEN} were applied`;
  return null;
}
