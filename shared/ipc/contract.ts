import { z } from 'zod';
import { ManifestInventorySchema } from '../discovery/manifest-inventory';
import { FileDiagnosticsSchema } from '../lint/diagnostic-schema';
import { ShaderDisassembleRequestSchema, ShaderDisassemblySchema } from '../shader/shader-disassembly';
import { ShaderInspectRequestSchema, ShaderInspectionSchema } from '../shader/shader-inspection';
import { ShaderInspectBytesRequestSchema, ShaderInspectBytesSchema } from '../shader/shader-inspect-bytes';
import { AppInfoSchema } from '../app/app-info';
import {
  OverrideApplyRequestSchema,
  OverrideApplyResultSchema,
  OverrideExportRequestSchema,
  OverrideExportSchema,
  OverrideRemoveRequestSchema,
  OverrideRemoveResultSchema,
  OverrideStatusRequestSchema,
  OverrideStatusSchema,
} from '../override/override-status';
import { EnvSummarySchema } from '../loader/environment-summary';
import { DiscoveryPathsSchema, DiscoveryRequestSchema } from '../loader/search-paths';
import { DiscoveryChangedSchema } from '../discovery/discovery-changes';
import { ChainExplainRequestSchema, LayerChainSchema } from '../loader/chain';
import { LoaderInfoSchema, ProbeRequestSchema } from '../vulkan/loader-info';
import { DevicesReportSchema } from '../vulkan/devices';
import { DriversNegotiateReportSchema, DriversNegotiateRequestSchema } from '../vulkan/driver-negotiation';

/**
 * The one IPC contract. Every channel names its request and response schema; Electron's ipcMain,
 * the browser host's POST /api/<channel> and the CLI all go through main/router.ts, which
 * validates both directions against these schemas.
 *
 * Requests are objects (never bare values) so a channel can grow optional fields without breaking
 * older callers; `.strict()` makes a typo in a field name an error instead of a silent default.
 */
const empty = z.object({}).strict();

export const channels = {
  'app.info': {
    summary: 'Strata version, platform, runtime versions and the Vulkan loader library found (or why not).',
    request: empty,
    response: AppInfoSchema,
  },
  'env.summary': {
    summary: 'The Vulkan-related environment variables that are set, and the XDG folders the loader will use.',
    request: empty,
    response: EnvSummarySchema,
  },
  'discovery.paths': {
    summary: 'Where the loader looks for implicit layers, explicit layers and drivers, in its order: each location with its origin (variable, default, build folder, registry key) and whether it exists; `elevated: true` answers as an elevated application would see it.',
    request: DiscoveryRequestSchema,
    response: DiscoveryPathsSchema,
  },
  'discovery.manifests': {
    summary: 'Every layer and driver manifest the loader would read, in its order, with origin, parsed summary, text and lint diagnostics; `elevated: true` answers as an elevated application would see it.',
    request: DiscoveryRequestSchema,
    response: ManifestInventorySchema,
  },
  'chain.explain': {
    summary: 'The effective instance layer chain for an application (path, requested layers, API version) in an optional environment: each layer in order with the reasons it is there, and every layer left out with why; modeled on the loader 1.3.239 rules.',
    request: ChainExplainRequestSchema,
    response: LayerChainSchema,
  },
  'lint.files': {
    summary: 'Lint the given manifest files (folders: their *.json, then those of the vulkan/, implicit_layer.d/, explicit_layer.d/ and icd.d/ folders below) as one set; an array of {uri, diagnostics}.',
    request: z.object({ paths: z.array(z.string().min(1)).min(1) }).strict(),
    response: z.array(FileDiagnosticsSchema),
  },
  'loader.info': {
    summary: 'What the real Vulkan loader reports (in an optional environment): its version, instance layers with their extensions, instance extensions.',
    request: ProbeRequestSchema,
    response: LoaderInfoSchema,
  },
  devices: {
    summary: 'The physical devices the real loader enumerates (in an optional environment): properties, driver properties, memory heaps, queue families, extensions.',
    request: ProbeRequestSchema,
    response: DevicesReportSchema,
  },
  'drivers.negotiate': {
    summary: 'Each driver (ICD) loaded on its own, in a probe of its own: exported entry points, negotiated loader–driver interface version, vkCreateInstance reachable; crashes and hangs reported per driver.',
    request: DriversNegotiateRequestSchema,
    response: DriversNegotiateReportSchema,
  },
  'shader.disassemble': {
    summary: 'Disassemble a SPIR-V file (read by main) to text identical to `spirv-dis --raw-id`, with diagnostics for a corrupt module.',
    request: ShaderDisassembleRequestSchema,
    response: ShaderDisassemblySchema,
  },
  'shader.inspect': {
    summary: 'Inspect a SPIR-V file (read by main): header summary, reflection (entry points, interface, descriptors, push constants, specialization constants) and logical-layout validation diagnostics.',
    request: ShaderInspectRequestSchema,
    response: ShaderInspectionSchema,
  },
  'shader.inspectBytes': {
    summary: 'Inspect a SPIR-V module sent as base64 (up to 16 MiB; for hosts where the UI cannot name a file main can read): what shader.inspect answers, plus the disassembly text; `path` is the name given.',
    request: ShaderInspectBytesRequestSchema,
    response: ShaderInspectBytesSchema,
  },
  'override.status': {
    summary: "Strata's override meta-layer (VK_LAYER_LUNARG_override): where its file is, whose it is (absent, Strata's, changed since, or another tool's), what it forces on and off, and the diff of any change made since Strata wrote it.",
    request: OverrideStatusRequestSchema,
    response: OverrideStatusSchema,
  },
  'override.apply': {
    summary: 'Install a configuration (layers on / off / auto) as the override meta-layer, atomically, with a backup; refuses to replace a file Strata did not write, or one changed since, unless `force`.',
    request: OverrideApplyRequestSchema,
    response: OverrideApplyResultSchema,
  },
  'override.remove': {
    summary: "Surrender: restore exactly the state before Strata (the earlier override file, or none); refuses when the file was changed since Strata wrote it, unless `force`.",
    request: OverrideRemoveRequestSchema,
    response: OverrideRemoveResultSchema,
  },
  'override.export': {
    summary: 'The VkLayer_override.json text of a configuration, without installing it.',
    request: OverrideExportRequestSchema,
    response: OverrideExportSchema,
  },
} as const;

export type ChannelName = keyof typeof channels;
export type RequestOf<C extends ChannelName> = z.input<(typeof channels)[C]['request']>;
export type ResponseOf<C extends ChannelName> = z.output<(typeof channels)[C]['response']>;

export function isChannelName(name: string): name is ChannelName {
  return Object.prototype.hasOwnProperty.call(channels, name);
}

/** Events flow main → renderer only (Electron webContents.send / browser host server-sent events). */
export const events = {
  /** A message from the host for the user, e.g. the browser host is shutting down. */
  'host.notice': z.object({
    level: z.enum(['info', 'warning', 'error']),
    message: z.string(),
  }),
  /** Ask the UI to show a panel (the Electron menu's "About Strata", later: "show in Problems"). */
  'ui.navigate': z.object({ panel: z.string() }),
  /** Manifests or search folders changed on disk (sent only while a UI is attached); the UI re-fetches discovery. */
  'discovery.changed': DiscoveryChangedSchema,
} as const;

export type EventName = keyof typeof events;
export type EventPayloadOf<E extends EventName> = z.output<(typeof events)[E]>;
export type StrataEvent = { [E in EventName]: { name: E; payload: EventPayloadOf<E> } }[EventName];

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(events, name);
}

/** Parse an event that crossed a process boundary; null if it does not match the contract. */
export function parseEvent(name: unknown, payload: unknown): StrataEvent | null {
  if (typeof name !== 'string' || !isEventName(name)) return null;
  const parsed = events[name].safeParse(payload);
  return parsed.success ? ({ name, payload: parsed.data } as StrataEvent) : null;
}
