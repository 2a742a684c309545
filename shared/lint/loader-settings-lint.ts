import type { Diagnostic, Range } from 'vscode-languageserver-types';
import { parseLocatedJson, property, type LocatedJson } from '../manifest/located-json';
import { parseManifest } from '../manifest/manifest-parser';
import { loaderHas } from '../loader/loader-rules';
import { diagnosticCodes, type DiagnosticCode } from './diagnostic-codes';
import { strataDiagnostic } from './strata-diagnostic';

/**
 * Lint of a vk_loader_settings.json (another tool's, such as vkconfig 3's, or Strata's own) for the
 * loader that reads it: what that loader ignores, misreads, or crashes on. The behaviours are the
 * rows of shared/loader/loader-rules.ts that settings-chain.ts models, proven against the six real
 * loaders by tests/integration/chain-vs-loader.test.ts.
 */

export interface SettingsLintOptions {
  /** The loader that reads the file (null: unknown, the rules of the newest proven loader are assumed). */
  loaderVersion: string | null;
  /** The text of each manifest the file names, by path (null: missing or unreadable). */
  manifests: ReadonlyMap<string, string | null>;
}

const NEWEST = '1.4.359';
const CONTROLS = new Set(['on', 'off', 'auto', 'unordered_layer_location']);

export function lintLoaderSettings(text: string, options: SettingsLintOptions): Diagnostic[] {
  const version = options.loaderVersion ?? NEWEST;
  const out: Diagnostic[] = [];
  const report = (code: DiagnosticCode, range: Range, message: string) => out.push(strataDiagnostic(diagnosticCodes, code, range, message));
  const parsed = parseLocatedJson(text);
  const whole = parsed.lines.range(0, text.length);
  if (!loaderHas(options.loaderVersion, 'settings-file')) {
    report(
      'settings/ignored-by-loader',
      parsed.lines.range(0, 0),
      `Loader ${options.loaderVersion ?? 'of unknown version'} reads no vk_loader_settings.json (1.3.251 and later do), so this file changes nothing for it.`,
    );
    return out;
  }
  if (parsed.errors.length || !parsed.root) {
    const e = parsed.errors[0];
    report('settings/not-read', e?.range ?? whole, `The file is not valid JSON (${e?.error ?? 'empty'}), so the loader ignores it. Fix: correct the JSON.`);
    return out;
  }
  const root = parsed.root;
  if (root.kind !== 'object' || property(root, 'file_format_version')?.value.kind !== 'string') {
    report(
      'settings/not-read',
      root.range,
      'The file has no "file_format_version" string at its top level, so the loader ignores it. Fix: add "file_format_version": "1.0.0".',
    );
    return out;
  }
  const array = property(root, 'settings_array');
  const single = property(root, 'settings');
  const entries = array ? (array.value.kind === 'array' ? array.value.items : []) : single ? [single.value] : null;
  if (!entries) {
    report(
      'settings/not-read',
      root.range,
      'The file has neither "settings" nor "settings_array", so no settings apply. Fix: put the settings in a "settings_array".',
    );
    return out;
  }
  for (const entry of entries) {
    if (entry.kind !== 'object') {
      report(
        'settings/invalid-layer-entry',
        entry.range,
        'An element of "settings_array" that is not an object ends the loader\'s search: the entries after it are never used. Fix: remove it.',
      );
      break;
    }
    lintEntry(entry, version, options, report);
  }
  return out;
}

function lintEntry(
  entry: LocatedJson & { kind: 'object' },
  version: string,
  options: SettingsLintOptions,
  report: (code: DiagnosticCode, range: Range, message: string) => void,
) {
  const layers = property(entry, 'layers');
  if (!layers) {
    if (!loaderHas(version, 'settings-layers-optional'))
      report(
        'settings/no-layers',
        entry.range,
        `Loader ${version} ignores the whole file because this entry has no "layers". Fix: add "layers": [{ "control": "unordered_layer_location" }].`,
      );
    else if (!loaderHas(version, 'settings-layer-configurations'))
      report(
        'settings/no-layers',
        entry.range,
        `On loader ${version} the applications this entry applies to get no layers at all, because it has no "layers" (1.4.336 leaves them to the usual rules). Fix: add "layers": [{ "control": "unordered_layer_location" }].`,
      );
    return;
  }
  if (layers.value.kind !== 'array') return;
  const seen: { name: string; control: string }[] = [];
  for (const item of layers.value.items) {
    const control = item.kind === 'object' ? property(item, 'control')?.value : undefined;
    const name = item.kind === 'object' ? property(item, 'name')?.value : undefined;
    const path = item.kind === 'object' ? property(item, 'path')?.value : undefined;
    const unordered = control?.kind === 'string' && control.value === 'unordered_layer_location';
    if (item.kind !== 'object' || control?.kind !== 'string' || (!unordered && (name?.kind !== 'string' || path?.kind !== 'string'))) {
      report(
        'settings/invalid-layer-entry',
        item.range,
        `A layer entry needs "control" and, unless it is the unordered_layer_location, "name" and "path" strings. ${
          loaderHas(version, 'settings-layer-configurations')
            ? `Loader ${version} then leaves this entry's layers to the usual rules.`
            : `Loader ${version} then ignores the whole file.`
        } Fix: complete the entry or remove it.`,
      );
      continue;
    }
    if (!CONTROLS.has(control.value))
      report(
        'settings/unknown-control',
        control.range,
        `"${control.value}" is not on, off, auto or unordered_layer_location; the loader reads it as "auto". Fix: use one of those four.`,
      );
    if (unordered || name?.kind !== 'string' || path?.kind !== 'string') continue;
    const mode = CONTROLS.has(control.value) ? control.value : 'auto';
    if (mode !== 'off') {
      const earlierOff = seen.find((s) => s.name === name.value && s.control === 'off');
      if (earlierOff && !loaderHas(version, 'settings-null-check'))
        report(
          'settings/crashes-loader',
          item.range,
          `${name.value} is listed after an "off" entry of the same name: loader ${version} crashes in vkCreateInstance on this file (fixed in 1.4.326). Fix: remove one of the two entries.`,
        );
      lintManifestOf(name.value, path, version, options, seen, report);
    }
    seen.push({ name: name.value, control: mode });
  }
}

function lintManifestOf(
  name: string,
  path: LocatedJson & { kind: 'string' },
  version: string,
  options: SettingsLintOptions,
  seen: readonly { name: string; control: string }[],
  report: (code: DiagnosticCode, range: Range, message: string) => void,
) {
  const text = options.manifests.get(path.value);
  if (text === undefined) return;
  if (text === null) {
    report(
      'settings/manifest-unusable',
      path.range,
      `No readable manifest at ${path.value}: the loader leaves ${name} out${loaderHas(version, 'settings-failed-manifest') ? '' : `, and loader ${version} takes the entry before it in its place`}. Fix: point "path" at the layer's manifest.`,
    );
    return;
  }
  const m = parseManifest(text).manifest;
  const layers = m?.kind === 'layer' ? m.layers : [];
  const declared = layers.flatMap((l) => (l.name?.value === undefined ? [] : [l.name.value]));
  if (!declared.includes(name)) {
    report(
      'settings/name-mismatch',
      path.range,
      `${path.value} declares ${declared.join(', ') || 'no layer'}, not ${name}: the loader leaves it out${
        loaderHas(version, 'settings-multi-layer-manifests') ? '' : `, and loader ${version} removes the entry before it too`
      }. Fix: correct "name" or "path".`,
    );
    return;
  }
  // A meta-layer whose component the same entry turns off: the loader takes the "off" entry as the component.
  const meta = layers.find((l) => l.name?.value === name && l.component_layers !== undefined);
  const offComponent = (meta?.component_layers?.value ?? []).map((c) => c.value).find((c) => seen.some((s) => s.name === c && s.control === 'off'));
  if (offComponent)
    report(
      'settings/crashes-loader',
      path.range,
      `The meta-layer ${name} has ${offComponent} as a component, which this entry turns off: ${
        loaderHas(version, 'settings-off-component-crash')
          ? `loader ${version} crashes in vkCreateInstance`
          : `loader ${version} calls into itself in vkCreateInstance (it crashes, hangs or fails with VK_ERROR_INITIALIZATION_FAILED)`
      } when it enables ${name}. Fix: turn ${name} off too, or leave ${offComponent} out of the file.`,
    );
}
