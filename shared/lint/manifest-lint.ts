import { loaderHas, RULES_VERSION } from '../loader/loader-rules';
import type { Diagnostic, Range } from 'vscode-languageserver-types';
import { DiagnosticSeverity } from './diagnostic-severity';
import type { DriverManifest, Field, LayerEntry, LayerManifest, ParsedManifest } from '../manifest/manifest-model';
import { compareVersions, parseVersion } from '../manifest/manifest-parser';
import { diagnosticCodes, type DiagnosticCode } from './diagnostic-codes';
import { NESTING_TOO_DEEP } from '../manifest/located-json';
import { JSON_NESTING_LIMIT } from '../json/json-nesting';
import { strataDiagnostic } from './strata-diagnostic';
import { OVERRIDE_LAYER_NAME } from '../override/override-names';
import { lintLibraryPath, type LibraryLookup, type LibraryOwner } from './library-lint';

/**
 * Where a manifest was found decides some rules: implicit layers must have disable_environment,
 * only they may use enable_environment. Unknown role: the implicit-only rules are not applied.
 */
export type ManifestRole = 'explicit-layer' | 'implicit-layer' | 'driver' | 'unknown';

/** The role the loader gives a file by the folder it sits in (Linux and macOS folder names). */
export function roleFromPath(path: string): ManifestRole {
  const p = path.replace(/\\/g, '/');
  if (/\/implicit_layer\.d\//.test(p)) return 'implicit-layer';
  if (/\/explicit_layer\.d\//.test(p)) return 'explicit-layer';
  if (/\/icd\.d\//.test(p)) return 'driver';
  return 'unknown';
}

export interface LintOptions {
  role?: ManifestRole;
  /**
   * The loader the verdicts are for (its version): what a loader does with a broken manifest changed
   * between releases (loader-rules.ts; proven per version by tests/integration/lint-vs-loader.test.ts).
   * Unknown: loader 1.3.239's behaviour, the rules' default.
   */
  loaderVersion?: string | null;
  /**
   * Where the file is and how to look at the libraries it names (main/discovery/library-check.ts):
   * with both, each "library_path" is resolved and opened as the loader would (library-lint.ts).
   * Without, the lint stays about the file's text.
   */
  path?: string;
  libraries?: LibraryLookup | null;
}

/** The file's path and the library lookup, when the lint checks libraries. */
type Libraries = { path: string; lookup: LibraryLookup; reported: Set<string> } | null;

/**
 * Appends the library diagnostics of one string "library_path": once per library of a file, so a
 * manifest of 100,000 layers that all name one missing library gives one diagnostic, not 100,000
 * (memory stays bounded on hostile files; the first layer's range points at the value).
 */
function lintLibrary(out: Diagnostic[], libs: Libraries, field: Field<string> | undefined, owner: LibraryOwner) {
  if (!libs || field?.value === undefined || libs.reported.has(field.value)) return;
  libs.reported.add(field.value);
  const check = libs.lookup(libs.path, field.value);
  if (check) out.push(...lintLibraryPath(field, check, owner));
}

/** What the loader of `version` does with the manifests the lint cares about, where that changed. */
interface LoaderReading {
  version: string;
  /** 1.3.251+: an empty enable_environment no longer crashes the loader. */
  emptyEnableEnvironmentSafe: boolean;
  /** 1.3.268+: invalid JSON skips the file instead of failing every enumeration. */
  invalidJsonSkipsFile: boolean;
  /** 1.4.303+: a field of the wrong type skips the layer; the crashes of older loaders are gone. */
  strictTypes: boolean;
  /** 1.4.303–1.4.332 list a layer without a valid "type", and enabling it hangs. */
  listsLayerWithoutType: boolean;
  /** 1.4.303–1.4.356 list a layer without api_version / implementation_version, and enabling it hangs or crashes. */
  listsLayerWithoutVersions: boolean;
}

function loaderReading(version: string | null | undefined): LoaderReading {
  const v = version ?? RULES_VERSION;
  const strictTypes = loaderHas(v, 'strict-manifest-types');
  return {
    version: v,
    emptyEnableEnvironmentSafe: loaderHas(v, 'json-helpers'),
    invalidJsonSkipsFile: loaderHas(v, 'invalid-json-skips-file'),
    strictTypes,
    listsLayerWithoutType: strictTypes && !loaderHas(v, 'invalid-type-skipped'),
    listsLayerWithoutVersions: strictTypes && !loaderHas(v, 'missing-versions-skipped'),
  };
}

/** The layer manifest file format versions loader 1.3.239 knows (1.2.1 too, silently; see docs). */
const KNOWN_LAYER_FORMATS = ['1.0.0', '1.0.1', '1.1.0', '1.1.1', '1.1.2', '1.2.0', '1.2.1'];
const KNOWN_DRIVER_FORMATS = ['1.0.0', '1.0.1'];

type Sink = (code: DiagnosticCode, range: Range, message: string, severity?: DiagnosticSeverity) => void;

/** Some rules lower a code's default severity where the loader only coerces the value. */
function makeDiagnostic(code: DiagnosticCode, range: Range, message: string, severity?: DiagnosticSeverity): Diagnostic {
  const d = strataDiagnostic(diagnosticCodes, code, range, message);
  return severity === undefined ? d : { ...d, severity };
}

const jsonTypeName = (kind: string) => (kind === 'object' ? 'an object' : kind === 'array' ? 'an array' : kind === 'null' ? 'null' : `a ${kind}`);

function checkType(report: Sink, f: Field<unknown> | undefined, where: string, severity?: DiagnosticSeverity): boolean {
  if (!f) return false;
  if (f.value !== undefined) return true;
  report(
    'manifest/wrong-type',
    f.range,
    `"${f.key}"${where} must be ${jsonTypeName(f.expected)}, not ${jsonTypeName(f.node.kind)}. Fix: write it as ${jsonTypeName(f.expected)}${f.expected === 'string' ? ' (in quotes)' : ''}.`,
    severity,
  );
  return false;
}

function checkVersionString(report: Sink, f: Field<string> | undefined, what: string) {
  if (!f || f.value === undefined) return;
  const v = parseVersion(f.value);
  if (!v.wellFormed)
    report(
      'manifest/malformed-version',
      f.range,
      `"${f.key}" is "${f.value}", not a major.minor.patch version; the loader reads it as ${v.major}.${v.minor}.${v.patch}. Fix: write ${what} as three numbers, e.g. "1.3.239".`,
    );
}

function lintFileFormatVersion(report: Sink, parsed: ParsedManifest, ffv: Field<string> | undefined, known: string[], kind: string, reading: LoaderReading) {
  if (!ffv) {
    report(
      'manifest/missing-field',
      parsed.root?.kind === 'object' ? firstLine(parsed) : parsed.wholeRange,
      `The ${kind} manifest has no "file_format_version"; the loader skips the whole file. Fix: add "file_format_version": "${known[known.length - 1]}" at the top level.`,
    );
    return;
  }
  // A number (e.g. 1) is printed and read by loaders before 1.4.303 as a version, so it loads;
  // 1.4.303+ (strict-manifest-types) skips the file.
  if (
    !checkType(
      report,
      ffv,
      reading.strictTypes ? ` (loader ${reading.version} skips the file)` : '',
      ffv.node.kind === 'number' && !reading.strictTypes ? DiagnosticSeverity.Warning : undefined,
    )
  )
    return;
  checkVersionString(report, ffv, 'the file format version');
  const v = parseVersion(ffv.value as string);
  const text = `${v.major}.${v.minor}.${v.patch}`;
  if (!known.includes(text))
    report(
      'manifest/unsupported-file-format-version',
      ffv.range,
      `File format version ${text} is not one the loader knows (${known.join(', ')}); it reads the file anyway and warns "may cause errors". Fix: use "${known[known.length - 1]}" or the lowest version that has the fields you use.`,
    );
}

function firstLine(parsed: ParsedManifest): Range {
  const r = parsed.root!.range;
  return { start: r.start, end: { line: r.start.line, character: r.start.character + 1 } };
}

function lintDuplicateKeys(report: Sink, keys: { key: string; keyRange: Range }[], where: string, topLevel = false) {
  const seen = new Set<string>();
  for (const k of keys) {
    // Two top-level "layer" keys: loader 1.3.239 logs an error and loads no layer from the file.
    const severity = topLevel && k.key === 'layer' ? DiagnosticSeverity.Error : undefined;
    if (seen.has(k.key))
      report(
        'manifest/duplicate-key',
        k.keyRange,
        `"${k.key}" appears more than once${where}; the loader reads only the first one. Fix: remove or merge the repeated key${k.key === 'layer' ? ' (for several layers, use a "layers" array and file_format_version 1.0.1 or later)' : ''}.`,
        severity,
      );
    seen.add(k.key);
  }
}

function lintLayer(report: Sink, layer: LayerEntry, manifest: LayerManifest, role: ManifestRole, reading: LoaderReading, out: Diagnostic[], libs: Libraries) {
  const where = layer.index === undefined ? ' in "layer"' : ` in layers[${layer.index}]`;
  if (!layer.isObject) {
    report(
      'layer/not-an-object',
      layer.range,
      `Each layer must be a JSON object; this one is not, so the loader skips it. Fix: write the layer as { "name": …, "type": …, … }.`,
    );
    return;
  }
  lintDuplicateKeys(report, layer.keys, where);
  const layerRange = { start: layer.range.start, end: { line: layer.range.start.line, character: layer.range.start.character + 1 } };
  const required = ['name', 'type', 'api_version', 'implementation_version', 'description'] as const;
  for (const key of required) {
    const f = layer[key];
    // Loaders 1.4.303–1.4.332 (type) and –1.4.356 (the versions) list such a layer, and creating an
    // instance with it enabled hangs or crashes (seen on 1.4.309, 1.4.321, 1.4.341).
    const listed =
      (key === 'type' && reading.listsLayerWithoutType) || ((key === 'api_version' || key === 'implementation_version') && reading.listsLayerWithoutVersions);
    if (!f)
      report(
        'manifest/missing-field',
        layerRange,
        `The layer${where} has no "${key}"; ${
          listed
            ? `loader ${reading.version} still lists the layer, and vkCreateInstance hangs or crashes when an application enables it`
            : `the loader skips this layer ("Didn't find required layer value ${key}")`
        }. Fix: add "${key}": ${key === 'name' ? '"VK_LAYER_vendor_name"' : key === 'type' ? '"GLOBAL"' : key === 'api_version' ? '"1.3.239"' : key === 'implementation_version' ? '"1"' : '"what the layer does"'}.`,
      );
    else
      checkType(
        report,
        f,
        // 1.4.303+ take a field of the wrong type as missing: see `listed` above.
        listed
          ? `${where} (loader ${reading.version} takes it as missing, still lists the layer, and vkCreateInstance hangs or crashes when an application enables it)`
          : where,
        key === 'implementation_version' && f.node.kind === 'number' && !reading.strictTypes ? DiagnosticSeverity.Warning : undefined,
      );
  }
  const name = layer.name?.value;
  if (layer.name && name !== undefined && !name.startsWith('VK_LAYER_'))
    report(
      'layer/name-convention',
      layer.name.range,
      `Layer name "${name}" does not start with "VK_LAYER_"; the loader loads it but warns (Policy LLP_LAYER_3). Fix: name it VK_LAYER_<vendor>_<name>.`,
    );
  checkVersionString(report, layer.api_version, 'the Vulkan API version');

  const type = layer.type?.value;
  if (layer.type && type !== undefined) {
    if (type === 'DEVICE')
      report(
        'layer/device-type',
        layer.type.range,
        `Type "DEVICE" is deprecated; the loader skips device layers as if they were not there. Fix: use "GLOBAL" (or "INSTANCE").`,
      );
    else if (type !== 'GLOBAL' && type !== 'INSTANCE')
      report(
        'layer/invalid-type',
        layer.type.range,
        `Type "${type}" is not a layer type; the loader only includes "GLOBAL" and "INSTANCE" layers. Fix: use "GLOBAL".`,
      );
  }

  const isMeta = layer.component_layers !== undefined;
  if (layer.library_path) checkType(report, layer.library_path, where);
  // A meta-layer's library_path already skips the layer (below); the loader opens nothing then.
  if (!isMeta)
    lintLibrary(out, libs, layer.library_path, {
      kind: role === 'implicit-layer' || role === 'explicit-layer' ? role : 'layer',
      name: layer.name?.value,
      libraryArch: layer.library_arch?.value,
    });
  if (isMeta && layer.library_path)
    report(
      'layer/meta-with-library-path',
      layer.library_path.keyRange,
      `A meta-layer (one with "component_layers") must not have "library_path"; the loader skips this layer. Fix: remove "library_path", or remove "component_layers" if this is a normal layer.`,
    );
  if (!isMeta && !layer.library_path)
    report(
      'layer/missing-library-path',
      layerRange,
      `The layer${where} has neither "library_path" nor "component_layers"; the loader skips it. Fix: add "library_path" with the layer's shared library (or "component_layers" for a meta-layer).`,
    );
  if (layer.component_layers && checkType(report, layer.component_layers, where)) {
    const items = layer.component_layers.value!;
    // The override meta-layer may force nothing on and only blacklist: loader 1.3.239 accepts it ("all 0
    // component layers appear to be valid") and applies the blacklist; vkconfig writes such files too.
    const blacklistOnly = name === OVERRIDE_LAYER_NAME && (layer.blacklisted_layers?.value?.length ?? 0) > 0;
    if (items.length === 0 && !blacklistOnly)
      report(
        'layer/empty-component-layers',
        layer.component_layers.range,
        `A meta-layer must list one or more component layers. Fix: add the names of the layers it groups, or remove the layer.`,
      );
    for (const item of items)
      if (item.value === undefined)
        report(
          'manifest/wrong-type',
          item.range,
          `Each entry of "component_layers" must be a layer name string, not ${jsonTypeName(item.node.kind)}. Fix: write the component layer's "name" in quotes.`,
        );
  }

  // Loader 1.3.239 ignores a layer's library_arch entirely (it loads the layer), so a bad one is a warning.
  if (
    layer.library_arch &&
    checkType(report, layer.library_arch, where, DiagnosticSeverity.Warning) &&
    layer.library_arch.value !== '32' &&
    layer.library_arch.value !== '64'
  )
    report(
      'manifest/invalid-library-arch',
      layer.library_arch.range,
      `"library_arch" is "${layer.library_arch.value}"; the only valid values are "32" and "64". Fix: use "64" for a 64-bit library, "32" for 32-bit, or remove the field.`,
    );

  for (const key of ['functions', 'enable_environment', 'disable_environment', 'pre_instance_functions'] as const) {
    const f = layer[key];
    // Loaders before 1.4.303 crash on a "functions" that is not an object; 1.4.303+ ignore it.
    const ignored = key === 'functions' && reading.strictTypes;
    if (
      f &&
      checkType(
        report,
        f,
        ignored ? `${where} (loader ${reading.version} ignores it; 1.3.302 lists the layer and fails vkCreateInstance with it, older loaders crash)` : where,
        ignored ? DiagnosticSeverity.Warning : undefined,
      )
    )
      for (const e of f.value!) checkType(report, e.value, ` in "${key}"`);
  }
  for (const key of ['override_paths', 'blacklisted_layers', 'app_keys'] as const) {
    const f = layer[key];
    if (f && checkType(report, f, where))
      for (const item of f.value!)
        if (item.value === undefined)
          report('manifest/wrong-type', item.range, `Each entry of "${key}" must be a string, not ${jsonTypeName(item.node.kind)}. Fix: write it in quotes.`);
  }
  for (const key of ['instance_extensions', 'device_extensions'] as const) {
    const f = layer[key];
    if (!f || !checkType(report, f, where)) continue;
    for (const ext of f.value!) {
      if (!ext.name && !ext.spec_version && !ext.entrypoints) {
        report(
          'layer/extension-incomplete',
          ext.range,
          `Each entry of "${key}" must be an object with "name" and "spec_version". Fix: write { "name": "VK_EXT_…", "spec_version": "1" }.`,
        );
        continue;
      }
      for (const k of ['name', 'spec_version'] as const) {
        if (!ext[k])
          report(
            'layer/extension-incomplete',
            ext.range,
            `An entry of "${key}" has no "${k}"; the extension is reported with an empty or zero ${k}. Fix: add "${k}".`,
          );
        else checkType(report, ext[k], ` in "${key}"`, DiagnosticSeverity.Warning);
      }
      if (ext.entrypoints && checkType(report, ext.entrypoints, ` in "${key}"`, DiagnosticSeverity.Warning))
        for (const item of ext.entrypoints.value!)
          if (item.value === undefined)
            report(
              'manifest/wrong-type',
              item.range,
              `Each entry point must be a function name string, not ${jsonTypeName(item.node.kind)}. Fix: write it in quotes.`,
              DiagnosticSeverity.Warning,
            );
    }
  }

  // Override meta-layer fields only mean something on VK_LAYER_LUNARG_override (§ Override Meta-Layer).
  const isOverride = name === OVERRIDE_LAYER_NAME && isMeta;
  if (!isOverride)
    for (const key of ['override_paths', 'blacklisted_layers', 'app_keys'] as const) {
      const f = layer[key];
      if (f)
        report(
          'layer/override-fields-on-non-override',
          f.keyRange,
          `"${key}" is only used by the override meta-layer (an implicit meta-layer named ${OVERRIDE_LAYER_NAME}); the loader ignores it here. Fix: remove "${key}", or make this the override layer.`,
        );
    }

  if (role === 'implicit-layer' && !layer.disable_environment)
    report(
      'layer/implicit-without-disable-environment',
      layer.name?.range ?? layerRange,
      `Implicit layer${name ? ` ${name}` : ''} has no "disable_environment"; the loader skips it (Policy LLP_LAYER_9). Fix: add "disable_environment": { "DISABLE_${(name ?? 'MY_LAYER').replace(/^VK_LAYER_/, '').toUpperCase()}": "1" }.`,
    );
  // Loader 1.3.239 reads these objects only for implicit layers, and an empty one goes wrong: an empty
  // "disable_environment" skips the layer, an empty "enable_environment" crashes it (SIGSEGV).
  if (role === 'implicit-layer') {
    if (layer.disable_environment?.value?.length === 0)
      report(
        'layer/empty-environment',
        layer.disable_environment.range,
        `"disable_environment" is empty; the loader skips this implicit layer ("Didn't find required layer child value disable_environment", Policy LLP_LAYER_9). Fix: name the variable that turns the layer off, e.g. { "DISABLE_${(name ?? 'MY_LAYER').replace(/^VK_LAYER_/, '').toUpperCase()}": "1" }.`,
      );
    if (layer.enable_environment?.value?.length === 0)
      report(
        'layer/empty-environment',
        layer.enable_environment.range,
        `"enable_environment" is empty; ${
          reading.emptyEnableEnvironmentSafe
            ? `loader ${reading.version} treats the layer as always on, but loaders before 1.3.251 crash (segmentation fault) in every application that enumerates layers while this file is installed`
            : `loader ${reading.version} crashes (segmentation fault) in every application that enumerates layers while this file is installed`
        }. Fix: name the variable that turns the layer on, e.g. { "ENABLE_${(name ?? 'MY_LAYER').replace(/^VK_LAYER_/, '').toUpperCase()}": "1" }, or remove "enable_environment" to have the layer always on.`,
        reading.emptyEnableEnvironmentSafe ? DiagnosticSeverity.Warning : undefined,
      );
  }
  if (role === 'explicit-layer')
    for (const key of ['enable_environment', 'disable_environment', 'pre_instance_functions'] as const) {
      const f = layer[key];
      if (f)
        report(
          'layer/implicit-fields-on-explicit',
          f.keyRange,
          `"${key}" is for implicit layers only; for this explicit layer the loader ignores it. Fix: remove it, or install the manifest in an implicit_layer.d folder if the layer should be on by default.`,
        );
    }

  const ffv = manifest.fileFormatVersion?.value !== undefined ? parseVersion(manifest.fileFormatVersion.value) : undefined;
  if (ffv) {
    const needs = [
      ['component_layers', '1.1.1'],
      ['pre_instance_functions', '1.1.2'],
      ['library_arch', '1.2.1'],
    ] as const;
    for (const [key, min] of needs) {
      const f = layer[key];
      if (f && compareVersions(ffv, parseVersion(min)) < 0)
        report(
          'manifest/field-requires-newer-version',
          f.keyRange,
          `"${key}" needs file_format_version ${min} or later, but the file says ${manifest.fileFormatVersion!.value}. Fix: set "file_format_version" to "${min}" or later.`,
        );
    }
  }
}

function lintLayerManifest(
  report: Sink,
  parsed: ParsedManifest,
  m: LayerManifest,
  role: ManifestRole,
  reading: LoaderReading,
  out: Diagnostic[],
  libs: Libraries,
) {
  lintFileFormatVersion(report, parsed, m.fileFormatVersion, KNOWN_LAYER_FORMATS, 'layer', reading);
  if (m.form === 'both')
    report(
      'manifest/both-layer-and-layers',
      m.layer!.keyRange,
      `The file has both "layer" and "layers"; the loader reads only "layers" and ignores this "layer". Fix: move this layer into the "layers" array.`,
    );
  if (m.layer && m.form !== 'both') checkType(report, m.layer, '');
  if (m.layersArray) {
    if (checkType(report, m.layersArray, '') && m.layersArray.value!.length === 0)
      report('manifest/empty-layers', m.layersArray.range, `"layers" is empty, so the file defines no layer. Fix: add the layer objects, or delete the file.`);
    const ffv = m.fileFormatVersion?.value;
    if (ffv !== undefined && compareVersions(parseVersion(ffv), parseVersion('1.0.1')) < 0)
      report(
        'manifest/field-requires-newer-version',
        m.layersArray.keyRange,
        `"layers" needs file_format_version 1.0.1 or later, but the file says ${ffv}; the loader warns and reads it anyway. Fix: set "file_format_version" to "1.0.1" or later.`,
      );
  }
  for (const layer of m.layers) lintLayer(report, layer, m, role, reading, out, libs);
}

function lintDriverManifest(report: Sink, parsed: ParsedManifest, m: DriverManifest, reading: LoaderReading, out: Diagnostic[], libs: Libraries) {
  lintFileFormatVersion(report, parsed, m.fileFormatVersion, KNOWN_DRIVER_FORMATS, 'driver', reading);
  if (!checkType(report, m.icd, '')) return;
  const icdStart = { start: m.icd.keyRange.start, end: m.icd.keyRange.end };
  if (!m.library_path)
    report(
      'driver/missing-library-path',
      icdStart,
      `"ICD" has no "library_path"; the loader skips this driver. Fix: add "library_path" with the driver's shared library, e.g. "libvulkan_vendor.so".`,
    );
  else if (checkType(report, m.library_path, ' in "ICD"')) lintLibrary(out, libs, m.library_path, { kind: 'driver', libraryArch: m.library_arch?.value });
  if (!m.api_version)
    report(
      'manifest/missing-field',
      icdStart,
      `"ICD" has no "api_version"; the loader skips this driver. Fix: add "api_version" with the Vulkan version the driver supports, e.g. "1.3.239".`,
    );
  else if (checkType(report, m.api_version, ' in "ICD"')) checkVersionString(report, m.api_version, 'the Vulkan API version');
  if (m.library_arch && checkType(report, m.library_arch, ' in "ICD"') && m.library_arch.value !== '32' && m.library_arch.value !== '64')
    report(
      'manifest/invalid-library-arch',
      m.library_arch.range,
      `"library_arch" is "${m.library_arch.value}"; the only valid values are "32" and "64". Fix: use "64" or "32", or remove the field.`,
    );
  // Loader 1.3.239 ignores a non-boolean is_portability_driver (reads it as false) and loads the driver.
  if (m.is_portability_driver) checkType(report, m.is_portability_driver, ' in "ICD"', DiagnosticSeverity.Warning);
  const ffv = m.fileFormatVersion?.value;
  if (ffv !== undefined && compareVersions(parseVersion(ffv), parseVersion('1.0.1')) < 0)
    for (const f of [m.library_arch, m.is_portability_driver])
      if (f)
        report(
          'manifest/field-requires-newer-version',
          f.keyRange,
          `"${f.key}" needs driver file_format_version 1.0.1, but the file says ${ffv}. Fix: set "file_format_version" to "1.0.1".`,
        );
}

/** Single-file rules: JSON syntax, versions, required fields, types, implicit/meta/override rules. */
export function lintManifest(parsed: ParsedManifest, options: LintOptions = {}): Diagnostic[] {
  const out: Diagnostic[] = [];
  const reading = loaderReading(options.loaderVersion);
  const report: Sink = (code, range, message, severity) => out.push(makeDiagnostic(code, range, message, severity));
  // An empty file (or only white space) is skipped by every loader, including those before 1.3.268 that
  // fail everything on invalid JSON (seen on builds of 1.3.250–1.3.267): not a syntax error to them.
  if (parsed.text.trim() === '') {
    report('manifest/invalid-json', parsed.wholeRange, 'The file is empty; every loader skips it. Fix: write the manifest JSON, or delete the file.');
    return out;
  }
  // Only the first syntax error: the rest are usually echoes of it (jsonc-parser recovers and goes on).
  for (const e of parsed.syntaxErrors.slice(0, 1))
    if (e.error === NESTING_TOO_DEEP)
      report(
        'manifest/invalid-json',
        e.range,
        `JSON nested deeper than ${JSON_NESTING_LIMIT} levels. Loaders 1.4.309 and later (cJSON's CJSON_NESTING_LIMIT) skip the file; Strata reads nothing more from it. Fix: no manifest needs more than a few levels; rewrite or delete the file.`,
      );
    else
      report(
        'manifest/invalid-json',
        e.range,
        `Invalid JSON (${e.error}). ${
          reading.invalidJsonSkipsFile
            ? `Loader ${reading.version} skips the file (loaders before 1.3.268 fail vkEnumerateInstance*Properties for every application with VK_ERROR_OUT_OF_HOST_MEMORY)`
            : `Loader ${reading.version} cannot read the file and then fails vkEnumerateInstance*Properties for every application (VK_ERROR_OUT_OF_HOST_MEMORY)`
        }. Fix: correct the JSON here (no comments, no trailing commas).`,
      );
  // The loader reads nothing from a file it cannot parse, so nothing else about it matters.
  if (parsed.syntaxErrors.length > 0) return out;
  if (!parsed.root) {
    return out;
  }
  if (parsed.root.kind !== 'object') {
    report(
      'manifest/wrong-type',
      parsed.root.range,
      `A manifest must be a JSON object, not ${jsonTypeName(parsed.root.kind)}. Fix: write { "file_format_version": …, "layer": { … } }.`,
    );
    return out;
  }
  lintDuplicateKeys(report, parsed.rootKeys, ' at the top level', true);
  const m = parsed.manifest;
  const role = options.role ?? 'unknown';
  if (!m) {
    const hint = parsed.rootKeys.find((k) => k.key === 'layer' || k.key === 'layers' || k.key === 'ICD');
    if (hint) {
      const p = parsed.root.properties.find((x) => x.key === hint.key)!;
      report(
        'manifest/wrong-type',
        p.value.range,
        `"${hint.key}" must be ${hint.key === 'layers' ? 'an array' : 'an object'}, not ${jsonTypeName(p.value.kind)}; the loader finds no ${hint.key === 'ICD' ? 'driver' : 'layer'} in this file. Fix: write it as ${hint.key === 'layers' ? '[ { … } ]' : '{ … }'}.`,
      );
    } else
      report(
        'manifest/not-a-manifest',
        firstLine(parsed),
        `This JSON has none of "layer", "layers" or "ICD", so it is neither a layer nor a driver manifest. Fix: put the layer under "layer" (or "layers"), or the driver under "ICD".`,
      );
    return out;
  }
  const libs: Libraries = options.libraries && options.path !== undefined ? { path: options.path, lookup: options.libraries, reported: new Set() } : null;
  if (m.kind === 'layer') lintLayerManifest(report, parsed, m, role, reading, out, libs);
  else lintDriverManifest(report, parsed, m, reading, out, libs);
  return out;
}
