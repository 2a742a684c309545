import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempHome } from '../helpers/temp-home';
import { runStrata } from '../helpers/strata-cli';
import { loaderMatrix, matrixSkip } from '../helpers/loader-builds';

// `strata lint` as a user on another distribution runs it: the loader on LD_LIBRARY_PATH is a real
// Khronos build of that version, and the lint's verdicts (what that loader does with the file) follow it.
test('strata lint speaks for the installed loader: invalid JSON fails everything on 1.3.239, is skipped on 1.4.341', { skip: matrixSkip() }, () => {
  const [old, recent] = loaderMatrix(['1.3.239', '1.4.341']);
  const home = makeTempHome();
  try {
    const folder = join(home.dir, 'layers');
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'broken.json');
    writeFileSync(file, '{ "file_format_version": "1.2.0", "layer": { "name": "VK_LAYER_x", } }');
    const say = (libDir: string) => runStrata(['lint', file], { ...home.env, LD_LIBRARY_PATH: libDir });
    const a = say(old!.libDir);
    assert.equal(a.status, 1, a.stderr);
    assert.match(a.stdout, /Loader 1\.3\.239 cannot read the file and then fails vkEnumerateInstance\*Properties for every application/);
    const b = say(recent!.libDir);
    assert.equal(b.status, 1, b.stderr);
    assert.match(b.stdout, /Loader 1\.4\.341 skips the file \(loaders before 1\.3\.268 fail/);
  } finally {
    home.cleanup();
  }
});
