// The layering table (.dependency-cruiser.cjs, docs/architecture.md "The layers") holds for the real tree, and
// the rules really fire: each on the fixture file written to break it, with the message that says
// what is allowed. depcruise runs as a child process, exactly as `npm run layering` runs it; a
// fixture is checked by running in the fixture's root, so the rules' '^shared/'-style paths apply.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const configPath = join(root, '.dependency-cruiser.cjs');
const depcruiseBin = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const fixtures = join(root, 'tests', 'fixtures', 'layering');
/** The checked folders, as in package.json's "layering" script. */
const LAYERS = ['shared', 'main', 'preload', 'renderer', 'native-bridge'];

type Rule = { name: string; comment?: string };
const rules: Rule[] = (createRequire(import.meta.url)(configPath) as { forbidden: Rule[] }).forbidden;

type Violation = {
  from: string;
  to: string;
  rule: { name: string; severity: string };
  cycle?: { name: string }[];
};
type CruiseResult = {
  modules: { source: string; coreModule?: boolean }[];
  summary: { violations: Violation[]; error: number; warn: number };
};

type Run = { code: number | null; output: string };

function depcruise(cwd: string, outputType: 'json' | 'err-long'): Promise<Run & { stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [depcruiseBin, '--config', configPath, '--output-type', outputType, ...LAYERS], {
      cwd,
      // Plain text: the assertions read the messages, not colour codes.
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, output: stripVTControlCharacters(`${stdout}\n${stderr}`) }));
  });
}

async function cruiseJson(cwd: string): Promise<CruiseResult> {
  const run = await depcruise(cwd, 'json');
  assert.equal(run.code, 0, `depcruise could not cruise ${cwd}:\n${run.output}`);
  return JSON.parse(run.stdout) as CruiseResult;
}

/** The fixture file a violation is about; a cycle is about all its members (depcruise reports it
 * once, from whichever end it reached first). */
function violationKey(v: Violation): string {
  const files = v.cycle ? [v.from, ...v.cycle.map((m) => m.name)] : [v.from];
  return `${[...new Set(files)].sort().join(' + ')}: ${v.rule.name}`;
}

/** Our own (non-npm, non-built-in) modules in a cruise. */
const ownModules = (r: CruiseResult): string[] => r.modules.filter((m) => !m.coreModule && !m.source.includes('node_modules/')).map((m) => m.source);

const sourceFilesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => f.split(sep).join('/'));

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Which file breaks which rule in tests/fixtures/layering/violations/: one rule per file (a cycle
 * needs two files). Every rule of the config must appear here. */
const EXPECTED: Record<string, string> = {
  'shared/uses-node-fs.ts': 'shared-no-node-builtins',
  'shared/imports-renderer.ts': 'shared-allowed-folders',
  'shared/uses-react.ts': 'shared-allowed-packages',
  'shared/cycle-a.ts + shared/cycle-b.ts': 'shared-no-circular',
  'shared/imports-native-bridge.ts': 'native-bridge-only-from-main',
  'renderer/imports-main.tsx': 'renderer-allowed-folders',
  'renderer/uses-node-path.ts': 'renderer-no-node-builtins',
  'renderer/uses-electron.ts': 'renderer-allowed-packages',
  'renderer/imports-native-bridge.ts': 'native-bridge-only-from-main',
  'renderer/src/ui/imports-feature.ts': 'renderer-ui-below-features',
  'preload/imports-main.ts': 'preload-allowed-folders',
  'preload/uses-node-fs.ts': 'preload-no-node-builtins',
  'preload/uses-zustand.ts': 'preload-allowed-packages',
  'main/imports-renderer.ts': 'main-allowed-folders',
  'main/imports-preload.ts': 'main-allowed-folders',
  'main/vulkan/uses-electron.ts': 'main-electron-only-in-main-electron',
  'main/imports-missing.ts': 'not-to-unresolvable',
  'main/platform/imports-domain.ts': 'main-platform-allowed-folders',
  'main/vulkan/imports-cli.ts': 'main-domain-no-hosts',
  'main/hosts/serve/imports-cli.ts': 'main-hosts-apart',
  'main/hosts/electron/imports-serve-host.ts': 'main-electron-serve-files-only',
  'main/hosts/cli/imports-serve-internals.ts': 'main-cli-serve-entry-only',
  'main/hosts/cli/imports-serve-statically.ts': 'main-cli-serve-lazy',
  'main/vulkan/creates-router.ts': 'main-router-from-wiring',
  'main/profiles/imports-handlers.ts': 'main-handlers-from-wiring',
  'native-bridge/imports-main.ts': 'native-bridge-allowed-folders',
  'native-bridge/uses-electron.ts': 'native-bridge-allowed-packages',
};

describe('layering (.dependency-cruiser.cjs)', { concurrency: true }, () => {
  test('the real tree breaks no layering rule', async () => {
    const [result, text] = await Promise.all([cruiseJson(root), depcruise(root, 'err-long')]);
    assert.deepEqual(result.summary.violations, [], `npm run layering reports:\n${text.output}`);
    assert.equal(text.code, 0, text.output);
    // Not vacuous: every layer was actually cruised (a wrong folder name or extension list would
    // otherwise pass with nothing checked).
    const cruised = ownModules(result);
    for (const layer of LAYERS) {
      assert.ok(
        cruised.some((m) => m.startsWith(`${layer}/`)),
        `no module of ${layer}/ was cruised; cruised: ${cruised.join(', ')}`,
      );
    }
  });

  test('every rule has a name and a comment that says what is allowed', () => {
    for (const rule of rules) {
      assert.match(rule.name, /^[a-z-]+$/);
      assert.match(rule.comment ?? '', /allowed/i, `rule ${rule.name} has no "allowed" in its comment`);
    }
    assert.deepEqual(
      [...new Set(Object.values(EXPECTED))].sort(),
      rules.map((r) => r.name).sort(),
      'every rule of .dependency-cruiser.cjs needs a file in tests/fixtures/layering/violations/ that breaks it',
    );
  });

  test('on the violations fixture, each rule fires on the file made for it, and only there', async () => {
    const dir = join(fixtures, 'violations');
    const [result, text] = await Promise.all([cruiseJson(dir), depcruise(dir, 'err-long')]);

    const actual = result.summary.violations.map(violationKey).sort();
    const expected = Object.entries(EXPECTED)
      .map(([file, rule]) => `${file}: ${rule}`)
      .sort();
    assert.deepEqual(actual, expected, `depcruise reported:\n${text.output}`);
    assert.ok(result.summary.violations.every((v) => v.rule.severity === 'error'));

    // What a developer sees: the rule's name on the offending file, then the rule's comment.
    assert.equal(text.code, result.summary.error, 'the exit code is the number of errors (CI fails on any)');
    const output = squash(text.output);
    for (const v of result.summary.violations) {
      assert.ok(output.includes(`error ${v.rule.name}: ${v.from} →`), `err-long output does not name ${v.rule.name} on ${v.from}:\n${text.output}`);
      const comment = rules.find((r) => r.name === v.rule.name)?.comment ?? '';
      assert.ok(output.includes(squash(comment)), `err-long output lacks the comment of ${v.rule.name}:\n${text.output}`);
    }
  });

  test('the clean fixture, which uses every allowance, breaks no rule', async () => {
    const dir = join(fixtures, 'clean');
    const result = await cruiseJson(dir);
    assert.deepEqual(result.summary.violations.map(violationKey), []);
    // Every fixture file was cruised, so each allowance it exercises was really judged.
    assert.deepEqual(ownModules(result).sort(), sourceFilesUnder(dir).sort());
  });
});
