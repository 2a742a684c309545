// The renderer's first script as a classic script (issue #19: first render), a Vite plugin for
// vite.config.ts.
//
// Why: Chromium keeps a compiled copy (V8's code cache) of a script the page loads again, and reads it
// instead of compiling the script when a page loads it from then on (from the third load of the same
// cached file). Debian's Chromium 156 does that for a classic script, but for a module script it writes
// the cache and never reads it (`v8.produceModuleCache` on the second load; every later load a streamed
// compile, no `consumedCacheSize`; a classic script of the same size: `notStreamedReason: script has
// code-cache available`). The renderer's first view is one ~0.6 MB module (vite.config.ts), so every
// page compiled it again, and every function its first render ran. As a classic script, a page from
// the third on takes that work from the cache: first render 0.93 of the module's, paired (20 pages each).
//
// What it does, after Rolldown has written the chunks:
// - The entry chunk becomes `assets/first-view-HASH.js`, a classic script: its code in a strict-mode
//   function, `import.meta.url` read from the script's own address (`document.currentScript.src`: the
//   same folder, so its dynamic imports of the panels resolve as before), and its `export { … }` list
//   registered on `globalThis` under FIRST_VIEW_KEY instead.
// - The entry's file keeps its name and becomes a module that re-exports that registration: the panels'
//   chunks import what they share with the first view from it, as before, and get the same objects.
//   An ES module's imports are live, a copy is not: the build fails if the entry ever assigns an exported
//   binding again after its declaration (eslint-scope reads the chunk's scopes).
// - index.html loads the classic script with `defer`: it runs once the page is parsed, in document order,
//   as the module script did.
// Anything else a module may hold (an import, another export form, top-level await, another use of
// `import.meta`) fails the build: such a chunk cannot be made a classic script this way.
import { createHash } from 'node:crypto';
import { parseSync, Visitor, type Plugin } from 'vite';
import { analyze } from 'eslint-scope';

/** Where the classic script registers what the panels' chunks import from it. */
export const FIRST_VIEW_KEY = 'strata.first-view';

/** Same length as `import.meta.url` / `import.meta.resolve`, so every column of the source map still holds. */
const META_URL = '$strataMetaUrl_';
const META_RESOLVE = '$strataMetaResolve_';

/** An export list's name: an identifier, or a string (`export { a as "b-c" }`). */
function nameOf(n: { type: 'Identifier'; name: string } | { type: 'Literal'; value: string }): string {
  return n.type === 'Identifier' ? n.name : n.value;
}

function fail(what: string): Error {
  return new Error(`classic first view: ${what}`);
}

/**
 * The classic script for an entry chunk's `code` (an ES module as Rolldown writes it), and the names it
 * exports as `[exported, local]` pairs. Throws when `code` holds what a classic script cannot.
 */
export function toClassicScript(code: string): { script: string; exports: [exported: string, local: string][] } {
  const parsed = parseSync('entry.js', code, { sourceType: 'module', range: true });
  const error = parsed.errors[0];
  if (error) throw fail(`the entry chunk does not parse: ${error.message}`);
  const { program } = parsed;
  let list: { start: number; end: number; names: [string, string][] } | null = null;
  for (const node of program.body) {
    if (node.type === 'ImportDeclaration' || node.type === 'ExportAllDeclaration' || node.type === 'ExportDefaultDeclaration')
      throw fail(`the entry chunk has an ${node.type}; only one \`export { … }\` list can be carried over`);
    if (node.type !== 'ExportNamedDeclaration') continue;
    if (node.declaration || node.source || list) throw fail('the entry chunk has an export other than one `export { … }` list');
    list = {
      start: node.start,
      end: node.end,
      names: node.specifiers.map((s) => [nameOf(s.exported), nameOf(s.local)]),
    };
  }
  if (!list) throw fail('the entry chunk exports nothing: the panels import what they share from it');

  // A copy of a binding is what the panels get: it must never change after its declaration. (oxc's
  // tree is ESTree with `range`, which eslint-scope reads; its types are oxc's own.)
  const moduleScope = analyze(program as unknown as Parameters<typeof analyze>[0], { ecmaVersion: 2022, sourceType: 'module', fallback: 'iteration' })
    .globalScope?.childScopes[0];
  for (const [exported, local] of list.names) {
    const variable = moduleScope?.set.get(local);
    if (!variable) throw fail(`exported binding ${local} (as ${exported}) is not declared at the top of the entry chunk`);
    if (variable.references.some((r) => r.isWrite() && !r.init))
      throw fail(`exported binding ${local} (as ${exported}) is assigned after its declaration; a panel would read a stale copy`);
  }

  const edits: { start: number; end: number; text: string }[] = [];
  let metaUses = 0;
  new Visitor({
    MetaProperty() {
      metaUses++;
    },
    MemberExpression(node) {
      if (node.object.type !== 'MetaProperty' || node.computed || node.property.type !== 'Identifier') return;
      const name = node.property.name;
      if (name === 'url') edits.push({ start: node.start, end: node.end, text: META_URL });
      else if (name === 'resolve') edits.push({ start: node.start, end: node.end, text: META_RESOLVE });
    },
  }).visit(program);
  if (metaUses !== edits.length) throw fail('the entry chunk uses import.meta for something other than .url and .resolve');
  for (const e of edits) if (e.end - e.start !== e.text.length) throw fail('internal: a replacement would move the source map');
  const registration = `globalThis[Symbol.for(${JSON.stringify(FIRST_VIEW_KEY)})]=Object.freeze({${list.names
    .map(([exported, local]) => `${JSON.stringify(exported)}:${local}`)
    .join(',')}});`;
  edits.push({ start: list.start, end: list.end, text: registration });
  edits.sort((a, b) => a.start - b.start);

  let body = '';
  let at = 0;
  for (const e of edits) {
    body += code.slice(at, e.start) + e.text;
    at = e.end;
  }
  body += code.slice(at);
  // On a line of its own, so every line of the chunk moves down by one and nothing else (the map's
  // `mappings` gains one empty line: classicSourceMap).
  const script = `(()=>{"use strict";const ${META_URL}=document.currentScript.src,${META_RESOLVE}=void 0;\n${body}\n})();\n`;
  // No module syntax is left (as a script), and no top-level await became a call or an identifier (as a
  // module, where `await` outside an async function does not parse).
  for (const sourceType of ['script', 'module'] as const) {
    const wrong = parseSync('first-view.js', script, { sourceType }).errors[0];
    if (wrong) throw fail(`the result does not parse as a ${sourceType} (a top-level await?): ${wrong.message}`);
  }
  return { script, exports: list.names };
}

/**
 * The module that takes the entry chunk's place: what the classic script registered, under the names
 * the entry exported.
 */
export function shimModule(exports: readonly (readonly [exported: string, local: string])[]): string {
  const key = JSON.stringify(FIRST_VIEW_KEY);
  const reads = exports.map(([exported], i) => `v${i}=s[${JSON.stringify(exported)}]`).join(',');
  const names = exports.map(([exported], i) => `v${i} as ${JSON.stringify(exported)}`).join(',');
  return (
    `const s=globalThis[Symbol.for(${key})];\n` +
    `if(!s)throw new Error("Strata: the first view's script has not run (index.html loads it before any panel)");\n` +
    `const ${reads};\nexport{${names}};\n`
  );
}

/** A source map of the entry chunk, made to fit its classic script (one line more at the top), for `file`. */
function classicSourceMap(map: { mappings: string }, file: string) {
  return { ...map, file, mappings: `;${map.mappings}` };
}

/** The Vite plugin (build only): see the top of this file. */
export function classicFirstView(): Plugin {
  return {
    name: 'strata:classic-first-view',
    apply: 'build',
    // After every other plugin's: Vite writes the panels' preload lists (`__vite__mapDeps`) into the
    // entry chunk in its own generateBundle, and only then is the chunk's code final.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const entries = Object.values(bundle).filter((o) => o.type === 'chunk' && o.isEntry);
        const entry = entries[0];
        if (entries.length !== 1 || entry?.type !== 'chunk') throw fail(`expected one entry chunk, found ${entries.length}`);
        const html = bundle['index.html'];
        if (!html || html.type !== 'asset') throw fail('index.html is not in the bundle');
        const { script, exports } = toClassicScript(entry.code.replace(/\n\/\/# sourceMappingURL=[^\n]*\s*$/, '\n'));
        const hash = createHash('sha256').update(script).digest('base64url').slice(0, 8);
        const fileName = `assets/first-view-${hash}.js`;
        const base = fileName.slice('assets/'.length);
        const withMap = entry.map ? `${script}//# sourceMappingURL=${base}.map\n` : script;
        this.emitFile({ type: 'asset', fileName, source: withMap });
        if (entry.map) this.emitFile({ type: 'asset', fileName: `${fileName}.map`, source: JSON.stringify(classicSourceMap(entry.map, base)) });
        entry.code = shimModule(exports);
        // The entry's map describes the classic script now (written above), not the module in its place.
        entry.map = null;
        delete bundle[`${entry.fileName}.map`];
        const from = `<script type="module" crossorigin src="./${entry.fileName}"></script>`;
        const page = String(html.source);
        if (page.split(from).length !== 2) throw fail(`index.html does not load ${entry.fileName} once as \`${from}\``);
        html.source = page.replace(from, `<script defer src="./${fileName}"></script>`);
      },
    },
  };
}
