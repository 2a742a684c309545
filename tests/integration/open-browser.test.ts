import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRouter } from '../../main/router/router';
import { EventBus } from '../../main/platform/event-bus';
import { openInBrowser } from '../../main/hosts/serve/open-browser';
import { startBrowserHost } from '../../main/hosts/serve/browser-host';
import { countingHandlers } from '../helpers/counting-handlers';

/**
 * main/hosts/serve/open-browser.ts against a real browser host on 127.0.0.1: the opener
 * (STRATA_OPEN_WITH, a script that records its argv as xdg-open would receive it) gets the path of
 * the private launch file and nothing else: never the token. The file forwards to a one-time code
 * of that server; trading the code deletes the file, and so does the function openInBrowser returns.
 * An opener that cannot start is one line on stderr, not a crash.
 */
const TOKEN = 'open-browser-test-token-0123456789';

async function withHost(fn: (ctx: { work: string; opener: string; argvFile: string; host: Awaited<ReturnType<typeof startBrowserHost>> }) => Promise<void>) {
  const work = mkdtempSync(join(tmpdir(), 'strata-open-browser-'));
  mkdirSync(join(work, 'renderer'));
  writeFileSync(join(work, 'renderer', 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(work, 'preload.js'), '');
  const argvFile = join(work, 'argv');
  const opener = join(work, 'opener.sh');
  writeFileSync(opener, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}.tmp' && mv '${argvFile}.tmp' '${argvFile}'\n`);
  chmodSync(opener, 0o755);
  const host = await startBrowserHost({
    router: createRouter(countingHandlers().handlers),
    bus: new EventBus(),
    rendererDir: join(work, 'renderer'),
    browserPreloadFile: join(work, 'preload.js'),
    token: TOKEN,
  });
  try {
    await fn({ work, opener, argvFile, host });
  } finally {
    await host.close();
    rmSync(work, { recursive: true, force: true });
  }
}

async function waitFor(file: string): Promise<string> {
  for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
  return readFileSync(file, 'utf8');
}

test('the opener gets only the launch file; the file forwards to a one-time code; trading the code deletes the file', () =>
  withHost(async ({ opener, argvFile, host }) => {
    const remove = openInBrowser(host, { ...process.env, STRATA_OPEN_WITH: opener });
    try {
      const argv = (await waitFor(argvFile)).trim().split('\n');
      assert.equal(argv.length, 1);
      assert.match(argv[0]!, /^file:\/\/.*\/strata-open-[^/]+\/open-strata\.html$/);
      assert.ok(!argv[0]!.includes(TOKEN));
      const file = fileURLToPath(argv[0]!);
      const html = readFileSync(file, 'utf8');
      assert.ok(!html.includes(TOKEN), 'the launch file holds a one-time code, not the token');
      const code = new RegExp(`url=http://127\\.0\\.0\\.1:${host.port}/#code=([A-Za-z0-9_-]+)"`).exec(html)?.[1];
      assert.ok(code, html);

      const reply = await fetch(`http://127.0.0.1:${host.port}/auth/code`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: `http://127.0.0.1:${host.port}` },
        body: JSON.stringify({ code }),
      });
      assert.deepEqual(await reply.json(), { ok: true, value: { token: TOKEN } });
      assert.equal(existsSync(file), false, 'the page traded the code: the file is gone');
    } finally {
      remove();
    }
  }));

test('the returned function deletes a launch file no page has used', () =>
  withHost(async ({ opener, argvFile, host }) => {
    const remove = openInBrowser(host, { ...process.env, STRATA_OPEN_WITH: opener });
    const file = fileURLToPath((await waitFor(argvFile)).trim());
    assert.ok(existsSync(file));
    remove();
    assert.equal(existsSync(file), false);
  }));

test('an opener that cannot start: one line on stderr with the fix', () =>
  withHost(async ({ work, host }) => {
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    let remove = () => {};
    try {
      remove = openInBrowser(host, { ...process.env, STRATA_OPEN_WITH: join(work, 'no-such-opener') });
      for (let i = 0; i < 100 && !written.some((w) => w.includes('could not open')); i++) await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.stderr.write = original;
      remove();
    }
    assert.deepEqual(
      written.filter((w) => w.startsWith('strata:')),
      [`strata: could not open a browser (${join(work, 'no-such-opener')} failed). Fix: open the URL above yourself\n`],
    );
  }));
