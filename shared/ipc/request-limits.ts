/**
 * Caps on the arrays a request may carry (IPC, HTTP, CLI alike: the router validates every request
 * against the contract's schemas). Far above real use, low enough that no handler's work on one
 * request can run away. The HTTP body is capped too (24 MiB, main/serve/browser-host.ts).
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
} as const;

export const tooMany = (what: string, max: number) => `at most ${max} ${what}`;
