/**
 * The most Strata reads of each kind of file (main/platform/guarded-read.ts enforces them). The caps
 * are far above any real file of the kind (the largest noted below) and far below what would hurt a
 * desktop session; a file over its cap is refused with its size and the cap, in bytes.
 */
export const READ_LIMITS = {
  /** Layer/driver manifests. The largest real one, VkLayer_khronos_validation.json with its settings, is about 0.5 MB. */
  manifest: 16 << 20,
  /** Strata profiles (JSON): PROFILE_FILE_MAX_BYTES of shared/profiles/profile-schema.ts (tests/unit/guarded-read.test.ts holds the two equal). */
  profile: 1 << 20,
  /** SPIR-V or VBC shaders. Real modules are KB to a few MB; the biggest seen in games are ~30 MB. */
  shader: 64 << 20,
  /** Override configurations (`override apply --config`). */
  config: 8 << 20,
  /** vk_layer_settings.txt and Strata's own small JSON stores (bindings, override records). */
  settings: 8 << 20,
  /**
   * One line (record) of a session file; the file itself is streamed, gigabytes are fine. Strata
   * writes output lines of at most 64 KiB (main/sessions/line-splitter.ts) and headers of a few KB.
   * A longer line is damage: skipped to its end, counted as damaged.
   */
  sessionLine: 16 << 20,
} as const;
