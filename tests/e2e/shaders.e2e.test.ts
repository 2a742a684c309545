import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { APP_ROOT, STRATA_BIN } from '../helpers/strata-cli';
import { artifact, closeApp, openApp, prepareE2e, type E2eApp } from '../helpers/e2e-harness';
import { buildShaderCorpus, spirvDis, type ShaderCorpus } from '../helpers/shader-corpus';
import type { ShaderInspection } from '../../shared/shader/shader-inspection';

/**
 * The Shaders panel through the browser host: a corpus module compiled here is opened through the
 * file input (the browser has no path to give main, so it goes as bytes over `shader.inspectBytes`),
 * and what the panel shows is checked against `strata shader inspect --json` and `spirv-dis --raw-id`
 * for the same file. Tests run in order on one page.
 */
declare const document: {
  documentElement: { dataset: Record<string, string | undefined> };
  activeElement: { getAttribute(name: string): string | null } | null;
};
interface Box {
  getBoundingClientRect(): { top: number; bottom: number };
  querySelector(s: string): Box | null;
}

const SHADER = 'descriptor-arrays.frag';
const OPCODE = 'OpImageSampleImplicitLod';

let home: TempHome;
let corpus: ShaderCorpus;
let modulePath: string;
let inspect: ShaderInspection;
let disLines: string[];
let app: E2eApp | null = null;
let page: Page;
const problems: string[] = [];

const setTheme = async (name: 'Light' | 'Dark') => {
  await page.getByRole('radio', { name }).check();
  await page.waitForFunction((t) => document.documentElement.dataset['theme'] === t, name.toLowerCase());
};
const openTab = (name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
const renderedLines = () =>
  page.locator('[data-testid="dis-rows"] .dis-line').evaluateAll((els) => els.map((e) => [e.getAttribute('data-line'), e.textContent ?? ''] as const));

before(async () => {
  prepareE2e();
  home = makeTempHome();
  corpus = buildShaderCorpus();
  modulePath = corpus.modules.find((m) => m.name === SHADER)!.path;
  inspect = JSON.parse(
    execFileSync(process.execPath, [STRATA_BIN, 'shader', 'inspect', modulePath, '--json'], { cwd: APP_ROOT, env: home.env, encoding: 'utf8' }),
  );
  disLines = spirvDis(modulePath).toString('utf8').split('\n').slice(0, -1);

  app = await openApp(home, { viewport: { width: 1400, height: 960 }, problems });
  page = app.page;
});

after(async () => {
  await closeApp(app);
  home?.cleanup();
  corpus?.cleanup();
});

test('the Shaders panel starts with a drop zone and an Open… button', async () => {
  await page.locator('button[data-panel="shaders"]').click();
  await page.locator('h1', { hasText: 'Shaders' }).waitFor({ timeout: 15_000 });
  await page.getByTestId('shader-dropzone').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Open…' }).count(), 1);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('shaders-empty-light.png') });
});

test('Summary: the entry point and its stage, as strata shader inspect --json reports them', async () => {
  await page.getByTestId('shader-file-input').setInputFiles(modulePath);
  await page.getByTestId('shader-tabpanel-summary').waitFor({ timeout: 15_000 });
  const expected = inspect.reflection.entryPoints.map((e) => [e.name, e.stage]);
  assert.deepEqual(expected, [['main', 'frag']]);
  assert.match((await page.getByTestId('shader-entry-points').textContent()) ?? '', /Fragment/);
  const shown = await page.getByTestId('shader-entry-point').evaluateAll((els) => els.map((e) => [e.getAttribute('data-name'), e.getAttribute('data-stage')]));
  assert.deepEqual(shown, expected);
  const header = (await page.getByTestId('shader-header').textContent()) ?? '';
  assert.ok(header.includes(`SPIR-V version${inspect.summary!.version}`), header);
  assert.ok(header.includes(inspect.summary!.generator), header);
  assert.match(header, /0x07230203 · little-endian/);
  assert.match((await page.getByTestId('shader-counts').textContent()) ?? '', new RegExp(`${inspect.reflection.descriptorBindings.length}Descriptor bindings`));
  assert.match((await page.getByTestId('shader-file-name').textContent()) ?? '', /descriptor-arrays\.frag\.spv/);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('shaders-summary-light.png'), fullPage: true });
  await setTheme('Dark');
  await page.screenshot({ path: artifact('shaders-summary-dark.png'), fullPage: true });
  await setTheme('Light');
});

test('tabs: a tablist; arrow keys move between tabs and select them', async () => {
  assert.equal(await page.getByRole('tablist').count(), 1);
  await page.getByRole('tab', { name: /^Summary/ }).focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'shader-tab-interface');
  assert.equal(await page.getByTestId('shader-tab-interface').getAttribute('aria-selected'), 'true');
  await page.getByTestId('shader-tabpanel-interface').waitFor();
  // Inputs are those strata reports, by location.
  const inputs = await page.getByTestId('shader-inputs').locator('tbody tr').count();
  assert.equal(inputs, inspect.reflection.entryPoints[0]!.inputs.length);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('End');
  assert.equal(await page.getByTestId('shader-tab-problems').getAttribute('aria-selected'), 'true');
  await page.keyboard.press('Home');
  assert.equal(await page.getByTestId('shader-tab-summary').getAttribute('aria-selected'), 'true');
});

test('Bindings: every descriptor set/binding that strata shader inspect --json reports, and the push constants', async () => {
  await openTab('Bindings');
  await page.getByTestId('shader-bindings').waitFor();
  const shown = await page
    .getByTestId('shader-binding')
    .evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-set')), Number(e.getAttribute('data-binding'))]));
  assert.deepEqual(
    shown,
    inspect.reflection.descriptorBindings.map((d) => [d.set, d.binding]),
  );
  assert.ok(
    shown.some(([set]) => set === 1),
    'the module uses set 1 too',
  );
  const push = (await page.getByTestId('shader-push-constant').textContent()) ?? '';
  assert.ok(push.includes(inspect.reflection.pushConstants[0]!.block.typeName), push);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('shaders-bindings-light.png'), fullPage: true });
});

test('Disassembly: the first lines are spirv-dis --raw-id’s, and only the visible part is rendered', async () => {
  await openTab('Disassembly');
  await page.getByTestId('dis-rows').waitFor();
  // Friendly names are the default (shader-inspector.e2e.test.ts); these tests read the raw ids.
  await page.getByTestId('dis-id-mode-raw').check();
  const rows = await renderedLines();
  assert.ok(rows.length >= 20, `${rows.length} rows rendered`);
  assert.ok(rows.length < disLines.length, `virtualized: ${rows.length} of ${disLines.length} lines in the DOM`);
  assert.deepEqual(
    rows.slice(0, 20).map(([, text]) => text),
    disLines.slice(0, 20),
  );
  assert.deepEqual(
    rows.slice(0, 20).map(([n]) => n),
    disLines.slice(0, 20).map((_, i) => String(i + 1)),
  );
});

test('Disassembly: clicking an id jumps to the line that defines it', async () => {
  // A use far from its definition: the last id on the last rendered line that has a link.
  const link = page.locator('[data-testid="dis-rows"] button.dis-id').last();
  const id = Number(await link.getAttribute('data-id'));
  const definition = disLines.findIndex((l) => new RegExp(`^\\s*%${id} = `).test(l));
  assert.ok(definition >= 0, `%${id} is defined in spirv-dis's text`);
  await link.click();
  const target = page.getByTestId('dis-target-line');
  await target.waitFor();
  assert.equal(await target.getAttribute('data-line'), String(definition + 1));
  assert.equal(await target.textContent(), disLines[definition]);
  const visible = await page.getByTestId('dis-scroller').evaluate((box) => {
    const b = (box as unknown as Box).getBoundingClientRect();
    const l = (box as unknown as Box).querySelector('[data-testid="dis-target-line"]')!.getBoundingClientRect();
    return l.top >= b.top && l.bottom <= b.bottom;
  });
  assert.ok(visible, 'the definition is scrolled into view');
});

test(`Disassembly: search finds ${OPCODE}; Enter steps to the next match`, async () => {
  const expected = disLines
    .map((l, i) => [l, i] as const)
    .filter(([l]) => l.includes(OPCODE))
    .map(([, i]) => i);
  assert.ok(expected.length >= 2, 'the module samples at least twice');
  await page.getByTestId('dis-search').fill(OPCODE);
  assert.equal(await page.getByTestId('dis-status').textContent(), `1 of ${expected.length}`);
  const target = page.getByTestId('dis-target-line');
  assert.equal(await target.getAttribute('data-line'), String(expected[0]! + 1));
  assert.match((await target.textContent()) ?? '', new RegExp(OPCODE));
  await page.getByTestId('dis-search').press('Enter');
  assert.equal(await page.getByTestId('dis-status').textContent(), `2 of ${expected.length}`);
  assert.equal(await target.getAttribute('data-line'), String(expected[1]! + 1));
  await page.getByTestId('dis-search').press('Shift+Enter');
  assert.equal(await target.getAttribute('data-line'), String(expected[0]! + 1));
  assert.equal(await target.locator('mark.dis-match').textContent(), OPCODE);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('shaders-disassembly-light.png') });
  await setTheme('Dark');
  await page.screenshot({ path: artifact('shaders-disassembly-dark.png') });
  await setTheme('Light');
});

test('Problems: a valid module has none (strata agrees)', async () => {
  assert.deepEqual(inspect.diagnostics, []);
  await openTab('Problems');
  await page.getByTestId('shader-problems-empty').waitFor();
});

test('a file that is not SPIR-V: a clear error saying what was expected; no console errors or CSP violations', async () => {
  await page
    .getByTestId('shader-file-input')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('These are notes, not a shader.\n') });
  const error = page.getByTestId('shader-not-spirv');
  await error.waitFor({ timeout: 15_000 });
  const text = (await error.textContent()) ?? '';
  assert.match(text, /notes\.txt is not a SPIR-V module/);
  assert.match(text, /not the SPIR-V magic number 0x07230203/);
  assert.match(text, /Expected a SPIR-V binary/);
  assert.equal(await page.getByRole('tablist').count(), 0, 'no tabs for a file that is not a module');
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('shaders-not-spirv-light.png') });
  // And back: the real module opens again from the same input.
  await page.getByTestId('shader-file-input').setInputFiles({ name: 'again.spv', mimeType: 'application/octet-stream', buffer: readFileSync(modulePath) });
  await page.getByRole('tablist').waitFor();
  assert.deepEqual(problems, []);
});
