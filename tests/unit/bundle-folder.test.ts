import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BundleFolderRequestSchema } from '../../shared/diagnostics/bundle-folder';
import { saveBundleFolder } from '../../main/diagnostics/bundle-folder-service';
import { StrataRequestError } from '../../shared/errors/strata-error';

/** diagnostics.saveFolder: the request's names, and a folder that appears whole or not at all. */
const files = [
  { name: 'README.txt', text: 'bundle\n' },
  { name: 'manifests/implicit_layer/home/u/.local/share/vulkan/implicit_layer.d/ü.json', text: '{"x":"ü"}' },
];

test('the request refuses names that leave the bundle folder, and a name twice', () => {
  const ok = (name: string) => BundleFolderRequestSchema.safeParse({ parent: '/tmp', name: 'b', files: [{ name, text: '' }] }).success;
  assert.equal(ok('run/output.log'), true);
  assert.equal(ok('manifests/x/home/u/.config/a.json'), true, 'hidden folders are where manifests live');
  for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a//b', './a', 'a\\b', 'a\0b', '']) assert.equal(ok(bad), false, bad);
  assert.equal(BundleFolderRequestSchema.safeParse({ parent: '/tmp', name: '../b', files }).success, false, 'the folder name is one name');
  assert.equal(BundleFolderRequestSchema.safeParse({ parent: '/tmp', name: 'b', files: [files[0], files[0]] }).success, false);
});

test('writes a new folder under ~/…, byte for byte; a second save gets a new name; a failure leaves nothing', () => {
  const home = mkdtempSync(join(tmpdir(), 'strata-bundle-folder-'));
  try {
    const env = { HOME: home };
    const a = saveBundleFolder({ parent: '~/reports', name: 'strata-diagnostics-x', files }, env);
    assert.equal(a.path, join(home, 'reports', 'strata-diagnostics-x'));
    assert.equal(a.files, 2);
    assert.equal(a.bytes, Buffer.byteLength('bundle\n') + Buffer.byteLength('{"x":"ü"}'));
    assert.equal(readFileSync(join(a.path, files[1]!.name), 'utf8'), '{"x":"ü"}');
    const b = saveBundleFolder({ parent: join(home, 'reports'), name: 'strata-diagnostics-x', files }, env);
    assert.equal(b.path, join(home, 'reports', 'strata-diagnostics-x-2'), 'never written over');
    assert.equal(readFileSync(join(a.path, 'README.txt'), 'utf8'), 'bundle\n');

    // "a" as a file and as a folder: the second write fails; no half-written folder or staging folder stays.
    assert.throws(
      () =>
        saveBundleFolder(
          {
            parent: join(home, 'reports'),
            name: 'broken',
            files: [
              { name: 'a', text: '' },
              { name: 'a/b', text: '' },
            ],
          },
          env,
        ),
      (e: unknown) => e instanceof StrataRequestError && e.error.code.startsWith('diagnostics/'),
    );
    assert.deepEqual(readdirSync(join(home, 'reports')).sort(), ['strata-diagnostics-x', 'strata-diagnostics-x-2']);

    writeFileSync(join(home, 'file'), '');
    assert.throws(
      () => saveBundleFolder({ parent: join(home, 'file'), name: 'b', files }, env),
      (e: unknown) => e instanceof StrataRequestError && e.error.code === 'diagnostics/not-a-folder' && /file is in the way/.test(e.error.message),
    );
    assert.throws(
      () => saveBundleFolder({ parent: 'relative/dir', name: 'b', files }, env),
      (e: unknown) => e instanceof StrataRequestError && e.error.code === 'diagnostics/folder-not-absolute',
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
