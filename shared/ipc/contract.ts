import { z } from 'zod';
import { ManifestInventorySchema } from '../discovery/manifest-inventory';
import { FileDiagnosticsSchema } from '../lint/diagnostic-schema';
import { ShaderDisassembleRequestSchema, ShaderDisassemblySchema } from '../shader/shader-disassembly';
import { ShaderInspectRequestSchema, ShaderInspectionSchema } from '../shader/shader-inspection';
import { AppInfoSchema } from '../app/app-info';
import { EnvSummarySchema } from '../loader/environment-summary';
import { DiscoveryPathsSchema } from '../loader/search-paths';
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
    summary: 'Where the loader looks for implicit layers, explicit layers and drivers, in its order: each location with its origin (variable, default, build folder, registry key) and whether it exists.',
    request: empty,
    response: DiscoveryPathsSchema,
  },
  'discovery.manifests': {
    summary: 'Every layer and driver manifest the loader would read, in its order, with origin, parsed summary, text and lint diagnostics.',
    request: empty,
    response: ManifestInventorySchema,
  },
  'lint.files': {
    summary: 'Lint the given manifest files (folders: their *.json) as one set; an array of {uri, diagnostics}.',
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
