import { diagnosticCodes } from '../../../shared/lint/diagnostic-codes';

/**
 * What a loader message is about, for the Diagnostics view's links: the Strata rule (a code of
 * docs/diagnostics.md) that describes the same problem, and the layer names it mentions. The
 * patterns are the loader's own format strings (loader/loader.c of 1.3.239, unchanged in wording up
 * to 1.4.359); a message that matches none has no rule, never a guessed one.
 */
export type RuleCode = keyof typeof diagnosticCodes;

const LOADER_RULES: readonly { pattern: RegExp; code: RuleCode }[] = [
  // verify_meta_layer_component_layers; loader_add_implicit_layer / meta-layer expansion
  { pattern: /can't find component layer|can not find all component layers/, code: 'layer/component-missing' },
  { pattern: /API version \d+\.\d+, component layer .* may have incompatibilities/, code: 'layer/component-api-version' },
  { pattern: /does not conform to naming standard/, code: 'layer/name-convention' },
  { pattern: /Device layers are deprecated/, code: 'layer/device-type' },
  { pattern: /Didn't find required layer child value disable_environment/, code: 'layer/implicit-without-disable-environment' },
  { pattern: /Layer missing both library_path and component_layers/, code: 'layer/missing-library-path' },
  { pattern: /component_layers, but also defining layer library path/, code: 'layer/meta-with-library-path' },
  { pattern: /contains app_keys, but any app_keys can only|contains a blacklist, but a blacklist can only/, code: 'layer/override-fields-on-non-override' },
  { pattern: /but using older JSON file version|tag not supported until file version/, code: 'manifest/field-requires-newer-version' },
  { pattern: /Didn't find required layer (?:value|object)/, code: 'manifest/missing-field' },
  { pattern: /has unknown layer manifest file version/, code: 'manifest/unsupported-file-format-version' },
  { pattern: /Failed to parse JSON file/, code: 'manifest/invalid-json' },
  { pattern: /Failed to open JSON file|Failed to read JSON file/, code: 'manifest/unreadable' },
];

/** The rule a loader message corresponds to, or null. */
export function ruleForMessage(message: string): RuleCode | null {
  return LOADER_RULES.find((r) => r.pattern.test(message))?.code ?? null;
}

/** A diagnostic's code is one of Strata's rules. */
export function isRuleCode(code: string): code is RuleCode {
  return Object.hasOwn(diagnosticCodes, code);
}

/** Where a rule is described, and the specification section it comes from (shared/lint/diagnostic-codes.ts). */
export function ruleReference(code: RuleCode): { doc: string; spec: string } {
  return { doc: `docs/diagnostics.md › ${code}`, spec: diagnosticCodes[code].spec };
}

const LAYER_NAME = /\bVK_LAYER_[A-Za-z0-9_]+/g;

/** Layer names the message mentions, in order, each once. */
export function layersIn(message: string): string[] {
  return [...new Set(message.match(LAYER_NAME) ?? [])];
}

/**
 * A message cut into text and the things to link (files and layer names), in order, so the view
 * renders each as a link in place. `files` are the paths filesIn found.
 */
export type MessagePart = { kind: 'text'; text: string } | { kind: 'file'; text: string } | { kind: 'layer'; text: string };

export function messageParts(message: string, files: readonly string[]): MessagePart[] {
  const marks: { at: number; end: number; kind: 'file' | 'layer' }[] = [];
  for (const f of files) {
    let from = 0;
    for (let at = message.indexOf(f, from); at >= 0; at = message.indexOf(f, from)) {
      marks.push({ at, end: at + f.length, kind: 'file' });
      from = at + f.length;
    }
  }
  for (const m of message.matchAll(LAYER_NAME)) marks.push({ at: m.index, end: m.index + m[0].length, kind: 'layer' });
  marks.sort((a, b) => a.at - b.at || b.end - a.end);
  const out: MessagePart[] = [];
  let pos = 0;
  for (const m of marks) {
    if (m.at < pos) continue; // inside a file path already linked (a layer name in a file name)
    if (m.at > pos) out.push({ kind: 'text', text: message.slice(pos, m.at) });
    out.push({ kind: m.kind, text: message.slice(m.at, m.end) });
    pos = m.end;
  }
  if (pos < message.length) out.push({ kind: 'text', text: message.slice(pos) });
  return out;
}
