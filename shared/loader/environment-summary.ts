import * as z from 'zod';
import { knownVariable, isVulkanRelatedName } from './environment-variables';
import { resolveXdgDirectories, type Environment } from './xdg-directories';
import { XdgDirectoriesSchema } from './xdg-directories-schema';

export const VulkanVariableSchema = z.object({
  name: z.string(),
  value: z.string(),
  /** 'loader' for the loader's own variables, 'related' for layer/driver settings. */
  kind: z.enum(['loader', 'related']),
  summary: z.string().nullable(),
  ignoredWhenElevated: z.boolean(),
});
export type VulkanVariable = z.infer<typeof VulkanVariableSchema>;

export const EnvSummarySchema = z.object({
  platform: z.string(),
  variables: z.array(VulkanVariableSchema),
  /** Null on Windows, where the loader reads the registry instead of XDG folders. */
  xdg: XdgDirectoriesSchema.nullable(),
});
export type EnvSummary = z.infer<typeof EnvSummarySchema>;

/** Pure: the Vulkan-related part of an environment, sorted by name, plus the XDG folders it implies. */
export function summarizeEnvironment(env: Environment, home: string, platform: string): EnvSummary {
  const variables: VulkanVariable[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !isVulkanRelatedName(name)) continue;
    const known = knownVariable(name);
    variables.push({
      name,
      value,
      kind: known ? 'loader' : 'related',
      summary: known?.summary ?? null,
      ignoredWhenElevated: known?.ignoredWhenElevated ?? false,
    });
  }
  variables.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { platform, variables, xdg: platform === 'win32' ? null : resolveXdgDirectories(env, home) };
}
