import { DiagnosticSeverity } from './diagnostic-severity';

/**
 * Every diagnostic code Strata emits for manifests, with its default severity and the part of the
 * specification it comes from. docs/diagnostics.md has one row per code (a test keeps them in step).
 * Severity: Error where loader 1.3.239 rejects or ignores the manifest or layer, Warning where it
 * loads it but something is off.
 */
export const LAYER_SPEC = 'LoaderLayerInterface § Layer Manifest File Format';
export const VERSIONS_SPEC = 'LoaderLayerInterface § Layer Manifest File Version History';
export const DRIVER_SPEC = 'LoaderInterfaceArchitecture § ICD Manifest File Format';
/** library_path: LoaderLayerInterface § Layer Manifest File Format, LoaderDriverInterface § Driver Manifest File Format; dlopen(3), ld.so(8). */
/** The loader settings file: LoaderSettingsFile.md (1.4.323+ docs) and settings.c at each tag. */
export const SETTINGS_SPEC = 'LoaderSettingsFile § Layer Configurations; loader/settings.c';
export const LIBRARY_SPEC = 'LoaderLayerInterface § Layer Manifest File Format (library_path); LoaderDriverInterface § Driver Manifest File Format';

export const diagnosticCodes = {
  'manifest/invalid-json': { severity: DiagnosticSeverity.Error, spec: 'LLP_LAYER_6' },
  'manifest/unreadable': { severity: DiagnosticSeverity.Warning, spec: 'LoaderLayerInterface § Layer Discovery' },
  'manifest/read-twice': { severity: DiagnosticSeverity.Information, spec: 'LoaderLayerInterface § Layer Discovery' },
  'manifest/not-a-manifest': { severity: DiagnosticSeverity.Error, spec: LAYER_SPEC },
  'manifest/missing-field': { severity: DiagnosticSeverity.Error, spec: LAYER_SPEC },
  'manifest/wrong-type': { severity: DiagnosticSeverity.Error, spec: LAYER_SPEC },
  'manifest/duplicate-key': { severity: DiagnosticSeverity.Warning, spec: 'RFC 8259 § 4 (names should be unique)' },
  'manifest/unsupported-file-format-version': { severity: DiagnosticSeverity.Warning, spec: VERSIONS_SPEC },
  'manifest/malformed-version': { severity: DiagnosticSeverity.Warning, spec: LAYER_SPEC },
  'manifest/field-requires-newer-version': { severity: DiagnosticSeverity.Warning, spec: VERSIONS_SPEC },
  'manifest/both-layer-and-layers': { severity: DiagnosticSeverity.Warning, spec: VERSIONS_SPEC },
  'manifest/invalid-library-arch': { severity: DiagnosticSeverity.Warning, spec: LAYER_SPEC },
  'manifest/empty-layers': { severity: DiagnosticSeverity.Warning, spec: LAYER_SPEC },
  'layer/not-an-object': { severity: DiagnosticSeverity.Error, spec: LAYER_SPEC },
  'layer/missing-library-path': { severity: DiagnosticSeverity.Error, spec: LAYER_SPEC },
  'layer/meta-with-library-path': { severity: DiagnosticSeverity.Error, spec: LAYER_SPEC },
  'layer/device-type': { severity: DiagnosticSeverity.Error, spec: LAYER_SPEC },
  'layer/invalid-type': { severity: DiagnosticSeverity.Error, spec: LAYER_SPEC },
  'layer/implicit-without-disable-environment': { severity: DiagnosticSeverity.Error, spec: 'LLP_LAYER_9' },
  'layer/empty-environment': { severity: DiagnosticSeverity.Error, spec: `${LAYER_SPEC} (enable_environment, disable_environment); LLP_LAYER_9` },
  'layer/implicit-fields-on-explicit': { severity: DiagnosticSeverity.Warning, spec: LAYER_SPEC },
  'layer/override-fields-on-non-override': { severity: DiagnosticSeverity.Warning, spec: 'LoaderLayerInterface § Override Meta-Layer' },
  'layer/empty-component-layers': { severity: DiagnosticSeverity.Warning, spec: 'LoaderLayerInterface § Meta-layers' },
  'layer/name-convention': { severity: DiagnosticSeverity.Warning, spec: 'LLP_LAYER_3' },
  'layer/extension-incomplete': { severity: DiagnosticSeverity.Warning, spec: LAYER_SPEC },
  'layer/duplicate-name': { severity: DiagnosticSeverity.Warning, spec: 'LLP_LAYER_3' },
  'layer/component-missing': { severity: DiagnosticSeverity.Error, spec: 'LLP_LAYER_7' },
  'layer/component-cycle': { severity: DiagnosticSeverity.Error, spec: 'LoaderLayerInterface § Meta-layers' },
  'layer/component-api-version': { severity: DiagnosticSeverity.Error, spec: 'LLP_LAYER_8' },
  'driver/missing-library-path': { severity: DiagnosticSeverity.Error, spec: DRIVER_SPEC },
  'library/not-found': { severity: DiagnosticSeverity.Error, spec: LIBRARY_SPEC },
  'library/not-on-search-path': { severity: DiagnosticSeverity.Warning, spec: `${LIBRARY_SPEC}; dlopen(3), ld.so(8)` },
  'library/not-a-file': { severity: DiagnosticSeverity.Error, spec: LIBRARY_SPEC },
  'library/unreadable': { severity: DiagnosticSeverity.Error, spec: LIBRARY_SPEC },
  'library/not-a-shared-library': { severity: DiagnosticSeverity.Error, spec: `${LIBRARY_SPEC}; System V ABI § ELF Header; Microsoft PE Format` },
  'library/wrong-class': {
    severity: DiagnosticSeverity.Information,
    spec: `${LIBRARY_SPEC} (library_arch); loader_handle_load_library_error ("wrong bit-type")`,
  },
  'library/wrong-machine': {
    severity: DiagnosticSeverity.Error,
    spec: `${LIBRARY_SPEC}; System V ABI § ELF Header (e_machine); Microsoft PE Format (Machine)`,
  },
  // vk_loader_settings.json (shared/lint/loader-settings-lint.ts), for the loader that reads it.
  'settings/ignored-by-loader': { severity: DiagnosticSeverity.Information, spec: SETTINGS_SPEC },
  'settings/not-read': { severity: DiagnosticSeverity.Error, spec: SETTINGS_SPEC },
  'settings/no-layers': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/invalid-layer-entry': { severity: DiagnosticSeverity.Error, spec: SETTINGS_SPEC },
  'settings/unknown-control': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/manifest-unusable': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/name-mismatch': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/crashes-loader': { severity: DiagnosticSeverity.Error, spec: SETTINGS_SPEC },
  // Its drivers, devices and log (shared/loader/settings-drivers.ts; 1.4.323+ for drivers and devices).
  'settings/no-drivers': { severity: DiagnosticSeverity.Error, spec: SETTINGS_SPEC },
  'settings/invalid-driver-entry': { severity: DiagnosticSeverity.Error, spec: SETTINGS_SPEC },
  'settings/driver-not-json': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/no-devices': { severity: DiagnosticSeverity.Error, spec: SETTINGS_SPEC },
  'settings/invalid-device-entry': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/devices-filtered': { severity: DiagnosticSeverity.Information, spec: SETTINGS_SPEC },
  'settings/unknown-log-filter': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/log-silenced': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/log-filters': { severity: DiagnosticSeverity.Information, spec: SETTINGS_SPEC },
} as const;

export type DiagnosticCode = keyof typeof diagnosticCodes;
