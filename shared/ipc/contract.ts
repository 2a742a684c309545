import { z } from 'zod';
import { ManifestInventorySchema } from '../discovery/manifest-inventory';
import { FileDiagnosticsSchema } from '../lint/diagnostic-schema';
import { ShaderDisassembleRequestSchema, ShaderDisassemblySchema } from '../shader/shader-disassembly';
import { ShaderInspectRequestSchema, ShaderInspectionSchema } from '../shader/shader-inspection';
import { ShaderInspectBytesRequestSchema, ShaderInspectBytesSchema } from '../shader/shader-inspect-bytes';
import { ShaderPackRequestSchema, ShaderPackResultSchema } from '../shader/shader-pack';
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
import { ChainContextRequestSchema, ChainContextSchema } from '../configurator/chain-context';
import { OverridePreviewRequestSchema, OverridePreviewSchema } from '../override/override-preview';
import { LoaderInfoSchema, ProbeRequestSchema } from '../vulkan/loader-info';
import { DevicesReportSchema, DevicesRequestSchema } from '../vulkan/devices';
import { LayersInspectReportSchema, LayersInspectRequestSchema } from '../vulkan/layer-inspection';
import { DriversNegotiateReportSchema, DriversNegotiateRequestSchema } from '../vulkan/driver-negotiation';
import {
  LaunchStartRequestSchema,
  LaunchStartResultSchema,
  LaunchStopResultSchema,
  SessionDeleteResultSchema,
  SessionDiffRequestSchema,
  SessionEndedEventSchema,
  SessionExportRequestSchema,
  SessionExportSchema,
  SessionIdRequestSchema,
  SessionLinesEventSchema,
  SessionListSchema,
  SessionOpenRequestSchema,
  SessionOpenSchema,
  SessionSearchRequestSchema,
  SessionSearchSchema,
  SessionStartedEventSchema,
} from '../sessions/session-ipc';
import { SessionDiffSchema } from '../sessions/session-diff';
import { channelsOfProfiles } from '../profiles/profile-channels';

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
  'chain.context': {
    summary: "What the UI needs to run the chain model on a draft itself: the variables the chain depends on (VK_* and those the discovered manifests name in enable/disable_environment, when set), the loader version, and where Strata's override file goes.",
    request: ChainContextRequestSchema,
    response: ChainContextSchema,
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
    summary: 'The physical devices the real loader enumerates (in an optional environment): properties, driver properties, memory heaps, queue families, extensions, and (unless `origins: false`) the driver manifest each came from.',
    request: DevicesRequestSchema,
    response: DevicesReportSchema,
  },
  'drivers.negotiate': {
    summary: 'Each driver (ICD) loaded on its own, in a probe of its own: exported entry points, negotiated loader–driver interface version, vkCreateInstance reachable; crashes and hangs reported per driver.',
    request: DriversNegotiateRequestSchema,
    response: DriversNegotiateReportSchema,
  },
  'layers.inspect': {
    summary: 'Each discovered layer (or those named) loaded on its own, in a probe of its own: its library resolved as the loader does, which functions it exports (negotiate, vkGet*ProcAddr or their manifest names, pre-instance functions, extension entrypoints), and the loader–layer interface version it agrees to; crashes and hangs reported per layer.',
    request: LayersInspectRequestSchema,
    response: LayersInspectReportSchema,
  },
  'shader.disassemble': {
    summary: 'Disassemble a SPIR-V file (read by main) to text identical to `spirv-dis` (friendly names), or with `rawIds` to `spirv-dis --raw-id`, with diagnostics for a corrupt module.',
    request: ShaderDisassembleRequestSchema,
    response: ShaderDisassemblySchema,
  },
  'shader.inspect': {
    summary: 'Inspect a SPIR-V file (read by main): header summary, reflection (entry points, interface, descriptors, push constants, specialization constants) and logical-layout validation diagnostics.',
    request: ShaderInspectRequestSchema,
    response: ShaderInspectionSchema,
  },
  'shader.inspectBytes': {
    summary: 'Inspect a SPIR-V module or VBC file sent as base64 (up to 16 MiB; for hosts where the UI cannot name a file main can read): what shader.inspect answers, plus the disassembly texts (friendly and raw ids; per stage for a VBC file); `path` is the name given.',
    request: ShaderInspectBytesRequestSchema,
    response: ShaderInspectBytesSchema,
  },
  'shader.pack': {
    summary: 'Pack SPIR-V stages sent as base64 (vert, tesc, tese, geom, frag) into a VBC file with the reflection derived from them; answers the file as base64 (nothing is written) and the diagnostics, `ok: false` when the stages do not validate or link.',
    request: ShaderPackRequestSchema,
    response: ShaderPackResultSchema,
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
  'override.preview': {
    summary: 'Which files applying a configuration would change (`config: null`: removing Strata\'s override), with the text on disk now, the text after, and whether `force` is needed; computed by the writer\'s own functions, nothing is written.',
    request: OverridePreviewRequestSchema,
    response: OverridePreviewSchema,
  },
  'override.export': {
    summary: 'The VkLayer_override.json text of a configuration, without installing it.',
    request: OverrideExportRequestSchema,
    response: OverrideExportSchema,
  },
  'launch.start': {
    summary: 'Start an application with a profile (environment only, for this launch), VK_LOADER_DEBUG and the validation layer routed to Strata; its output is captured into a new session (events `session.lines` while it runs, `session.ended` at the end).',
    request: LaunchStartRequestSchema,
    response: LaunchStartResultSchema,
  },
  'launch.stop': {
    summary: 'Stop a running launch: SIGTERM to its process group, SIGKILL after a grace period; `stopping: false` when it is not running.',
    request: SessionIdRequestSchema,
    response: LaunchStopResultSchema,
  },
  'sessions.list': {
    summary: 'Every session in $XDG_STATE_HOME/strata/sessions, newest first: application, profile, start, status (running, ended, incomplete), exit and counts.',
    request: empty,
    response: SessionListSchema,
  },
  'sessions.open': {
    summary: 'One session: header (application, profile copy, predicted chain, environment), footer (null when Strata was killed), counts, and a page of its records matching an optional query.',
    request: SessionOpenRequestSchema,
    response: SessionOpenSchema,
  },
  'sessions.search': {
    summary: 'Records matching a query (text, VUID, severity, source, stream) in all sessions or those named, with a count per session.',
    request: SessionSearchRequestSchema,
    response: SessionSearchSchema,
  },
  'sessions.delete': {
    summary: 'Delete a session file (not while it is running).',
    request: SessionIdRequestSchema,
    response: SessionDeleteResultSchema,
  },
  'sessions.export': {
    summary: 'A session as one JSON document, or as a self-contained HTML report (no external resources, everything escaped).',
    request: SessionExportRequestSchema,
    response: SessionExportSchema,
  },
  'sessions.diff': {
    summary: 'Two sessions compared: predicted chain differences, validation messages that appeared or disappeared (by VUID), and counts by severity.',
    request: SessionDiffRequestSchema,
    response: SessionDiffSchema,
  },
  // profiles.list, .create, .save, .copy, .rename, .delete, .export, .import, .apply, .overrideExport, .launchEnvironment, .explain, .bind, .unbind
  ...channelsOfProfiles,
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
  /** A launch started (from any host in this process). */
  'session.started': SessionStartedEventSchema,
  /** A running launch's new records, batched about every 50 ms. */
  'session.lines': SessionLinesEventSchema,
  /** A launch ended and its session file is closed. */
  'session.ended': SessionEndedEventSchema,
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
