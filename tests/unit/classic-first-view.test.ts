import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runInNewContext } from 'node:vm';
import { FIRST_VIEW_KEY, shimModule, toClassicScript } from '../../scripts/classic-first-view';

/**
 * scripts/classic-first-view.ts: the renderer's entry chunk made a classic script (issue #19: first
 * render). Here on small chunks as Rolldown writes them; tests/integration/renderer-first-view.test.ts
 * reads the real build.
 */

/** Runs a classic script as a page would: `document.currentScript.src` is its address. */
function runClassic(script: string, src: string) {
  const globalThis_: Record<PropertyKey, unknown> = {};
  const context = { document: { currentScript: { src } }, globalThis: globalThis_, Symbol, Object, URL };
  runInNewContext(script, context);
  return globalThis_[Symbol.for(FIRST_VIEW_KEY)] as Record<string, unknown>;
}

test('good: the export list is registered, import.meta.url and .resolve read the script address, in strict mode', () => {
  const chunk = [
    'function f(){return 1}',
    'const g={n:2};',
    'var h=3;',
    'const where=new URL(`./Panel-abcdefgh.js`,import.meta.url).href;',
    'function resolved(e){return import.meta.resolve?new URL(import.meta.resolve(e)):new URL(e,import.meta.url)}',
    'const strict=(function(){return this===undefined})();',
    'export{f as a,g as b,h as c,where as w,resolved as r,strict as s};',
  ].join('\n');
  const { script, exports } = toClassicScript(chunk);
  assert.deepEqual(exports, [
    ['a', 'f'],
    ['b', 'g'],
    ['c', 'h'],
    ['w', 'where'],
    ['r', 'resolved'],
    ['s', 'strict'],
  ]);
  assert.doesNotMatch(script, /import\.meta|\bexport\b/);
  const shared = runClassic(script, 'http://127.0.0.1:1/assets/first-view-12345678.js');
  assert.equal((shared.a as () => number)(), 1);
  assert.equal(JSON.stringify(shared.b), '{"n":2}');
  assert.equal(shared.c, 3);
  assert.equal(shared.w, 'http://127.0.0.1:1/assets/Panel-abcdefgh.js', 'relative to the script, as import.meta.url was');
  assert.equal(String((shared.r as (e: string) => URL)('./x.js')), 'http://127.0.0.1:1/assets/x.js');
  assert.equal(shared.s, true, 'module code is strict; so is the classic script');
  assert.ok(Object.isFrozen(shared));
});

test('good: every line of the chunk moves down by one and no column moves (the source map stays true)', () => {
  const chunk = 'const a=import.meta.url,b=import.meta.resolve;\nfunction c(){return a+b}\nexport{c};';
  const { script } = toClassicScript(chunk);
  const lines = script.split('\n');
  const original = chunk.split('\n');
  assert.equal(lines[1]!.length, original[0]!.length);
  assert.equal(lines[2], original[1]);
  assert.equal(lines[1]!.indexOf(',b='), original[0]!.indexOf(',b='));
});

test('good: the shim re-exports the registration under the exported names, and says so when it is missing', () => {
  const shim = shimModule([
    ['a', 'f'],
    ['$t', 'x'],
  ]);
  assert.match(shim, /export\{v0 as "a",v1 as "\$t"\}/);
  assert.match(shim, new RegExp(`Symbol\\.for\\(${JSON.stringify(FIRST_VIEW_KEY).replace(/\./g, '\\.')}\\)`));
  // As a script without its last line (the export list): it reads the registration, or throws without one.
  const body = shim.replace(/export\{[^}]*\};\n$/, 'result=[v0,v1];');
  const context: Record<string, unknown> = { globalThis: { [Symbol.for(FIRST_VIEW_KEY)]: { a: 1, $t: 2 } }, Symbol };
  runInNewContext(body, context);
  assert.equal(JSON.stringify(context['result']), '[1,2]');
  assert.throws(() => runInNewContext(body, { globalThis: {}, Symbol }), /first view's script has not run/);
});

test('bad: an exported binding assigned after its declaration fails the build (a panel would read a stale copy)', () => {
  assert.throws(() => toClassicScript('let n=0;function bump(){n++}\nexport{n as count,bump};'), /n \(as count\) is assigned after its declaration/);
  assert.throws(() => toClassicScript('var m;function set(){m=1}\nexport{m,set};'), /m \(as m\) is assigned after its declaration/);
  // The same name assigned in an inner scope of its own is another variable.
  assert.doesNotThrow(() => toClassicScript('const n=0;function f(n){n=2;return n}\nexport{n,f};'));
});

test('bad: module syntax a classic script cannot carry fails the build', () => {
  assert.throws(() => toClassicScript('import{x}from"./y.js";export{x};'), /ImportDeclaration/);
  assert.throws(() => toClassicScript('const a=1;export default a;'), /ExportDefaultDeclaration/);
  assert.throws(() => toClassicScript('export*from"./y.js";'), /ExportAllDeclaration/);
  assert.throws(() => toClassicScript('export const a=1;'), /export other than one/);
  assert.throws(() => toClassicScript('const a=1;export{a};export{a as b};'), /export other than one/);
  assert.throws(() => toClassicScript('const a=1;'), /exports nothing/);
  assert.throws(() => toClassicScript('const a=import.meta;export{a};'), /import\.meta for something other/);
  assert.throws(() => toClassicScript('const a=await fetch("x");export{a};'), /does not parse as a/);
  assert.throws(() => toClassicScript('const a=;export{a};'), /does not parse/);
});
