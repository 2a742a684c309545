import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { makeTempHome } from '../helpers/temp-home';
import { APP_ROOT, startAndWaitForUrl } from '../helpers/strata-cli';

// The README's `npm start` on a machine with no display and no Electron binary (this one): it must
// fall back to the browser host and print its URL within 60 s (issue "Foundation", done-when).
test('npm start without a display falls back to the browser host and prints its URL within 60 s', async () => {
  const home = makeTempHome();
  const started = Date.now();
  const run = startAndWaitForUrl(process.execPath, [join(APP_ROOT, 'scripts', 'start.mjs'), '--port', '0'], home.env, 60_000);
  try {
    const url = await run.url;
    assert.ok(Date.now() - started < 60_000);
    assert.match(run.output().stderr, /starting the browser host instead/);
    const page = await fetch(url);
    assert.equal(page.status, 200, 'the app page itself needs no token (the fragment never reaches the server)');
    assert.match(await page.text(), /<div id="root">/);
    const token = new URL(url).hash.replace(/^#token=/, '');
    const info = await fetch(new URL('/api/app.info', url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Strata-Token': token },
      body: '{}',
    });
    assert.equal(info.status, 200, 'the token from the printed URL opens the API');
  } finally {
    await run.stop();
    home.cleanup();
  }
});
