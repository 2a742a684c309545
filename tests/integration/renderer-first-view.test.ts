import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { parseSync } from 'vite';
import { FIRST_VIEW_KEY, shimModule } from '../../scripts/classic-first-view';
import { join } from 'node:path';
import { APP_ROOT } from '../helpers/strata-cli';

/**
 * What the renderer's first view evaluates before its first paint (issue #19: first render): the
 * scripts index.html loads (its entry and the chunks it preloads), as `npm test` built them into
 * out/renderer. They build no zod schema: building the ~30 the first view's modules once held was
 * ~50 ms of a page's module evaluation. zod's core (its global `config`, set before any schema is
 * used) may be there; its schema classes (ZodObject, ZodString, …) go with the panels and channels
 * that check data, in chunks loaded after the first paint.
 */
const RENDERER = join(APP_ROOT, 'out', 'renderer');

test("the first view's scripts build no zod schema", () => {
  const html = readFileSync(join(RENDERER, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  assert.ok(scripts.length > 0, 'index.html loads no script');
  for (const script of scripts) {
    const text = readFileSync(join(RENDERER, script), 'utf8');
    // zod names each schema class as it defines it: $constructor("ZodObject", …) (classic), "$ZodObject"
    // (core); the minifier writes those strings in backquotes.
    const classes = [...new Set([...text.matchAll(/["'`](\$?Zod(?:Object|String|Enum|Array|Record|Union|Boolean|Number|Literal))["'`]/g)].map((m) => m[1]))];
    assert.deepEqual(classes, [], `${script} (loaded by the first view) defines zod schema classes: ${classes.join(', ')}`);
  }
});

/**
 * The first view's script is a classic script (scripts/classic-first-view.ts: Chromium reads a classic
 * script's code cache, and not a module's): index.html loads it `defer`red and no module script; it
 * parses as a script; the module in the entry's place exports the names it registers, and the panels'
 * chunks import nothing else from that module.
 */
test("the first view's script is a classic script, and the panels import what it registers", () => {
  const html = readFileSync(join(RENDERER, 'index.html'), 'utf8');
  assert.doesNotMatch(html, /type="module"/, 'index.html still loads a module script');
  const tags = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  assert.equal(tags.length, 1, `one script in index.html: ${tags.join(' ')}`);
  const src = /^<script defer src="\.\/(assets\/first-view-[A-Za-z0-9_-]{8}\.js)">$/.exec(tags[0]!)?.[1];
  assert.ok(src, `a deferred first-view script: ${tags[0]}`);
  const script = readFileSync(join(RENDERER, src), 'utf8');
  assert.deepEqual(parseSync('first-view.js', script, { sourceType: 'script' }).errors, [], 'it parses as a classic script');
  const registration = `globalThis[Symbol.for(${JSON.stringify(FIRST_VIEW_KEY)})]=Object.freeze({`;
  const at = script.indexOf(registration);
  assert.ok(at >= 0, 'it registers its exports');
  const registered = script.slice(at + registration.length, script.indexOf('});', at));
  const exported = [...registered.matchAll(/"([^"]+)":/g)].map((m) => m[1]!);
  const names = new Set(exported);

  const assets = join(RENDERER, 'assets');
  const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
  // Old builds' chunks stay beside the new ones for an hour (scripts/build.mjs): the module in the
  // entry's place is the one that re-exports exactly these names.
  const expected = shimModule(exported.map((n) => [n, n]));
  const shim = files.find((f) => readFileSync(join(assets, f), 'utf8') === expected);
  assert.ok(shim, `a module re-exports the ${names.size} registered names`);
  let importers = 0;
  for (const f of files) {
    for (const m of readFileSync(join(assets, f), 'utf8').matchAll(/import\{([^}]*)\}from"\.\/([^"]+)"/g)) {
      if (m[2] !== shim) continue;
      importers++;
      for (const spec of m[1]!.split(',')) {
        const imported = spec.split(' as ')[0]!.trim();
        assert.ok(names.has(imported), `${f} imports ${imported} from ${shim}, which the first view does not register`);
      }
    }
  }
  assert.ok(importers > 0, `no panel chunk imports from ${shim}`);
});
