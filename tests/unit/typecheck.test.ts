// `npm run typecheck` as a test: the projects type-check, and tsconfig.shared.json (lib
// ES2023, no DOM, types: []) really rejects DOM and Node globals in shared/, which backs the
// import-level layering check (tests/unit/layering.test.ts): `document` or `process` need no import.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
// node_modules/.bin/tsc is a link to this script; running it with node avoids shell shims.
const tscScript = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function tsc(project: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tscScript, '-p', project, '--pretty', 'false'], { cwd: root });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('type-check', { concurrency: true }, () => {
  for (const project of ['tsconfig.shared.json', 'tsconfig.node.json', 'tsconfig.web.json', 'tsconfig.render.json']) {
    test(`tsc -p ${project} reports no errors`, async () => {
      const { code, output } = await tsc(project);
      assert.equal(code, 0, `tsc -p ${project} failed:\n${output}`);
    });
  }

  test('tsconfig.shared.json rejects DOM and Node globals (document, process) in shared/', async (t) => {
    const fixture = join(root, 'tests', 'fixtures', 'layering', 'dom-in-shared', 'shared');
    const bad = ['uses-document.ts', 'uses-process.ts'];
    const control = 'pure.ts';
    // A throwaway project with shared's settings over the fixture files only; `include: []` drops
    // the inherited shared/** so the real tree is not part of it.
    const dir = mkdtempSync(join(tmpdir(), 'strata-typecheck-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const project = join(dir, 'tsconfig.json');
    writeFileSync(
      project,
      JSON.stringify({
        extends: join(root, 'tsconfig.shared.json'),
        include: [],
        files: [...bad, control].map((f) => join(fixture, f)),
      }),
    );

    const { code, output } = await tsc(project);
    assert.notEqual(code, 0, `tsc accepted DOM/Node globals under tsconfig.shared.json:\n${output}`);
    const errors = output.split('\n').filter((line) => line.includes(': error TS'));
    assert.ok(errors.length > 0, `tsc failed without a type error (a broken project?):\n${output}`);
    assert.ok(
      errors.some((e) => e.includes('uses-document.ts') && e.includes("Cannot find name 'document'")),
      `no error for document:\n${output}`,
    );
    assert.ok(
      errors.some((e) => e.includes('uses-process.ts') && e.includes("Cannot find name 'process'")),
      `no error for process:\n${output}`,
    );
    // Only the two bad files fail: ES2023 itself (the control) is fine.
    assert.deepEqual(
      errors.filter((e) => !bad.some((f) => e.includes(f))),
      [],
      `unexpected errors:\n${output}`,
    );
  });
});
