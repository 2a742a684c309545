import type { Diagnostic } from 'vscode-languageserver-types';
import { DiagnosticSeverity } from '../lint/diagnostic-severity';
import { MANIFEST_KINDS, type ManifestKind } from '../loader/search-paths';
import type { DiscoveredManifest, LayerSummary, ManifestInventory } from './manifest-inventory-schema';
import { parseManifest } from '../manifest/manifest-parser';
import type { LayerReadings } from '../loader/layer-readings';
import type { LayerEntry } from '../manifest/manifest-model';
import { lintManifest, type ManifestRole } from '../lint/manifest-lint';
import type { LibraryLookup } from '../lint/library-lint';
import { lintManifestSet, type LayerInSet, type ManifestInSet } from '../lint/manifest-set-lint';
import { diagnosticCodes } from '../lint/diagnostic-codes';
import { strataDiagnostic } from '../lint/strata-diagnostic';
import { READ_LIMITS } from '../files/read-limits';

/**
 * Discovery's answer (manifest-inventory-schema.ts): every manifest file the loader would read, in
 * its order, parsed and linted. Pure: main/discovery reads the files; this turns them into what the
 * UI and CLI show.
 */
export type * from './manifest-inventory-schema';

/** What the scanner (main/discovery/manifest-scanner.ts) hands over for each file. */
export interface ScannedManifest {
  /** As the loader spells it: `<folder>/<name>` (a folder given as "d/" gives "d//a.json"). */
  path: string;
  kind: ManifestKind;
  /** The search location's origin (`XDG_DATA_DIRS[1]`, `VK_LAYER_PATH[0]`, …). */
  origin: string;
  /** The search location it came from. */
  location: string;
  /** 0-based position in the loader's list of manifests of this kind. */
  order: number;
  /** Its place inside its folder comes from readdir (filesystem order), not from the search order. */
  readdirOrder: boolean;
  /** The file's text; null when it could not be read (see `problem`). */
  text: string | null;
  problem: 'missing' | 'dangling-symlink' | 'symlink-loop' | 'not-a-file' | 'not-regular' | 'too-large' | 'unreadable' | null;
  /** The same file (by real path) was listed earlier at this `order`: the loader reads it twice. */
  duplicateOf: number | null;
}

const ROLE: Record<ManifestKind, ManifestRole> = { implicit_layer: 'implicit-layer', explicit_layer: 'explicit-layer', driver: 'driver' };

/*
 * An inventory is kept whole until it is answered, and every object in it is copied by each
 * young-generation collection it lives through (issue #19: ~30 objects a manifest, the collector's
 * work was a fifth of `strata layer list --json` on 10,000 manifests). So a summary's empty lists are
 * one shared frozen array (nothing changes an answer; `[]` in JSON all the same), and the short
 * values most manifests repeat ("GLOBAL", "1.3.239": each a copy of its slice of the text) are kept
 * once per inventory.
 */
const NONE = Object.freeze([]) as unknown as string[];
/** The most distinct short values an inventory keeps once each; past it, values are kept as they are. */
const POOL_LIMIT = 4096;

class ValuePool {
  private readonly kept = new Map<string, string>();
  get(value: string | undefined): string | null {
    if (value === undefined) return null;
    const known = this.kept.get(value);
    if (known !== undefined) return known;
    if (this.kept.size < POOL_LIMIT) this.kept.set(value, value);
    return value;
  }
}

const str = (f: { value?: string | undefined } | undefined) => f?.value ?? null;
const items = (f: { value?: { value: string | undefined }[] | undefined } | undefined) =>
  f?.value?.length ? f.value.flatMap((i) => (i.value === undefined ? [] : [i.value])) : NONE;
const entries = (f: { value?: { key: string }[] | undefined } | undefined) => (f?.value?.length ? f.value.map((e) => e.key) : NONE);

function summarizeLayer(l: LayerEntry, pool: ValuePool): LayerSummary {
  return {
    name: str(l.name),
    type: pool.get(l.type?.value),
    meta: l.component_layers !== undefined,
    apiVersion: pool.get(l.api_version?.value),
    implementationVersion: pool.get(l.implementation_version?.value),
    description: str(l.description),
    libraryPath: str(l.library_path),
    componentLayers: items(l.component_layers),
    disableEnvironment: entries(l.disable_environment),
    enableEnvironment: entries(l.enable_environment),
  };
}

/**
 * The values the set rules read, copied out of the parse: 10,000 layers' fields (each with its key's
 * and value's ranges and its JSON node) outlived the rest of their trees until the set was linted,
 * and every young-generation collection meanwhile copied them (issue #19: layer list on 10,000 manifests).
 */
function layerInSet({ name, api_version, component_layers, app_keys }: LayerEntry): LayerInSet {
  return {
    name: name && { value: name.value, range: name.range },
    api_version: api_version && { value: api_version.value },
    component_layers: component_layers && { value: component_layers.value?.map((c) => ({ value: c.value, range: c.range })) },
    app_keys: app_keys && { value: app_keys.value },
  };
}

function fileDiagnostic(code: 'manifest/unreadable' | 'manifest/read-twice', message: string): Diagnostic {
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return strataDiagnostic(diagnosticCodes, code, range, message);
}

const PROBLEM_TEXT: Record<NonNullable<ScannedManifest['problem']>, string> = {
  missing: 'is named on the search path but does not exist',
  'dangling-symlink': 'is a symbolic link to a file that does not exist',
  'symlink-loop': 'is a symbolic link that leads back to itself (a loop)',
  'not-a-file': 'ends in .json but is not a file (a folder?)',
  // The loader's fopen() of a FIFO waits for a writer (every application would hang in vkCreateInstance); Strata never opens one blocking.
  'not-regular': 'is a device, FIFO or socket, not a regular file, so Strata does not read it (on a FIFO the loader would wait for a writer)',
  'too-large': `is over ${READ_LIMITS.manifest} bytes, the most Strata reads of a manifest: the loader still reads it, so its layers are missing from what Strata shows`,
  unreadable: 'cannot be read (permissions?)',
};

/**
 * Parses and lints every file; rules over the whole set (duplicate names, meta-layer components) see
 * the layers in the loader's order, implicit before explicit, as the loader builds its lists.
 */
/**
 * `loaderVersion`: the loader whose verdicts the lint gives (manifest-lint.ts); unknown: the rules' default.
 * `libraries`: how to look at each "library_path" (main/discovery/library-check.ts); none: not checked.
 * `readings`: where to hand each layer manifest's parse for the chain model (layer-readings.ts); none:
 * nobody in this process will ask (the CLI's one-shot commands, which would only pay for them).
 */
export function buildInventory(
  locations: ManifestInventory['locations'],
  scanned: Record<ManifestKind, ScannedManifest[]>,
  loaderVersion: string | null = null,
  libraries: LibraryLookup | null = null,
  readings: LayerReadings | null = null,
): ManifestInventory {
  const steps = inventorySteps(locations, scanned, loaderVersion, libraries, readings);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * buildInventory one manifest at a time: it yields after each file and returns the inventory, so
 * that a server can answer its other requests between files (main/discovery/discovery-service.ts:
 * parsing, linting and checking the libraries of 1,000 manifests held `strata serve`'s page scripts
 * back for as long, issue #19).
 */
export function* inventorySteps(
  locations: ManifestInventory['locations'],
  scanned: Record<ManifestKind, ScannedManifest[]>,
  loaderVersion: string | null = null,
  libraries: LibraryLookup | null = null,
  readings: LayerReadings | null = null,
): Generator<void, ManifestInventory> {
  // For the set rules, only each layer's name, API version and components are kept: the rest of
  // each parsed tree dies young, which halves the garbage collector's work on 10,000 files.
  const forSet = new Map<ScannedManifest, ManifestInSet['parsed']>();
  const pool = new ValuePool();
  const manifests = {} as ManifestInventory['manifests'];
  for (const kind of MANIFEST_KINDS) {
    const found: DiscoveredManifest[] = (manifests[kind] = []);
    for (const file of scanned[kind]) {
      const diagnostics: Diagnostic[] = [];
      let layers: LayerSummary[] = [];
      let driver: DiscoveredManifest['driver'] = null;
      let fileFormatVersion: string | null = null;
      if (file.problem || file.text === null) {
        diagnostics.push(
          fileDiagnostic(
            'manifest/unreadable',
            `${file.path} ${PROBLEM_TEXT[file.problem ?? 'unreadable']}${file.problem === 'not-regular' || file.problem === 'too-large' ? '' : '; the loader skips it'}. Fix: remove it or point it at a real manifest.`,
          ),
        );
      } else {
        const parsed = parseManifest(file.text);
        // The chain model reads this parse too: one parse per manifest text.
        if (readings && kind !== 'driver') readings.remember(parsed, kind === 'implicit_layer');
        diagnostics.push(...lintManifest(parsed, { role: ROLE[kind], loaderVersion, path: file.path, libraries }));
        const m = parsed.manifest;
        forSet.set(file, { manifest: m?.kind === 'layer' ? { kind: 'layer', layers: m.layers.map(layerInSet) } : m });
        fileFormatVersion = pool.get(m?.fileFormatVersion?.value);
        if (m?.kind === 'layer') layers = m.layers.filter((l) => l.isObject).map((l) => summarizeLayer(l, pool));
        if (m?.kind === 'driver')
          driver = {
            libraryPath: str(m.library_path),
            apiVersion: str(m.api_version),
            libraryArch: str(m.library_arch),
            isPortabilityDriver: m.is_portability_driver?.value === true,
          };
      }
      if (file.duplicateOf !== null) {
        diagnostics.push(
          fileDiagnostic(
            'manifest/read-twice',
            `The loader reaches this file twice (also as manifest #${file.duplicateOf + 1} of this kind) and reads it both times. Fix: remove the repeated search path or link.`,
          ),
        );
      }
      // In the contract's key order (DiscoveredManifestSchema): the CLI prints the entry as made (main/router/router.ts AnswerMode).
      const { path, origin, location, order, readdirOrder, problem, duplicateOf, text } = file;
      found.push({ path, kind, origin, location, order, readdirOrder, problem, duplicateOf, text, fileFormatVersion, layers, driver, diagnostics });
      yield;
    }
  }
  const layerFiles = [...scanned.implicit_layer, ...scanned.explicit_layer].filter((f) => forSet.has(f) && f.duplicateOf === null);
  const byPath = new Map([...manifests.implicit_layer, ...manifests.explicit_layer].map((m) => [m.path, m]));
  for (const { uri, diagnostic } of lintManifestSet(layerFiles.map((f) => ({ uri: f.path, parsed: forSet.get(f)! })))) {
    byPath.get(uri)?.diagnostics.push(diagnostic);
  }
  return { locations, manifests };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === DiagnosticSeverity.Error);
}
