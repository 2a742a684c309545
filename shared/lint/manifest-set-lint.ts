import type { Diagnostic, Range } from 'vscode-languageserver-types';
import type { ParsedManifest } from '../manifest/manifest-model';
import { compareVersions, parseVersion } from '../manifest/manifest-parser';
import { diagnosticCodes, type DiagnosticCode } from './diagnostic-codes';
import { strataDiagnostic } from './strata-diagnostic';
import { OVERRIDE_LAYER_NAME } from '../override/override-names';

/** A value the set rules read, and where it is (for a diagnostic). */
interface ValueAt<T> {
  value?: T | undefined;
  range: Range;
}

/**
 * What the set rules read of a layer: a ParsedManifest's LayerEntry will do, or just these values
 * (its name, API version, components and how many app_keys) and the ranges of the name and components.
 */
export interface LayerInSet {
  name?: ValueAt<string> | undefined;
  api_version?: { value?: string | undefined } | undefined;
  component_layers?: { value?: readonly ValueAt<string>[] | undefined } | undefined;
  app_keys?: { value?: readonly unknown[] | undefined } | undefined;
}

/**
 * Override layers scoped by app_keys are not shadowed by name: the loader keeps every one and then
 * chooses per executable (loader 1.3.239 remove_all_non_valid_override_layers: the first whose
 * app_keys name the executable wins, the global one is the default). Two of them are a valid setup
 * (Strata's per-application profiles write exactly that); only two global ones are a duplicate.
 */
const scopedOverride = (l: LayerInSet) => (l.app_keys?.value?.length ?? 0) > 0;

/**
 * One file of a set, in the loader's search order (earlier wins for duplicate names). A whole
 * ParsedManifest fits; a caller holding thousands of files may keep only each layer's LayerInSet
 * values, and let the rest of each tree go (shared/discovery/manifest-inventory.ts does).
 */
export interface ManifestInSet {
  uri: string;
  parsed: {
    manifest?: { kind: 'layer'; layers: readonly LayerInSet[] } | { kind: Exclude<NonNullable<ParsedManifest['manifest']>['kind'], 'layer'> } | undefined;
  };
}

export interface SetDiagnostic {
  uri: string;
  diagnostic: Diagnostic;
}

const diag = (code: DiagnosticCode, range: Range, message: string): Diagnostic => strataDiagnostic(diagnosticCodes, code, range, message);

interface NamedLayer {
  uri: string;
  layer: LayerInSet;
  name: string;
}

/**
 * Rules that need the whole set of layer manifests: duplicate names (the first found wins), meta-layer
 * components that are missing, component cycles, and components with an older API version than the
 * meta-layer (LLP_LAYER_7, LLP_LAYER_8).
 */
export function lintManifestSet(files: readonly ManifestInSet[]): SetDiagnostic[] {
  const out: SetDiagnostic[] = [];
  const byName = new Map<string, NamedLayer>();
  for (const f of files) {
    if (f.parsed.manifest?.kind !== 'layer') continue;
    for (const layer of f.parsed.manifest.layers) {
      const name = layer.name?.value;
      if (!name || !layer.name) continue;
      const earlier = byName.get(name);
      if (earlier && name === OVERRIDE_LAYER_NAME && (scopedOverride(layer) || scopedOverride(earlier.layer))) {
        // Keep the global one (no app_keys) as the one the component rules read.
        if (scopedOverride(earlier.layer) && !scopedOverride(layer)) byName.set(name, { uri: f.uri, layer, name });
        continue;
      }
      if (earlier) {
        out.push({
          uri: f.uri,
          diagnostic: diag(
            'layer/duplicate-name',
            layer.name.range,
            `Layer ${name} is also defined in ${earlier.uri}, which the loader finds first; this one is shadowed. Fix: remove one of the two manifests, or rename one layer.`,
          ),
        });
        continue;
      }
      byName.set(name, { uri: f.uri, layer, name });
    }
  }

  for (const { uri, layer, name } of byName.values()) {
    const comps = layer.component_layers?.value;
    if (!comps) continue;
    const metaApi = layer.api_version?.value !== undefined ? parseVersion(layer.api_version.value) : undefined;
    for (const c of comps) {
      if (c.value === undefined) continue;
      const target = byName.get(c.value);
      if (!target) {
        out.push({
          uri,
          diagnostic: diag(
            'layer/component-missing',
            c.range,
            `Component layer ${c.value} of meta-layer ${name} is not found; the loader removes the meta-layer (Policy LLP_LAYER_7). Fix: install ${c.value}, or remove it from "component_layers".`,
          ),
        });
        continue;
      }
      const api = target.layer.api_version?.value;
      if (metaApi && api !== undefined) {
        const v = parseVersion(api);
        // major.minor only: the patch is not compared (plain literals, not spreads: docs/architecture.md, "Object shapes on Node 20").
        if (compareVersions({ major: v.major, minor: v.minor, patch: 0 }, { major: metaApi.major, minor: metaApi.minor, patch: 0 }) < 0)
          out.push({
            uri,
            diagnostic: diag(
              'layer/component-api-version',
              c.range,
              `Component layer ${c.value} reports API ${api}, older than meta-layer ${name}'s ${layer.api_version!.value} (major.minor); the meta-layer is not used (Policy LLP_LAYER_8). Fix: lower the meta-layer's "api_version" or update the component.`,
            ),
          });
      }
    }
  }

  // Cycles: depth-first over component edges; report each cycle once, at the edge that closes it.
  const state = new Map<string, 'active' | 'done'>();
  const visit = (n: NamedLayer, path: string[]) => {
    state.set(n.name, 'active');
    for (const c of n.layer.component_layers?.value ?? []) {
      if (c.value === undefined) continue;
      const t = byName.get(c.value);
      if (!t) continue;
      const s = state.get(t.name);
      if (s === 'active') {
        const cycle = [...path.slice(path.indexOf(t.name)), n.name, t.name];
        const uniq = cycle.filter((x, i) => cycle.indexOf(x) === i || i === cycle.length - 1);
        out.push({
          uri: n.uri,
          diagnostic: diag(
            'layer/component-cycle',
            c.range,
            `Meta-layers form a cycle: ${uniq.join(' → ')}; the loader cannot build such a chain. Fix: remove ${t.name} from ${n.name}'s "component_layers".`,
          ),
        });
      } else if (s === undefined) visit(t, [...path, n.name]);
    }
    state.set(n.name, 'done');
  };
  for (const n of byName.values()) if (state.get(n.name) === undefined) visit(n, []);
  return out;
}
