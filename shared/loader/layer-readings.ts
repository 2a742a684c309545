import { parseManifest } from '../manifest/manifest-parser';
import type { LayerEntry, ParsedManifest } from '../manifest/manifest-model';
import { asciiLower } from './layer-filters';
import { OVERRIDE_LAYER_NAME } from '../override/override-names';

/**
 * The loader's reading of a layer manifest's text (loader_read_layer_json): the layers it keeps and
 * those it drops, and why. A reading does not depend on where the file is, so one reading serves
 * every path, discovery and every chain computation holding the same text: a process parses each
 * distinct manifest text once (issue #14 point 5). Discovery, which parses each file for lint,
 * hands its parse over (`remember`); the chain model (chain-layers.ts) asks `of`.
 */

/** A layer's or application's API version as the loader compares them: major and minor. */
export type Api = { major: number; minor: number };

/** One layer as its manifest declares it, wherever the manifest is: read once per text, then shared and never changed. */
export interface LayerReadingEntry {
  name: string;
  /** For the case-insensitive layer filters. */
  lower: string;
  implicit: boolean;
  libraryPath: string | null;
  api: Api;
  apiText: string;
  meta: boolean;
  components: string[];
  enableEnv: { name: string; value: string } | null;
  disableEnv: string | null;
  blacklist: string[];
  appKeys: string[];
  overridePaths: string[];
}

export interface LayerReading {
  layers: LayerReadingEntry[];
  /** The layers the loader drops, with why (as the end of "the loader skips this layer: …"). */
  rejected: { name: string; why: string }[];
}

export function apiOf(text: string | undefined): Api {
  // Loader 1.3.239 reads "M.m.p" with strtol on each part; a missing part is 0.
  const [major = 0, minor = 0] = (text ?? '').split('.').map((p) => Number.parseInt(p, 10) || 0);
  return { major, minor };
}

const str = (f: { value?: string | undefined } | undefined) => f?.value;
const items = (f: { value?: { value: string | undefined }[] | undefined } | undefined) =>
  (f?.value ?? []).flatMap((i) => (i.value === undefined ? [] : [i.value]));

function firstEntry(f: LayerEntry['enable_environment']): { name: string; value: string } | null {
  const e = f?.value?.[0];
  return e ? { name: e.key, value: e.value.value ?? '' } : null;
}

const EMPTY: LayerReading = Object.freeze({ layers: [], rejected: [] }) as LayerReading;

/** The reading of one parsed manifest, as an implicit or an explicit layer manifest (a subset of loader_read_layer_json's checks). */
export function readingOf(parsed: ParsedManifest, implicit: boolean): LayerReading {
  const m = parsed.manifest;
  if (m?.kind !== 'layer') return EMPTY;
  const out: LayerReading = { layers: [], rejected: [] };
  for (const l of m.layers) {
    if (!l.isObject) continue;
    const name = str(l.name);
    if (name === undefined) continue;
    const reject = (why: string) => out.rejected.push({ name, why });
    const type = str(l.type);
    if (type !== 'GLOBAL' && type !== 'INSTANCE') {
      reject(`type ${JSON.stringify(type ?? null)} is not GLOBAL or INSTANCE`);
      continue;
    }
    if (str(l.api_version) === undefined || str(l.implementation_version) === undefined || str(l.description) === undefined) {
      reject('a required field (api_version, implementation_version, description) is missing');
      continue;
    }
    const meta = l.component_layers !== undefined;
    if (meta && l.library_path !== undefined) {
      reject('it has both library_path and component_layers');
      continue;
    }
    if (!meta && str(l.library_path) === undefined) {
      reject('it has no library_path');
      continue;
    }
    const disable = firstEntry(l.disable_environment);
    if (implicit && !disable) {
      reject('an implicit layer must have a disable_environment (LLP_LAYER_9)');
      continue;
    }
    const enable = firstEntry(l.enable_environment);
    const isOverride = name === OVERRIDE_LAYER_NAME;
    out.layers.push({
      name,
      lower: asciiLower(name),
      implicit,
      libraryPath: str(l.library_path) ?? null,
      api: apiOf(str(l.api_version)),
      apiText: str(l.api_version)!,
      meta,
      components: items(l.component_layers),
      enableEnv: implicit && enable ? enable : null,
      disableEnv: implicit && disable ? disable.name : null,
      // Loader 1.3.239 reads blacklisted_layers and app_keys only from the override layer (it warns and ignores them elsewhere).
      blacklist: isOverride ? items(l.blacklisted_layers) : [],
      appKeys: isOverride ? items(l.app_keys) : [],
      overridePaths: items(l.override_paths),
    });
  }
  return out;
}

/** How much manifest text the readings may hold: past it, the oldest go (a hostile tree of huge manifests stays bounded). */
const TEXT_BUDGET = 32 << 20;

/**
 * Readings by text, oldest first. The text is the key, not a path: two paths with the same text
 * read the same, and a file whose text changed is a new key (the old one ages out).
 */
export class LayerReadings {
  private readonly byText = new Map<string, { implicit?: LayerReading; explicit?: LayerReading }>();
  private textLength = 0;
  /** How many texts were parsed here (not handed over by `remember`): what tests and the bench count. */
  parses = 0;

  constructor(private readonly budget = TEXT_BUDGET) {}

  /** The reading of `text`; parsed only if no reading of this text is held. */
  of(text: string, implicit: boolean): LayerReading {
    const held = this.byText.get(text);
    const hit = implicit ? held?.implicit : held?.explicit;
    if (hit) return hit;
    this.parses++;
    // A reading holds values, never a place in the file: parsed without positions.
    return this.remember(parseManifest(text, { positions: false }), implicit);
  }

  /** Hold the reading of a parse made elsewhere (discovery parses each file for lint), and return it. */
  remember(parsed: ParsedManifest, implicit: boolean): LayerReading {
    const text = parsed.text;
    let held = this.byText.get(text);
    const kept = implicit ? held?.implicit : held?.explicit;
    if (kept) return kept;
    if (!held) {
      this.byText.set(text, (held = {}));
      this.textLength += text.length;
      this.trim();
    }
    const reading = readingOf(parsed, implicit);
    if (implicit) held.implicit = reading;
    else held.explicit = reading;
    return reading;
  }

  private trim(): void {
    for (const text of this.byText.keys()) {
      if (this.textLength <= this.budget || this.byText.size <= 1) return;
      this.byText.delete(text);
      this.textLength -= text.length;
    }
  }
}

/** The process's readings: discovery remembers what it parsed, the chain model reads. */
export const layerReadings = new LayerReadings();
