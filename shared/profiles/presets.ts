import type { ManifestInventory } from '../discovery/manifest-inventory';
import { OVERRIDE_LAYER_NAME } from '../override/override-config';
import type { SettingsByLayer } from '../settings/setting-values';
import { inventoryLayers } from './inventory-layers';
import { PROFILE_SCHEMA_VERSION, type Profile } from './profile-schema';

/**
 * Built-in profiles: read-only, copyable into a profile of one's own. The validation presets use
 * the setting keys and flag values of the Khronos validation layer's own manifest (file format
 * 1.2.0, `features.presets` of VkLayer_khronos_validation.json in Debian's
 * vulkan-validationlayers 1.3.239: "enables" / "disables"), and only the values that differ from
 * the layer's defaults (shared/settings/setting-values.ts), so they mean the same in every writer.
 * A preset whose layers are not installed is still listed, with what is missing.
 */
export const VALIDATION_LAYER = 'VK_LAYER_KHRONOS_validation';
export const API_DUMP_LAYER = 'VK_LAYER_LUNARG_api_dump';
/** Capture layers in order of preference: GFXReconstruct (explicit), then RenderDoc (implicit, enable_environment). */
export const CAPTURE_LAYERS = ['VK_LAYER_LUNARG_gfxreconstruct', 'VK_LAYER_RENDERDOC_Capture'] as const;

const DISABLE = {
  threadSafety: 'VK_VALIDATION_FEATURE_DISABLE_THREAD_SAFETY_EXT',
  uniqueHandles: 'VK_VALIDATION_FEATURE_DISABLE_UNIQUE_HANDLES_EXT',
  objectLifetimes: 'VK_VALIDATION_FEATURE_DISABLE_OBJECT_LIFETIMES_EXT',
  apiParameters: 'VK_VALIDATION_FEATURE_DISABLE_API_PARAMETERS_EXT',
  coreChecks: 'VK_VALIDATION_FEATURE_DISABLE_CORE_CHECKS_EXT',
} as const;
const ENABLE = {
  sync: 'VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT',
  bestPractices: 'VK_VALIDATION_FEATURE_ENABLE_BEST_PRACTICES_EXT',
  gpuAssisted: 'VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT',
  gpuReserveSlot: 'VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_RESERVE_BINDING_SLOT_EXT',
} as const;
/** The layer's defaults (its manifest): enables [], disables [thread safety]. */
export const VALIDATION_DEFAULTS = { enables: [] as string[], disables: [DISABLE.threadSafety] as string[] };

/** enables / disables as the manifest's preset of that label sets them (tests hold them to the real manifest). */
export const VALIDATION_PRESET_VALUES = {
  Standard: { enables: [], disables: [DISABLE.threadSafety] },
  Synchronization: { enables: [ENABLE.sync], disables: [DISABLE.uniqueHandles, DISABLE.objectLifetimes, DISABLE.apiParameters, DISABLE.coreChecks] },
  'Best Practices': {
    enables: [ENABLE.bestPractices],
    disables: [DISABLE.threadSafety, DISABLE.uniqueHandles, DISABLE.objectLifetimes, DISABLE.apiParameters, DISABLE.coreChecks],
  },
  'GPU-Assisted': {
    enables: [ENABLE.gpuAssisted, ENABLE.gpuReserveSlot],
    disables: [DISABLE.threadSafety, DISABLE.uniqueHandles, DISABLE.objectLifetimes, DISABLE.apiParameters, DISABLE.coreChecks],
  },
} as const satisfies Record<string, { enables: readonly string[]; disables: readonly string[] }>;

export interface Preset {
  /** Stable id, e.g. "validation-standard". */
  id: string;
  profile: Profile;
  /** Every layer the preset turns on is installed. */
  available: boolean;
  /** Layers it turns on that discovery did not find. */
  missing: string[];
  /** A sentence for people about availability, or null. */
  note: string | null;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Only what differs from the layer's defaults (a value equal to the default is not stored). */
function validationSettings(values: { enables: readonly string[]; disables: readonly string[] }): SettingsByLayer | undefined {
  const changed: Record<string, string[]> = {};
  if (!sameList(values.enables, VALIDATION_DEFAULTS.enables)) changed['enables'] = [...values.enables];
  if (!sameList(values.disables, VALIDATION_DEFAULTS.disables)) changed['disables'] = [...values.disables];
  return Object.keys(changed).length ? { [VALIDATION_LAYER]: changed } : undefined;
}

function validationPreset(name: string, label: keyof typeof VALIDATION_PRESET_VALUES, description: string): Profile {
  const settings = validationSettings(VALIDATION_PRESET_VALUES[label]);
  return { schemaVersion: PROFILE_SCHEMA_VERSION, name, description, layers: [{ name: VALIDATION_LAYER, state: 'on' }], ...(settings ? { settings } : {}) };
}

export const PRESET_NAMES = {
  'validation-standard': 'Validation — standard',
  'validation-synchronization': 'Validation — synchronization',
  'validation-best-practices': 'Validation — best practices',
  'validation-gpu-assisted': 'Validation — GPU-assisted',
  'api-dump': 'API dump',
  'frame-capture': 'Frame capture',
  'no-layers': 'No layers (all implicit layers off)',
} as const;
export type PresetId = keyof typeof PRESET_NAMES;

/**
 * The presets, with availability computed against `inventory` (null: not known, every preset is
 * reported available and "No layers" lists no layer). Deterministic for a given inventory.
 */
export function builtInPresets(inventory: Pick<ManifestInventory, 'manifests'> | null): Preset[] {
  const layers = inventoryLayers(inventory);
  const capture = CAPTURE_LAYERS.find((n) => layers.has(n)) ?? CAPTURE_LAYERS[0];
  const implicit = [...layers.values()].filter((l) => l.implicit && l.name !== OVERRIDE_LAYER_NAME).map((l) => l.name);
  const profiles: [PresetId, Profile][] = [
    [
      'validation-standard',
      validationPreset(
        PRESET_NAMES['validation-standard'],
        'Standard',
        'The Khronos validation layer with its standard checks: a good balance of coverage and speed.',
      ),
    ],
    [
      'validation-synchronization',
      validationPreset(
        PRESET_NAMES['validation-synchronization'],
        'Synchronization',
        'Synchronization validation: resource access hazards from missing or wrong barriers, semaphores and fences.',
      ),
    ],
    [
      'validation-best-practices',
      validationPreset(PRESET_NAMES['validation-best-practices'], 'Best Practices', 'Warnings about valid but likely wrong or slow API usage.'),
    ],
    [
      'validation-gpu-assisted',
      validationPreset(
        PRESET_NAMES['validation-gpu-assisted'],
        'GPU-Assisted',
        'Checks at shader execution time: out-of-bounds descriptor indexing and buffer accesses.',
      ),
    ],
    [
      'api-dump',
      {
        schemaVersion: PROFILE_SCHEMA_VERSION,
        name: PRESET_NAMES['api-dump'],
        description: 'Prints every Vulkan call with its parameters (LunarG API dump layer).',
        layers: [{ name: API_DUMP_LAYER, state: 'on' }],
      },
    ],
    [
      'frame-capture',
      {
        schemaVersion: PROFILE_SCHEMA_VERSION,
        name: PRESET_NAMES['frame-capture'],
        description: `Captures frames for replay and inspection (${capture}).`,
        layers: [{ name: capture, state: 'on' }],
      },
    ],
    [
      'no-layers',
      {
        schemaVersion: PROFILE_SCHEMA_VERSION,
        name: PRESET_NAMES['no-layers'],
        description: 'Every implicit layer found on this machine forced off; applications still get the layers they enable themselves.',
        layers: implicit.map((name) => ({ name, state: 'off' as const })),
      },
    ],
  ];
  return profiles.map(([id, profile]) => {
    const missing = inventory ? profile.layers.filter((l) => l.state === 'on' && !layers.has(l.name)).map((l) => l.name) : [];
    let note: string | null = null;
    if (missing.length) note = `Not installed here: ${missing.join(', ')}. You can still copy or export it; the loader skips a missing layer.`;
    else if (id === 'no-layers' && inventory && implicit.length === 0)
      note = 'No implicit layers were found on this machine, so this preset changes nothing here.';
    return { id, profile, available: missing.length === 0 && !(id === 'no-layers' && inventory !== null && implicit.length === 0), missing, note };
  });
}

export function findPreset(presets: readonly Preset[], nameOrId: string): Preset | undefined {
  const wanted = nameOrId.trim().toLowerCase();
  return presets.find((p) => p.id === wanted || p.profile.name.toLowerCase() === wanted);
}
