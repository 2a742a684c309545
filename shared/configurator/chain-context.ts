import * as z from 'zod';
import type { ManifestInventory } from '../discovery/manifest-inventory';
import { OVERRIDE_DISABLE_VARIABLE } from '../override/override-config';
import { ChainSettingsSourceSchema } from '../loader/chain-settings-schema';

/**
 * What the renderer needs besides the manifests to run the chain model itself (the Layers editor's
 * live chain): the variables the model reads, the loader whose rules apply, and where Strata's override
 * file goes (the draft's override is put there in the loader's list of implicit manifests).
 */
export const ChainContextRequestSchema = z.object({}).strict();

export const ChainContextSchema = z.object({
  /**
   * Only the variables the chain depends on, and only those that are set: every VK_* variable and every
   * variable a discovered layer names in enable_environment / disable_environment (LoaderLayerInterface
   * § Layer Manifest File Format), plus the override's own disable variable.
   */
  env: z.record(z.string(), z.string()),
  /** The real loader's version (vkEnumerateInstanceVersion); null when no loader answers (the model then applies its own rules version). */
  loaderVersion: z.string().nullable(),
  /** Strata's override file (the scope the UI edits: main/override/override-service.ts defaultOverrideSystem), and the implicit layer folder it is in (Windows: the registry key its value is in). */
  overrideFile: z.string(),
  overrideDir: z.string(),
  /** The loader settings file the loader reads, when there is one: its layers decide the chain on the loaders that read it. */
  settings: ChainSettingsSourceSchema.nullable().optional(),
});
export type ChainContext = z.infer<typeof ChainContextSchema>;

/** The variable names the chain model may read for these manifests. */
export function chainVariableNames(inventory: ManifestInventory): Set<string> {
  const names = new Set<string>([OVERRIDE_DISABLE_VARIABLE]);
  for (const kind of ['implicit_layer', 'explicit_layer'] as const)
    for (const m of inventory.manifests[kind] ?? []) for (const l of m.layers) for (const v of [...l.enableEnvironment, ...l.disableEnvironment]) names.add(v);
  return names;
}

/** The part of `env` the chain depends on (see ChainContextSchema.env). */
export function chainEnvironment(env: Readonly<Record<string, string | undefined>>, names: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && (k.startsWith('VK_') || names.has(k))) out[k] = v;
  return out;
}
