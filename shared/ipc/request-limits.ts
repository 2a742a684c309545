/**
 * Caps on the arrays a request may carry (IPC, HTTP, CLI alike: the router validates every request
 * against the contract's schemas). Far above real use, low enough that no handler's work on one
 * request can run away. tests/unit/request-limits.test.ts walks every channel's request schema and
 * fails on an array without a maximum. The HTTP body is capped too (24 MiB, main/hosts/serve/browser-host.ts).
 */
export const REQUEST_LIMITS = {
  /** VkInstanceCreateInfo::ppEnabledLayerNames of a chain question. A real system has tens of layers. */
  requestedLayers: 1024,
  /** Layers listed in one override configuration. */
  overrideLayers: 1024,
  /** app_keys and override_paths of one override configuration. */
  overrideStrings: 1024,
  /** Files and folders in one lint request. */
  lintPaths: 4096,
  /** Driver manifests in one drivers.negotiate request: each is a probe process of its own. */
  driverManifests: 1024,
  /** Layer names in one layers.inspect request: each is a probe process of its own. */
  inspectLayers: 1024,
  /** Session ids in one search. */
  sessionIds: 1024,
  /** Values of one filter of a session query (each one of a handful of names). */
  queryValues: 64,
  /** Arguments of a command to launch or bind (the kernel's ARG_MAX ends far longer lists anyway). */
  commandArgs: 4096,
  /** Items of one list in a profile: drivers selected, disabled or ordered, override paths, applications, loader message levels. */
  profileListItems: 1024,
  /** Values of one FLAGS or LIST layer setting (a list of message ids to mute is the longest real one: hundreds). */
  settingListValues: 8192,
} as const;

/**
 * A limit's message. Marked free of side effects so that a schema whose limit message calls it can
 * still be dropped from a bundle that never reads that schema (issue #19: the renderer's first view).
 */
export const tooMany = /* @__NO_SIDE_EFFECTS__ */ (what: string, max: number) => `at most ${max} ${what}`;
