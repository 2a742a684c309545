import * as z from 'zod';
import { REQUEST_LIMITS, tooMany } from './request-limits';

/**
 * The one IPC contract. Every channel names its request and response schema; Electron's ipcMain,
 * the browser host's POST /api/<channel> and the CLI all go through main/router/router.ts, which
 * validates both directions against these schemas.
 *
 * A channel's `schemas` loads the module that holds them (a dynamic import), so a process builds
 * only the schemas of the channels it calls: `strata info` builds app.info's, not the ~150 of every
 * channel (issue #19: start-up). To add a channel: its summary, and `schemas` picking its request
 * and response from their module, as below; a group declared in a module of its own joins through
 * `channelGroup` (profiles.*, activity.*).
 *
 * Requests are objects (never bare values) so a channel can grow optional fields without breaking
 * older callers; `.strict()` makes a typo in a field name an error instead of a silent default.
 */
const empty = z.object({}).strict();

/** What a channel's `schemas` resolves to. */
export interface ChannelSchemas {
  request: z.ZodType;
  response: z.ZodType;
}

// The request schemas of channels whose response schema is in a module of its own, for
// `channelRequestSchema`: a CLI command that prints its answer as made (chain.explain, discovery.manifests)
// then builds neither the response schema nor what it is made of (issue #19: each startup snapshot
// holds what its warm-up built).
const chainExplainRequest = () => import('../loader/chain').then((m) => m.ChainExplainRequestSchema);
const discoveryManifestsRequest = () => import('../loader/search-paths-schema').then((m) => m.DiscoveryManifestsRequestSchema);

/**
 * Channels declared together in a module of their own (summary, request and response each), e.g.
 * shared/profiles/profile-channels.ts. `names` lists them so that the contract knows them without
 * loading that module; the compiler checks the list against the module's (a name missing or extra
 * is an error).
 */
function channelGroup<G extends Record<string, ChannelSchemas & { summary: string }>>(load: () => Promise<G>, names: NoInfer<{ [K in keyof G]: true }>) {
  const group = {} as { [K in keyof G]: { schemas: () => Promise<G[K]> } };
  for (const name of Object.keys(names) as (keyof G & string)[]) group[name] = { schemas: () => load().then((g) => g[name]) };
  return group;
}

export const channels = {
  'app.info': {
    summary: 'Strata version, platform, runtime versions and the Vulkan loader library found (or why not).',
    schemas: () => import('../app/app-info').then((m) => ({ request: empty, response: m.AppInfoSchema })),
  },
  'env.summary': {
    summary: 'The Vulkan-related environment variables that are set, and the XDG folders the loader will use.',
    schemas: () => import('../loader/environment-summary').then((m) => ({ request: empty, response: m.EnvSummarySchema })),
  },
  'discovery.paths': {
    summary:
      'Where the loader looks for implicit layers, explicit layers and drivers, in its order: each location with its origin (variable, default, build folder, registry key) and whether it exists; `elevated: true` answers as an elevated application would see it.',
    schemas: () => import('../loader/search-paths-schema').then((m) => ({ request: m.DiscoveryRequestSchema, response: m.DiscoveryPathsSchema })),
  },
  'discovery.manifests': {
    summary:
      'Every layer and driver manifest the loader would read, in its order, with origin, parsed summary, text and lint diagnostics; `elevated: true` answers as an elevated application would see it; `fresh: false` takes the answer a UI host keeps up to date while it watches the search folders, if it has one.',
    request: discoveryManifestsRequest,
    schemas: async () => ({
      request: await discoveryManifestsRequest(),
      response: (await import('../discovery/manifest-inventory-schema')).ManifestInventorySchema,
    }),
  },
  'chain.explain': {
    summary:
      "The effective instance layer chain for an application (path, requested layers, API version) in an optional environment: each layer in order with the reasons it is there, and every layer left out with why; modeled on the rules of the installed loader's version, or of loaderVersion / the library at loaderPath.",
    request: chainExplainRequest,
    schemas: async () => ({
      request: await chainExplainRequest(),
      response: (await import('../loader/chain-schema')).LayerChainSchema,
    }),
  },
  'chain.compare': {
    summary:
      'The chain modeled for several loader versions (the model alone, no loader asked), whether they agree, and for each pair that differs the loader release where the prediction changes and the rules (loader-rules.ts) that arrive there.',
    schemas: () => import('../loader/chain-compare').then((m) => ({ request: m.ChainCompareRequestSchema, response: m.ChainComparisonSchema })),
  },
  'chain.context': {
    summary:
      "What the UI needs to run the chain model on a draft itself: the variables the chain depends on (VK_* and those the discovered manifests name in enable/disable_environment, when set), the loader version, and where Strata's override file goes.",
    schemas: () => import('../configurator/chain-context').then((m) => ({ request: m.ChainContextRequestSchema, response: m.ChainContextSchema })),
  },
  'lint.files': {
    summary:
      'Lint the given manifest files (folders: their *.json, then those of the vulkan/, implicit_layer.d/, explicit_layer.d/ and icd.d/ folders below) as one set, and a vk_loader_settings.json as the loader reads it (settingsFile: the one the installed loader reads); an array of {uri, diagnostics}.',
    schemas: () =>
      import('../lint/diagnostic-schema').then((m) => ({
        request: z
          .object({
            paths: z.array(z.string().min(1)).max(REQUEST_LIMITS.lintPaths, tooMany('paths', REQUEST_LIMITS.lintPaths)),
            /** Also the vk_loader_settings.json the installed loader reads, when there is one. */
            settingsFile: z.boolean().optional(),
          })
          .strict()
          .refine((r) => r.paths.length > 0 || r.settingsFile, { message: 'give at least one path (or settingsFile)' }),
        response: z.array(m.FileDiagnosticsSchema),
      })),
  },
  'loader.info': {
    summary: 'What the real Vulkan loader reports (in an optional environment): its version, instance layers with their extensions, instance extensions.',
    schemas: () => import('../vulkan/loader-info').then((m) => ({ request: m.ProbeRequestSchema, response: m.LoaderInfoSchema })),
  },
  'devices.list': {
    summary:
      'The physical devices the real loader enumerates (in an optional environment): properties, driver properties, memory heaps, queue families, extensions, and (unless `origins: false`) the driver manifest each came from.',
    schemas: () => import('../vulkan/devices').then((m) => ({ request: m.DevicesRequestSchema, response: m.DevicesReportSchema })),
  },
  'drivers.negotiate': {
    summary:
      'Each driver (ICD) loaded on its own, in a probe of its own: exported entry points, negotiated loader–driver interface version, vkCreateInstance reachable; crashes and hangs reported per driver.',
    schemas: () => import('../vulkan/driver-negotiation').then((m) => ({ request: m.DriversNegotiateRequestSchema, response: m.DriversNegotiateReportSchema })),
  },
  'layers.inspect': {
    summary:
      'Each discovered layer (or those named) loaded on its own, in a probe of its own: its library resolved as the loader does, which functions it exports (negotiate, vkGet*ProcAddr or their manifest names, pre-instance functions, extension entrypoints), and the loader–layer interface version it agrees to; crashes and hangs reported per layer.',
    schemas: () => import('../vulkan/layer-inspection').then((m) => ({ request: m.LayersInspectRequestSchema, response: m.LayersInspectReportSchema })),
  },
  'shader.disassemble': {
    summary:
      'Disassemble a SPIR-V file (read by main) to text identical to `spirv-dis` (friendly names), or with `rawIds` to `spirv-dis --raw-id`, with diagnostics for a corrupt module.',
    schemas: () => import('../shader/shader-disassembly').then((m) => ({ request: m.ShaderDisassembleRequestSchema, response: m.ShaderDisassemblySchema })),
  },
  'shader.inspect': {
    summary:
      'Inspect a SPIR-V file (read by main): header summary, reflection (entry points, interface, descriptors, push constants, specialization constants) and logical-layout validation diagnostics.',
    schemas: () => import('../shader/shader-inspection').then((m) => ({ request: m.ShaderInspectRequestSchema, response: m.ShaderInspectionSchema })),
  },
  'shader.inspectBytes': {
    summary:
      'Inspect a SPIR-V module or VBC file sent as base64 (up to 16 MiB; for hosts where the UI cannot name a file main can read): what shader.inspect answers, plus the disassembly texts (friendly and raw ids; per stage for a VBC file); `path` is the name given.',
    schemas: () => import('../shader/shader-inspect-bytes').then((m) => ({ request: m.ShaderInspectBytesRequestSchema, response: m.ShaderInspectBytesSchema })),
  },
  'shader.pack': {
    summary:
      'Pack SPIR-V stages sent as base64 (vert, tesc, tese, geom, frag) into a VBC file with the reflection derived from them; answers the file as base64 (nothing is written) and the diagnostics, `ok: false` when the stages do not validate or link.',
    schemas: () => import('../shader/shader-pack').then((m) => ({ request: m.ShaderPackRequestSchema, response: m.ShaderPackResultSchema })),
  },
  'override.status': {
    summary:
      "Strata's override meta-layer (VK_LAYER_LUNARG_override): where its file is, whose it is (absent, Strata's, changed since, or another tool's), what it forces on and off, and the diff of any change made since Strata wrote it.",
    schemas: () => import('../override/override-status').then((m) => ({ request: m.OverrideStatusRequestSchema, response: m.OverrideStatusSchema })),
  },
  'override.apply': {
    summary:
      'Install a configuration (layers on / off / auto) as the override meta-layer, atomically, with a backup; refuses to replace a file Strata did not write, or one changed since, unless `force`.',
    schemas: () => import('../override/override-status').then((m) => ({ request: m.OverrideApplyRequestSchema, response: m.OverrideApplyResultSchema })),
  },
  'override.remove': {
    summary:
      'Surrender: restore exactly the state before Strata (the earlier override file, or none); refuses when the file was changed since Strata wrote it, unless `force`.',
    schemas: () => import('../override/override-status').then((m) => ({ request: m.OverrideRemoveRequestSchema, response: m.OverrideRemoveResultSchema })),
  },
  'override.preview': {
    summary:
      "Which files applying a configuration would change (`config: null`: removing Strata's override), with the text on disk now, the text after, and whether `force` is needed; computed by the writer's own functions, nothing is written.",
    schemas: () => import('../override/override-preview').then((m) => ({ request: m.OverridePreviewRequestSchema, response: m.OverridePreviewSchema })),
  },
  'override.export': {
    summary: 'The VkLayer_override.json text of a configuration, without installing it.',
    schemas: () => import('../override/override-status').then((m) => ({ request: m.OverrideExportRequestSchema, response: m.OverrideExportSchema })),
  },
  'launch.start': {
    summary:
      'Start an application with a profile (environment only, for this launch), VK_LOADER_DEBUG and the validation layer routed to Strata; its output is captured into a new session (events `session.lines` while it runs, `session.ended` at the end).',
    schemas: () => import('../sessions/session-ipc').then((m) => ({ request: m.LaunchStartRequestSchema, response: m.LaunchStartResultSchema })),
  },
  'launch.stop': {
    summary: 'Stop a running launch: SIGTERM to its process group, SIGKILL after a grace period; `stopping: false` when it is not running.',
    schemas: () => import('../sessions/session-ipc').then((m) => ({ request: m.SessionIdRequestSchema, response: m.LaunchStopResultSchema })),
  },
  'sessions.list': {
    summary:
      'Every session in $XDG_STATE_HOME/strata/sessions, newest first: application, profile, start, status (running, ended, incomplete), exit and counts.',
    schemas: () => import('../sessions/session-ipc').then((m) => ({ request: empty, response: m.SessionListSchema })),
  },
  'sessions.open': {
    summary:
      'One session: header (application, profile copy, predicted chain, environment), footer (null when Strata was killed), counts, and a page of its records matching an optional query.',
    schemas: () => import('../sessions/session-ipc').then((m) => ({ request: m.SessionOpenRequestSchema, response: m.SessionOpenSchema })),
  },
  'sessions.search': {
    summary: 'Records matching a query (text, VUID, severity, source, stream) in all sessions or those named, with a count per session.',
    schemas: () => import('../sessions/session-ipc').then((m) => ({ request: m.SessionSearchRequestSchema, response: m.SessionSearchSchema })),
  },
  'sessions.delete': {
    summary: 'Delete a session file (not while it is running).',
    schemas: () => import('../sessions/session-ipc').then((m) => ({ request: m.SessionIdRequestSchema, response: m.SessionDeleteResultSchema })),
  },
  'sessions.export': {
    summary: 'A session as one JSON document, or as a self-contained HTML report (no external resources, everything escaped).',
    schemas: () => import('../sessions/session-ipc').then((m) => ({ request: m.SessionExportRequestSchema, response: m.SessionExportSchema })),
  },
  'sessions.diff': {
    summary: 'Two sessions compared: predicted chain differences, validation messages that appeared or disappeared (by VUID), and counts by severity.',
    schemas: async () => ({
      request: (await import('../sessions/session-ipc')).SessionDiffRequestSchema,
      response: (await import('../sessions/session-diff')).SessionDiffSchema,
    }),
  },
  'diagnostics.saveFolder': {
    summary:
      'Save the diagnostics bundle (the files the Diagnostics view builds for its zip) as a new folder inside the folder named (absolute or ~/…): written aside and renamed into place, never over an existing folder.',
    schemas: () => import('../diagnostics/bundle-folder').then((m) => ({ request: m.BundleFolderRequestSchema, response: m.BundleFolderResultSchema })),
  },
  // Their summaries are in shared/profiles/profile-channels.ts.
  ...channelGroup(() => import('../profiles/profile-channels').then((m) => m.channelsOfProfiles), {
    'profiles.list': true,
    'profiles.create': true,
    'profiles.save': true,
    'profiles.copy': true,
    'profiles.rename': true,
    'profiles.delete': true,
    'profiles.export': true,
    'profiles.import': true,
    'profiles.apply': true,
    'profiles.overrideExport': true,
    'profiles.launchEnvironment': true,
    'profiles.explain': true,
    'profiles.bind': true,
    'profiles.unbind': true,
  }),
  // What Strata changed for whom, and undoing it; summaries in shared/activity/activity-status.ts.
  ...channelGroup(() => import('../activity/activity-status').then((m) => m.channelsOfActivity), { 'activity.status': true, 'activity.disable': true }),
} as const;

export type ChannelName = keyof typeof channels;
type SchemasOf<C extends ChannelName> = Awaited<ReturnType<(typeof channels)[C]['schemas']>>;
export type RequestOf<C extends ChannelName> = z.input<SchemasOf<C>['request']>;
export type ResponseOf<C extends ChannelName> = z.output<SchemasOf<C>['response']>;

export function isChannelName(name: string): name is ChannelName {
  return Object.prototype.hasOwnProperty.call(channels, name);
}

const loaded = new Map<ChannelName, Promise<ChannelSchemas>>();

/** A channel's request and response schemas, loaded (and built) on the first call, kept after. */
export function channelSchemas(name: ChannelName): Promise<ChannelSchemas> {
  let schemas = loaded.get(name);
  if (!schemas) {
    schemas = (channels[name].schemas as () => Promise<ChannelSchemas>)();
    // A failed load (a chunk replaced by a rebuild under a running CLI) is tried again next call.
    schemas.catch(() => loaded.delete(name));
    loaded.set(name, schemas);
  }
  return schemas;
}

/** A channel's request schema alone: only that module where the channel names it apart (`request`), else with its response's. */
export function channelRequestSchema(name: ChannelName): Promise<z.ZodType> {
  const channel = channels[name];
  return 'request' in channel ? channel.request() : channelSchemas(name).then((s) => s.request);
}

// Events (main → renderer) are declared in ./events.ts: every UI builds them, the CLI does not.
export type { EventName, EventPayloadOf, StrataEvent } from './events';
