import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lintFiles } from '../../main/discovery/lint-files-service';
import { StrataRequestError } from '../../shared/errors/strata-error';

/**
 * main/discovery/lint-files-service.ts (`strata lint FILE|DIR`) on a real tree: which files a folder
 * stands for, the role a file is linted as (from its folder), one set for the set rules, and the
 * errors for what cannot be linted. The verdicts against the real loader: lint-vs-loader.test.ts.
 */
const root = mkdtempSync(join(tmpdir(), 'strata-lint-files-'));
after(() => rmSync(root, { recursive: true, force: true }));
const layer = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    file_format_version: '1.1.0',
    layer: { name, type: 'GLOBAL', library_path: '/nowhere/lib.so', api_version: '1.3.0', implementation_version: '1', description: 'd', ...extra },
  });
const codes = (r: { diagnostics: { code?: string | number }[] }) => r.diagnostics.map((d) => String(d.code)).sort();
const code = (e: unknown) => (e instanceof StrataRequestError ? e.error.code : String(e));

test('a prefix folder stands for its vulkan/*.d folders, not other JSON; roles come from the folder; duplicates across files', async () => {
  const share = join(root, 'share');
  mkdirSync(join(share, 'vulkan', 'implicit_layer.d'), { recursive: true });
  mkdirSync(join(share, 'vulkan', 'explicit_layer.d'), { recursive: true });
  mkdirSync(join(share, 'vulkan', 'registry'), { recursive: true });
  writeFileSync(join(share, 'vulkan', 'registry', 'vk.json'), '{"not":"a manifest"}');
  writeFileSync(join(share, 'vulkan', 'implicit_layer.d', 'imp.json'), layer('VK_LAYER_dup'));
  writeFileSync(join(share, 'vulkan', 'explicit_layer.d', 'exp.json'), layer('VK_LAYER_dup'));
  const results = await lintFiles({ paths: [share] }, root, '1.3.239', {});
  assert.deepEqual(
    results.map((r) => r.uri.slice(share.length + 1)),
    ['vulkan/implicit_layer.d/imp.json', 'vulkan/explicit_layer.d/exp.json'],
  );
  // An implicit layer without disable_environment is an error only as an implicit layer (LLP_LAYER_9).
  assert.ok(
    codes(results[0]!).some((c) => c.includes('disable')),
    JSON.stringify(results[0]),
  );
  assert.ok(!codes(results[1]!).some((c) => c.includes('disable')), JSON.stringify(results[1]));
  assert.ok(codes(results[1]!).includes('layer/duplicate-name'), 'the second of a name, across the files linted together');
});

test('errors: a missing path, a folder without manifests, a named FIFO; a FIFO found in a folder is that file’s diagnostic', async () => {
  await assert.rejects(lintFiles({ paths: ['nope.json'] }, root, null, {}), (e) => code(e) === 'lint/no-such-file');
  mkdirSync(join(root, 'empty'));
  await assert.rejects(lintFiles({ paths: ['empty'] }, root, null, {}), (e) => code(e) === 'lint/no-manifests');
  const dir = join(root, 'withfifo');
  mkdirSync(dir);
  execFileSync('mkfifo', [join(dir, 'pipe.json')]);
  writeFileSync(join(dir, 'ok.json'), layer('VK_LAYER_ok'));
  await assert.rejects(lintFiles({ paths: [join(dir, 'pipe.json')] }, root, null, {}), (e) => code(e) === 'lint/unreadable');
  const results = await lintFiles({ paths: [dir] }, root, null, {});
  assert.deepEqual(codes(results.find((r) => r.uri.endsWith('pipe.json'))!), ['manifest/unreadable']);
  assert.equal(results.length, 2, 'the other file is still linted');
});
