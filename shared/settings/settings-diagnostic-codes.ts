import { DiagnosticSeverity } from '../lint/diagnostic-severity';

/**
 * Every diagnostic code of the settings description parser (settings-schema.ts). docs/settings.md
 * has one row per code (tests/unit/settings-schema.test.ts keeps them in step). Error: the setting
 * (or preset) cannot be used and is left out of the form; Warning: it is used, with a fallback.
 */
export const SETTINGS_SPEC = 'LoaderLayerInterface § Layer Manifest File Version 1.2.0 (vkconfig layers_schema.json)';

export const settingsDiagnosticCodes = {
  'settings/malformed': { severity: DiagnosticSeverity.Error, spec: SETTINGS_SPEC },
  'settings/wrong-type': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/missing-field': { severity: DiagnosticSeverity.Error, spec: SETTINGS_SPEC },
  'settings/missing-label': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/unknown-type': { severity: DiagnosticSeverity.Error, spec: SETTINGS_SPEC },
  'settings/duplicate-key': { severity: DiagnosticSeverity.Error, spec: SETTINGS_SPEC },
  'settings/no-options': { severity: DiagnosticSeverity.Error, spec: SETTINGS_SPEC },
  'settings/invalid-default': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/invalid-range': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/unknown-token': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/unknown-dependence': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/unknown-preset-key': { severity: DiagnosticSeverity.Warning, spec: SETTINGS_SPEC },
  'settings/old-file-format': { severity: DiagnosticSeverity.Warning, spec: 'LoaderLayerInterface § Layer Manifest File Version History' },
} as const;

export type SettingsDiagnosticCode = keyof typeof settingsDiagnosticCodes;
