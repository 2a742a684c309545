import type { Range } from 'vscode-languageserver-types';
import type { JsonKind, LocatedJson, JsonSyntaxError } from './located-json';

/**
 * One field of a manifest: where its key and value are, and its value when the JSON type is the one
 * the format expects (`value` is undefined when the type is wrong; `node` still holds what is there).
 */
export interface Field<T> {
  key: string;
  keyRange: Range;
  /** The value token's range (for strings, including the quotes). */
  range: Range;
  node: LocatedJson;
  expected: JsonKind;
  value: T | undefined;
}

/** A `"KEY": "value"` entry of an object of strings (functions, enable_environment, …). */
export interface StringEntry {
  key: string;
  keyRange: Range;
  value: Field<string>;
}

/** An element of an array of strings (component_layers, app_keys, entrypoints, …). */
export interface StringItem {
  range: Range;
  node: LocatedJson;
  value: string | undefined;
}

export interface ExtensionEntry {
  range: Range;
  name?: Field<string>;
  spec_version?: Field<string>;
  entrypoints?: Field<StringItem[]>;
}

/** One layer of a layer manifest (LoaderLayerInterface, "Layer Manifest File Format"). */
export interface LayerEntry {
  /** The layer object's range, or the non-object value's where `layers[i]` is not an object. */
  range: Range;
  /** Position in "layers"; undefined for the single "layer" form. */
  index: number | undefined;
  isObject: boolean;
  name?: Field<string>;
  type?: Field<string>;
  library_path?: Field<string>;
  library_arch?: Field<string>;
  api_version?: Field<string>;
  implementation_version?: Field<string>;
  description?: Field<string>;
  functions?: Field<StringEntry[]>;
  instance_extensions?: Field<ExtensionEntry[]>;
  device_extensions?: Field<ExtensionEntry[]>;
  enable_environment?: Field<StringEntry[]>;
  disable_environment?: Field<StringEntry[]>;
  component_layers?: Field<StringItem[]>;
  override_paths?: Field<StringItem[]>;
  blacklisted_layers?: Field<StringItem[]>;
  app_keys?: Field<StringItem[]>;
  pre_instance_functions?: Field<StringEntry[]>;
  /** Kept raw, with ranges, for the settings editor. */
  settings?: Field<LocatedJson>;
  /** Every key in the order written, duplicates included. */
  keys: { key: string; keyRange: Range }[];
}

export interface LayerManifest {
  kind: 'layer';
  fileFormatVersion?: Field<string>;
  /** Which of "layer" / "layers" the file uses; the loader reads "layers" when both are there. */
  form: 'layer' | 'layers' | 'both';
  layer?: Field<LocatedJson>;
  layersArray?: Field<LocatedJson[]>;
  layers: LayerEntry[];
}

/** An ICD (driver) manifest: `{ "file_format_version", "ICD": { library_path, api_version, … } }`. */
export interface DriverManifest {
  kind: 'driver';
  fileFormatVersion?: Field<string>;
  icd: Field<LocatedJson>;
  library_path?: Field<string>;
  api_version?: Field<string>;
  library_arch?: Field<string>;
  is_portability_driver?: Field<boolean>;
}

export type Manifest = LayerManifest | DriverManifest;

export interface ParsedManifest {
  text: string;
  /** undefined for an empty file or one whose JSON has no value at all. */
  root: LocatedJson | undefined;
  syntaxErrors: JsonSyntaxError[];
  /** undefined when the root is not an object or has none of "layer", "layers", "ICD". */
  manifest: Manifest | undefined;
  /** The range of the whole text, for diagnostics about the file as a whole. */
  wholeRange: Range;
  /** Every top-level key in order, duplicates included. */
  rootKeys: { key: string; keyRange: Range }[];
}

/** A parsed "M.m.p" version: the loader's own reading (missing parts 0, strtol on each part). */
export interface VersionTriple {
  major: number;
  minor: number;
  patch: number;
  /** True only for the exact "M.m.p" form the spec asks for. */
  wellFormed: boolean;
}
