import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
