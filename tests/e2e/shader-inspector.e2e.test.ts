import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { APP_ROOT, STRATA_BIN } from '../helpers/strata-cli';
import { artifact, closeApp, openApp, prepareE2e, type E2eApp } from '../helpers/e2e-harness';
import { buildShaderCorpus, spirvDis, spirvDisFriendly, type ShaderCorpus } from '../helpers/shader-corpus';

/**
 * The Shaders panel's friendly names, Pack VBC and VBC stages, through the browser host and Debian's
 * Chromium: what it shows is checked against spirv-dis (with and without --raw-id) and against
 * `strata shader pack` for the same files. Tests run in order on one page.
 */
declare const document: { activeElement: { getAttribute(name: string): string | null } | null };

const NAMES = 'spirv-names.frag';
const VERT = 'vertex-attributes.vert';
const FRAG = 'fragment-outputs.frag';

let home: TempHome;
let corpus: ShaderCorpus;
let dir: string;
let app: E2eApp | null = null;
let page: Page;
const problems: string[] = [];
const pathOf = (name: string) => corpus.modules.find((m) => m.name === name)!.path;
const linesOf = (b: Buffer) => b.toString('utf8').split('\n').slice(0, -1);
const openTab = (name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
const renderedLines = () => page.locator('[data-testid="dis-rows"] .dis-line').evaluateAll((els) => els.map((e) => e.textContent ?? ''));

before(async () => {
  prepareE2e();
  home = makeTempHome();
  corpus = buildShaderCorpus();
  dir = mkdtempSync(join(tmpdir(), 'strata-shader-e2e-'));
  app = await openApp(home, { viewport: { width: 1400, height: 960 }, problems });
  page = app.page;
  await page.locator('button[data-panel="shaders"]').click();
  await page.getByTestId('shader-dropzone').waitFor({ timeout: 15_000 });
});

after(async () => {
  await closeApp(app);
  home?.cleanup();
  corpus?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('Disassembly shows spirv-dis’s friendly names by default; an id link jumps to its definition', async () => {
  const friendly = linesOf(spirvDisFriendly(pathOf(NAMES)));
  await page.getByTestId('shader-file-input').setInputFiles(pathOf(NAMES));
  await page.getByTestId('shader-tabpanel-summary').waitFor({ timeout: 15_000 });
  await openTab('Disassembly');
  await page.getByTestId('dis-rows').waitFor();
  assert.equal(await page.getByTestId('dis-id-mode-friendly').isChecked(), true);
  const rows = await renderedLines();
  assert.deepEqual(rows.slice(0, 30), friendly.slice(0, 30));

  // %v4float (an input variable named after the type spirv-dis would call v4float) is used in OpEntryPoint, defined far below.
  const link = page.locator('[data-testid="dis-rows"] .dis-line[data-line="10"] button.dis-id', { hasText: /^%v4float$/ });
  await link.click();
  const target = page.getByTestId('dis-target-line');
  await target.waitFor();
  const definition = friendly.findIndex((l) => /^\s*%v4float = OpVariable /.test(l));
  assert.ok(definition > 30, 'the definition is out of the first screen');
  assert.equal(await target.getAttribute('data-line'), String(definition + 1));
  assert.equal(await target.textContent(), friendly[definition]);
});

test('the Friendly / Raw ids switch is a radio group: arrow keys switch, the same line stays the target, the text is spirv-dis --raw-id’s', async () => {
  const raw = linesOf(spirvDis(pathOf(NAMES)));
  const before = await page.getByTestId('dis-target-line').getAttribute('data-line');
  await page.getByTestId('dis-id-mode-friendly').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getByTestId('dis-id-mode-raw').isChecked(), true);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'dis-id-mode-raw');
  const target = page.getByTestId('dis-target-line');
  assert.equal(await target.getAttribute('data-line'), before);
  assert.equal(await target.textContent(), raw[Number(before) - 1]);
  for (const row of await page
    .locator('[data-testid="dis-rows"] .dis-line')
    .evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-line')), e.textContent ?? ''] as const))) {
    assert.equal(row[1], raw[row[0] - 1], `line ${row[0]}`);
  }
  assert.match((await page.locator('.disassembly .source-footer').textContent()) ?? '', /identical to spirv-dis --raw-id/);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('shaders-raw-ids-light.png') });
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getByTestId('dis-id-mode-friendly').isChecked(), true);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('shaders-friendly-light.png') });
});

test('Pack VBC: a refusal stays in the dialog with its diagnostics', async () => {
  await page.getByTestId('shader-pack-open').click();
  const dialog = page.getByTestId('shader-pack-dialog');
  await dialog.waitFor();
  assert.equal(await page.getByTestId('shader-pack-run').isDisabled(), true, 'nothing to pack yet');
  await page.getByTestId('shader-pack-tesc').setInputFiles(pathOf('tessellation.tesc'));
  await page.getByTestId('shader-pack-run').click();
  await page.getByTestId('shader-pack-refused').waitFor({ timeout: 15_000 });
  const codes = await page.getByTestId('shader-pack-problem').evaluateAll((els) => els.map((e) => e.getAttribute('data-code')));
  assert.ok(codes.includes('vbc/unpaired-tessellation'), codes.join(', '));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('shaders-pack-refused-light.png') });
  await page.getByTestId('shader-pack-tesc').setInputFiles([]);
});

test('Pack VBC: vert + frag pack into the file `strata shader pack` writes; it opens in the inspector and downloads', async () => {
  const cliOut = join(dir, 'cli.vbc');
  execFileSync(process.execPath, [STRATA_BIN, 'shader', 'pack', '--vert', pathOf(VERT), '--frag', pathOf(FRAG), '-o', cliOut], {
    cwd: APP_ROOT,
    env: home.env,
  });
  await page.getByTestId('shader-pack-vert').setInputFiles(pathOf(VERT));
  await page.getByTestId('shader-pack-frag').setInputFiles(pathOf(FRAG));
  assert.equal(await page.getByTestId('shader-pack-name').inputValue(), 'vertex-attributes.vbc');
  await page.getByTestId('shader-pack-run').click();
  await page.getByTestId('shader-pack-dialog').waitFor({ state: 'detached', timeout: 15_000 });
  await page.getByTestId('vbc-header').waitFor({ timeout: 15_000 });
  assert.match((await page.getByTestId('shader-file-name').textContent()) ?? '', /vertex-attributes\.vbc/);
  assert.deepEqual(await page.getByTestId('vbc-stage').evaluateAll((els) => els.map((e) => e.getAttribute('data-stage'))), ['vert', 'frag']);
  assert.match((await page.getByTestId('vbc-header').textContent()) ?? '', /Version1/);
  assert.equal(await page.getByTestId('vbc-binding').count(), 7);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('shader-download').click()]);
  assert.equal(download.suggestedFilename(), 'vertex-attributes.vbc');
  const saved = join(dir, 'downloaded.vbc');
  await download.saveAs(saved);
  assert.ok(readFileSync(saved).equals(readFileSync(cliOut)), 'the download is the file the CLI packs');
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('shaders-vbc-summary-light.png'), fullPage: true });
  await page.getByRole('radio', { name: 'Dark' }).check();
  await page.screenshot({ path: artifact('shaders-vbc-summary-dark.png'), fullPage: true });
  await page.getByRole('radio', { name: 'Light' }).check();
});

test('VBC stages: the Disassembly tab’s stage selector shows each stage’s own text; Interface shows its own reflection', async () => {
  await page.getByTestId('vbc-open-frag').click();
  await page.getByTestId('dis-rows').waitFor();
  assert.equal(await page.getByTestId('shader-stage-frag').isChecked(), true);
  assert.deepEqual((await renderedLines()).slice(0, 25), linesOf(spirvDisFriendly(pathOf(FRAG))).slice(0, 25));
  await page.getByTestId('shader-stage-frag').focus();
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getByTestId('shader-stage-vert').isChecked(), true);
  assert.deepEqual((await renderedLines()).slice(0, 25), linesOf(spirvDisFriendly(pathOf(VERT))).slice(0, 25));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('shaders-vbc-disassembly-light.png') });

  const inspectStage = (path: string) =>
    JSON.parse(execFileSync(process.execPath, [STRATA_BIN, 'shader', 'inspect', path, '--json'], { cwd: APP_ROOT, env: home.env, encoding: 'utf8' }));
  await openTab('Interface');
  assert.equal(await page.getByTestId('shader-inputs').locator('tbody tr').count(), inspectStage(pathOf(VERT)).reflection.entryPoints[0].inputs.length);
  await page.getByTestId('shader-stage-frag').check();
  assert.equal(await page.getByTestId('shader-inputs').locator('tbody tr').count(), inspectStage(pathOf(FRAG)).reflection.entryPoints[0].inputs.length);
  await openTab('Problems');
  await page.getByTestId('shader-problems-empty').waitFor();
});

test('a malformed VBC file: its diagnostics at byte offsets in Problems; no console errors or CSP violations', async () => {
  const bytes = readFileSync(join(dir, 'cli.vbc'));
  bytes.writeUInt32LE(1000, 25); // the vertex-inputs count runs into the bytecode
  await page.getByTestId('shader-file-input').setInputFiles({ name: 'broken.vbc', mimeType: 'application/octet-stream', buffer: bytes });
  await page.getByRole('tablist').waitFor({ timeout: 15_000 });
  await openTab('Problems');
  const problem = page.getByTestId('shader-problem');
  await problem.first().waitFor();
  assert.deepEqual(await problem.evaluateAll((els) => els.map((e) => e.getAttribute('data-code'))), ['vbc/section-past-end']);
  assert.match((await problem.first().textContent()) ?? '', /byte 25/);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: artifact('shaders-vbc-problems-light.png') });
  assert.deepEqual(problems, []);
});
