import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { saveBundleFolder } from '../../main/diagnostics/bundle-folder-service';
import { MAX_BUNDLE_FILES, type BundleFolderRequest } from '../../shared/diagnostics/bundle-folder';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { createRouter } from '../../main/router/router';
import { countingHandlers } from '../helpers/counting-handlers';
import { withTempHome, type TempHome } from '../helpers/temp-home';

/**
 * diagnostics.saveFolder's writer (main/diagnostics/bundle-folder-service.ts): a new folder beside
 * whatever is there, named NAME, NAME-2, NAME-3 …, that appears by rename whole or not at all; "~"
 * is the HOME the request runs under. The request schema's own cases (names, a name twice) are
 * bundle-folder.test.ts; here the channel as the router runs it (the schema in front of this writer:
 * nothing is written for a refused request) and the writer's own guard when handed a name the schema
 * would refuse. The Diagnostics view saving through it is tests/e2e/activity.e2e.test.ts.
 */
const files = [
  { name: 'README.txt', text: 'bundle\n' },
  { name: 'run/output.log', text: 'loader said ü\n' },
];

/** Everything under a folder, hidden entries included (a staging folder left behind would show). */
const tree = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).sort();

test(
  'NAME, then NAME-2, then NAME-3: an existing folder or file of that name is passed over and left as it was',
  withTempHome((home) => {
    const parent = join(home.dir, 'reports');
    mkdirSync(join(parent, 'b'), { recursive: true });
    writeFileSync(join(parent, 'b', 'mine.txt'), 'the user’s own');
    writeFileSync(join(parent, 'b-2'), 'a file, not a folder');
    const first = saveBundleFolder({ parent, name: 'b', files }, home.env);
    assert.equal(first.path, join(parent, 'b-3'));
    const second = saveBundleFolder({ parent, name: 'b', files }, home.env);
    assert.equal(second.path, join(parent, 'b-4'));
    assert.deepEqual(readdirSync(join(parent, 'b')), ['mine.txt'], 'nothing written into an existing folder');
    assert.equal(readFileSync(join(parent, 'b', 'mine.txt'), 'utf8'), 'the user’s own');
    assert.equal(readFileSync(join(parent, 'b-2'), 'utf8'), 'a file, not a folder');
    assert.deepEqual(tree(parent), [
      'b',
      'b-2',
      'b-3',
      'b-3/README.txt',
      'b-3/run',
      'b-3/run/output.log',
      'b-4',
      'b-4/README.txt',
      'b-4/run',
      'b-4/run/output.log',
      'b/mine.txt',
    ]);
    assert.equal(readFileSync(join(second.path, 'run/output.log'), 'utf8'), 'loader said ü\n');
    assert.deepEqual([second.files, second.bytes], [2, Buffer.byteLength('bundle\n') + Buffer.byteLength('loader said ü\n')]);
  }),
);

test(
  '"~" and "~/…" are the HOME of the request\'s environment (created when missing); only the bundle folder appears there',
  withTempHome((home) => {
    const atHome = saveBundleFolder({ parent: '~', name: 'strata-diagnostics-1', files }, home.env);
    assert.equal(atHome.path, join(home.dir, 'strata-diagnostics-1'));
    const nested = saveBundleFolder({ parent: '  ~/a/b  ', name: 'strata-diagnostics-1', files }, home.env);
    assert.equal(nested.path, join(home.dir, 'a', 'b', 'strata-diagnostics-1'), 'trimmed, and the missing folders made');
    assert.deepEqual(readdirSync(join(home.dir, 'a', 'b')), ['strata-diagnostics-1'], 'no staging folder stays');
    assert.ok(statSync(nested.path).isDirectory());
    // "~user" is not expanded: it is a relative name, refused with the fix.
    assert.throws(
      () => saveBundleFolder({ parent: '~other/x', name: 'b', files }, home.env),
      (e: unknown) => e instanceof StrataRequestError && e.error.code === 'diagnostics/folder-not-absolute' && /~\/bug-reports/.test(e.error.fix ?? ''),
    );
  }),
);

test(
  'the writer refuses an entry that would leave the bundle folder even when the schema is bypassed; nothing outside is written, no staging folder stays',
  withTempHome((home) => {
    const parent = join(home.dir, 'reports');
    for (const name of ['../escape.txt', 'run/../../escape.txt', join(home.dir, 'absolute.txt')]) {
      assert.throws(
        () => saveBundleFolder({ parent, name: 'b', files: [files[0]!, { name, text: 'x' }] }, home.env),
        (e: unknown) => e instanceof StrataRequestError && e.error.code === 'diagnostics/bad-entry' && e.error.where === name,
        name,
      );
      assert.deepEqual(readdirSync(parent), [], `${name}: nothing in the parent, staging folder included`);
    }
    assert.equal(existsSync(join(home.dir, 'escape.txt')), false);
    assert.equal(existsSync(join(home.dir, 'absolute.txt')), false);
  }),
);

/** diagnostics.saveFolder through the router, with this writer behind it. */
function channel(home: TempHome) {
  const { handlers, calls } = countingHandlers();
  const router = createRouter({ ...handlers, 'diagnostics.saveFolder': (request) => saveBundleFolder(request, home.env) });
  return { calls, save: (request: unknown) => router.call('diagnostics.saveFolder', request, { host: 'browser' }) };
}

test(
  'through the channel: "..", absolute, repeated names and a folder name with "/" are refused before the writer runs; nothing is written',
  withTempHome(async (home) => {
    const { save } = channel(home);
    const parent = join(home.dir, 'reports');
    const bad: unknown[] = [
      { parent, name: 'b', files: [{ name: '../x', text: '' }] },
      { parent, name: 'b', files: [{ name: '/etc/passwd', text: '' }] },
      { parent, name: 'b', files: [files[0], files[0]] },
      { parent, name: '../b', files },
      { parent, name: 'b', files: [] },
      { parent, name: 'b', files, extra: 1 },
    ];
    for (const request of bad) {
      const r = await save(request);
      assert.equal(r.ok, false, JSON.stringify(request));
      if (!r.ok) assert.equal(r.error.code, 'ipc/invalid-request', JSON.stringify(r.error));
    }
    assert.equal(existsSync(parent), false, 'the writer never ran');
    const good = await save({ parent: '~/reports', name: 'b', files } satisfies BundleFolderRequest);
    assert.deepEqual(good, { ok: true, value: { path: join(parent, 'b'), files: 2, bytes: 22 } });
  }),
);

test(
  `at most ${MAX_BUNDLE_FILES} files: one more is refused by the channel with the limit named, before anything is written`,
  withTempHome(async (home) => {
    const { save } = channel(home);
    const parent = join(home.dir, 'reports');
    const many = Array.from({ length: MAX_BUNDLE_FILES + 1 }, (_, i) => ({ name: `f/${i}`, text: '' }));
    const r = await save({ parent, name: 'b', files: many });
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(`${r.error.message} ${r.error.fix ?? ''}`, /20[ ,.]?000/);
    assert.equal(existsSync(parent), false);
  }),
);
