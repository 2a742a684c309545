import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { lintManifest, type ManifestRole } from '../../shared/lint/manifest-lint';
import { makeTempHome } from '../helpers/temp-home';
import { BAD_CORPUS_DIR, expectedVerdict, materializeLibrary, readBadCorpus, type LoaderVerdict } from '../helpers/bad-corpus';
import { APP_ROOT } from '../helpers/strata-cli';
import { mapConcurrently } from '../helpers/concurrent-map';
import { lintFiles } from '../../main/discovery/lint-files-service';
import { loaderMatrix, matrixSkip, type LoaderBuild } from '../helpers/loader-builds';

/**
 * The real loader (Debian libvulkan1 1.3.239) is the oracle for tests/fixtures/manifests/bad/: each
 * file is put alone where its role says (VK_LAYER_PATH, $XDG_CONFIG_HOME/vulkan/implicit_layer.d, or
 * VK_DRIVER_FILES) in its own temp HOME, and a gcc-built probe (tests/fixtures/probes/loader-oracle.c)
 * asks the loader what it lists and whether an instance can be created with it. The verdicts are
 * defined in tests/helpers/bad-corpus.ts; expected.json's `loader` must equal what is observed here.
 */

/** Real libraries put in place of the fixtures' placeholder library_path strings, so that "usable"
 * means the loader really loads and calls it (numbers and other non-strings stay as written). */
const LAYER_LIBRARY = '/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so';
const DRIVER_LIBRARY = '/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so';
const LAVAPIPE_MANIFEST = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const VK_ERROR_OUT_OF_HOST_MEMORY = -1;
const VK_ERROR_INCOMPATIBLE_DRIVER = -9;
const WORKERS = 2;
const LIST_TIMEOUT_MS = 10_000;
/** Enabling a layer whose library_path is not a string makes the loader dlopen("") (the program
 * itself) and spin; a create that takes longer than this counts as "does not give an instance". */
const CREATE_TIMEOUT_MS = 5_000;

interface Case {
  file: string;
  role: ManifestRole;
  text: string;
}

interface Observation {
  verdict: LoaderVerdict | `unexpected: ${string}`;
  /** The probe's own lines, for the table. */
  facts: string;
  /** The loader's most telling log line (VK_LOADER_DEBUG=all). */
  log: string;
  /** Every line of the loader's log about opening libraries (dlerror's text, "failed to load", "wrong bit-type"). */
  libraryLog: string;
  /** For a fixture about its library: what `lint.files` says of the very files the loader read ("code severity", sorted). */
  lint: string[] | null;
  /** The same diagnostics' messages. */
  lintMessages: string[];
}

interface ProbeRun {
  stdout: string;
  stderr: string;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
}

const work = mkdtempSync(join(tmpdir(), 'strata-lint-vs-loader-'));
after(() => rmSync(work, { recursive: true, force: true }));

let probePath: string | undefined;
function probe(): string {
  if (probePath) return probePath;
  for (const need of [LAYER_LIBRARY, DRIVER_LIBRARY, LAVAPIPE_MANIFEST])
    assert.ok(existsSync(need), `${need} is missing (vulkan-validationlayers and mesa-vulkan-drivers are needed)`);
  const out = join(work, 'loader-oracle');
  execFileSync('gcc', ['-O1', '-Wall', '-o', out, join(APP_ROOT, 'tests', 'fixtures', 'probes', 'loader-oracle.c'), '-lvulkan'], { stdio: 'pipe' });
  probePath = out;
  return out;
}

function runProbe(args: string[], env: NodeJS.ProcessEnv, timeout: number, libDir: string | undefined): Promise<ProbeRun> {
  return new Promise((resolve) => {
    execFile(
      probe(),
      args,
      { env: libDir ? { ...env, LD_LIBRARY_PATH: libDir } : env, timeout, killSignal: 'SIGKILL', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const e = error as (Error & { signal?: NodeJS.Signals | null; killed?: boolean }) | null;
        const signal = e?.signal ?? null;
        resolve({ stdout, stderr, signal, timedOut: signal === 'SIGKILL' && e?.killed === true });
      },
    );
  });
}

const swapLibrary = (text: string, library: string) => text.replace(/("library_path"\s*:\s*)"[^"]*"/g, `$1"${library}"`);

/**
 * The manifest as it is put in `folder`: a fixture about its library keeps its "library_path" and
 * gets the library it names made next to it (tests/helpers/bad-corpus.ts); the others get a real one.
 */
function placeManifest(c: Case, folder: string, manifest: string, library: string): void {
  const e = expected[c.file];
  if (e?.library) {
    writeFileSync(manifest, c.text);
    materializeLibrary(e, c.text, folder);
  } else writeFileSync(manifest, swapLibrary(c.text, library));
}

/** The loader's lines about opening a library, from one or more runs' stderr. */
const libraryLines = (...stderr: string[]) =>
  stderr
    .flatMap((e) => e.split('\n'))
    .filter((l) => /shared object|ELF|file too short|Is a directory|failed to load|wrong bit-type|Failed loading library/.test(l))
    .join('\n');

/** The loader's log line that best explains the outcome: its first warning or error, else the line
 * that names the file. */
function telling(stderr: string, file: string): string {
  const lines = stderr.split('\n').map((l) => l.replace(/^\[Vulkan Loader\] /, '').trim());
  const line = lines.find((l) => /^(WARNING|ERROR)\b/.test(l)) ?? lines.filter((l) => l.includes(file)).pop() ?? '';
  return line.replace(/\s+/g, ' ').slice(0, 160);
}

/** A layer manifest standing in for a meta-layer's component (same folder, real library). */
function componentManifest(name: string): string {
  const layer = {
    name,
    type: 'GLOBAL',
    library_path: LAYER_LIBRARY,
    api_version: '1.3.239',
    implementation_version: '1',
    description: 'component stand-in',
    disable_environment: { DISABLE_STRATA_COMPONENT: '1' },
  };
  return JSON.stringify({ file_format_version: '1.1.1', layer }, null, 2);
}

type Seen = Omit<Observation, 'libraryLog' | 'lint' | 'lintMessages'>;
interface Notes {
  stderr: string[];
  lint: string[] | null;
  lintMessages: string[];
}

/** lint.files on the manifest as placed for the loader (its library beside it), before the loader runs. */
async function lintPlaced(c: Case, manifest: string, notes: Notes): Promise<void> {
  if (!expected[c.file]?.library) return;
  const [result] = await lintFiles({ paths: [manifest] });
  notes.lint = result!.diagnostics.map((d) => `${String(d.code)} ${d.severity}`).sort();
  notes.lintMessages = result!.diagnostics.map((d) => (typeof d.message === 'string' ? d.message : d.message.value));
}

async function observeLayer(c: Case, libDir: string | undefined, notes: Notes): Promise<Seen> {
  const home = makeTempHome();
  try {
    const folder = c.role === 'implicit-layer' ? join(home.env.XDG_CONFIG_HOME!, 'vulkan', 'implicit_layer.d') : join(home.dir, 'explicit_layer.d');
    mkdirSync(folder, { recursive: true });
    // System folders stay out (XDG_*_DIRS inside the temp HOME); only /etc/vulkan is fixed in the loader.
    const env = {
      ...home.env,
      XDG_DATA_DIRS: join(home.dir, 'data-dirs'),
      XDG_CONFIG_DIRS: join(home.dir, 'config-dirs'),
      VK_DRIVER_FILES: LAVAPIPE_MANIFEST,
      VK_LOADER_DEBUG: 'all',
      ...(c.role === 'implicit-layer' ? {} : { VK_LAYER_PATH: folder }),
    };
    placeManifest(c, folder, join(folder, c.file), LAYER_LIBRARY);
    await lintPlaced(c, join(folder, c.file), notes);
    // The layers the loader should list if it takes the file: those it reads (`layers` wins over
    // `layer`); a non-string name is listed as "" if at all.
    const entries = parseManifest(c.text).manifest;
    const defined = entries?.kind === 'layer' ? entries.layers : [];
    for (const layer of defined)
      for (const comp of layer.component_layers?.value ?? [])
        if (comp.value !== undefined) writeFileSync(join(folder, `component-${comp.value}.json`), componentManifest(comp.value));

    const list = await runProbe(['layers'], env, LIST_TIMEOUT_MS, libDir);
    notes.stderr.push(list.stderr);
    const log = telling(list.stderr, c.file);
    const facts = list.stdout.trim().split('\n').filter(Boolean).join('; ');
    if (list.signal && !list.timedOut) return { verdict: 'crashes', facts: `killed by ${list.signal}`, log };
    const head = /^layers (-?\d+) (\d+)$/m.exec(list.stdout);
    if (!head) return { verdict: `unexpected: ${list.timedOut ? 'timed out' : 'no result line'}`, facts, log };
    const result = Number(head[1]);
    if (result === VK_ERROR_OUT_OF_HOST_MEMORY) return { verdict: 'fails', facts, log };
    if (result !== 0) return { verdict: `unexpected: VkResult ${result}`, facts, log };
    const listed = new Set([...list.stdout.matchAll(/^layer (.*)$/gm)].map((m) => m[1]!));
    // No layer the loader could read (empty file, root not an object, no "layer"/"layers" of the right
    // type): the file meant to define one and the loader lists none. Only `"layers": []` defines none.
    if (defined.length === 0 && !(entries?.kind === 'layer' && entries.layersArray?.value?.length === 0))
      return { verdict: listed.size === 0 ? 'rejects' : `unexpected: lists ${[...listed].join(', ')}`, facts, log };
    const names = defined.map((l) => (l.isObject ? (l.name?.value ?? (l.name ? '' : undefined)) : undefined));
    if (names.some((n) => n === undefined || !listed.has(n))) return { verdict: 'rejects', facts, log };
    for (const [i, name] of (names as string[]).entries()) {
      if (name === '') return { verdict: 'unusable', facts: `${facts}; listed with an empty name`, log };
      const create = await runProbe(c.role === 'implicit-layer' ? ['create'] : ['create', name], env, CREATE_TIMEOUT_MS, libDir);
      notes.stderr.push(create.stderr);
      // The loader logs each layer it puts in the chain; a meta-layer is replaced by its components.
      const components = defined[i]!.component_layers?.value?.map((x) => x.value ?? '');
      const inserted = (components ?? [name]).every((n) => create.stderr.includes(`Insert instance layer "${n}"`));
      const createdWith = /^create 0$/m.test(create.stdout) && inserted;
      if (!createdWith) {
        const why = create.timedOut
          ? `create with ${name}: no answer in ${CREATE_TIMEOUT_MS} ms`
          : create.signal
            ? `create with ${name}: killed by ${create.signal}`
            : `create with ${name}: ${create.stdout.trim().replace(/\n/g, '; ')}`;
        return { verdict: 'unusable', facts: `${facts}; ${why}`, log: telling(create.stderr, c.file) || log };
      }
    }
    return { verdict: 'loads', facts, log };
  } finally {
    home.cleanup();
  }
}

async function observeDriver(c: Case, libDir: string | undefined, notes: Notes): Promise<Seen> {
  const home = makeTempHome();
  try {
    const manifest = join(home.dir, c.file);
    placeManifest(c, home.dir, manifest, DRIVER_LIBRARY);
    await lintPlaced(c, manifest, notes);
    const env = {
      ...home.env,
      XDG_DATA_DIRS: join(home.dir, 'data-dirs'),
      XDG_CONFIG_DIRS: join(home.dir, 'config-dirs'),
      VK_DRIVER_FILES: manifest,
      VK_LOADER_DEBUG: 'all',
    };
    const run = await runProbe(['create'], env, LIST_TIMEOUT_MS, libDir);
    notes.stderr.push(run.stderr);
    const log = telling(run.stderr, c.file);
    const facts = run.stdout.trim().split('\n').filter(Boolean).join('; ');
    if (run.signal && !run.timedOut) return { verdict: 'crashes', facts: `killed by ${run.signal}`, log };
    const create = /^create (-?\d+)$/m.exec(run.stdout);
    if (!create) return { verdict: `unexpected: ${run.timedOut ? 'timed out' : 'no result line'}`, facts, log };
    const result = Number(create[1]);
    if (result === VK_ERROR_OUT_OF_HOST_MEMORY) return { verdict: 'fails', facts, log };
    if (result === VK_ERROR_INCOMPATIBLE_DRIVER) return { verdict: 'rejects', facts, log };
    if (result !== 0) return { verdict: `unexpected: VkResult ${result}`, facts, log };
    const devices = /^devices 0 (\d+)$/m.exec(run.stdout);
    return { verdict: devices && Number(devices[1]) > 0 ? 'loads' : 'rejects', facts, log };
  } finally {
    home.cleanup();
  }
}

async function observe(c: Case, libDir?: string): Promise<Observation> {
  const notes: Notes = { stderr: [], lint: null, lintMessages: [] };
  const seen = await (c.role === 'driver' ? observeDriver(c, libDir, notes) : observeLayer(c, libDir, notes));
  return { ...seen, libraryLog: libraryLines(...notes.stderr), lint: notes.lint, lintMessages: notes.lintMessages };
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join(' | ')
        .trimEnd(),
    )
    .join('\n');
}

const expected = readBadCorpus();
const corpus: Case[] = Object.entries(expected).map(([file, e]) => ({ file, role: e.role, text: readFileSync(join(BAD_CORPUS_DIR, file), 'utf8') }));
const observed = new Map<string, Promise<Map<string, Observation>>>();
/** The corpus through one loader: the system's (Debian 1.3.239) or a matrix build's folder. */
function observeCorpus(libDir?: string): Promise<Map<string, Observation>> {
  let o = observed.get(libDir ?? '');
  if (!o)
    observed.set(
      libDir ?? '',
      (o = mapConcurrently(corpus, WORKERS, (c) => observe(c, libDir)).then((obs) => new Map(corpus.map((c, i) => [c.file, obs[i]!])))),
    );
  return o;
}

const goodLayer = (extra: object = {}) =>
  JSON.stringify({
    file_format_version: '1.2.0',
    layer: {
      name: 'VK_LAYER_strata_good',
      type: 'GLOBAL',
      library_path: 'placeholder.so',
      api_version: '1.3.239',
      implementation_version: '1',
      description: 'well-formed',
      ...extra,
    },
  });

test('the oracle itself: well-formed layers and lavapipe load, an absent layer is not listed', async () => {
  const controls: [Case, LoaderVerdict][] = [
    [{ file: 'good-explicit.json', role: 'explicit-layer', text: goodLayer() }, 'loads'],
    [{ file: 'good-implicit.json', role: 'implicit-layer', text: goodLayer({ disable_environment: { DISABLE_STRATA_GOOD: '1' } }) }, 'loads'],
    [{ file: 'good-driver.json', role: 'driver', text: readFileSync(LAVAPIPE_MANIFEST, 'utf8') }, 'loads'],
    [
      {
        file: 'good-meta.json',
        role: 'explicit-layer',
        text: JSON.stringify({
          file_format_version: '1.1.1',
          layer: { ...JSON.parse(goodLayer()).layer, library_path: undefined, component_layers: ['VK_LAYER_strata_part'] },
        }),
      },
      'loads',
    ],
    [{ file: 'absent.json', role: 'explicit-layer', text: goodLayer({ type: 'DEVICE' }) }, 'rejects'],
  ];
  const got = await mapConcurrently(controls, WORKERS, ([c]) => observe(c));
  controls.forEach(([c, want], i) => assert.equal(got[i]!.verdict, want, `${c.file}: ${got[i]!.facts} | ${got[i]!.log}`));
});

test('the real loader does with every bad/ fixture what expected.json says', { timeout: 120_000 }, async (t) => {
  const started = Date.now();
  const obs = await observeCorpus();
  t.diagnostic(`${corpus.length} fixtures against loader 1.3.239 in ${((Date.now() - started) / 1000).toFixed(1)} s, ${WORKERS} at a time`);
  const rows = [['file', 'role', 'expected', 'loader said', 'probe', "loader's log"]];
  for (const c of corpus) {
    const o = obs.get(c.file)!;
    if (o.verdict !== expected[c.file]!.loader) rows.push([c.file, c.role, expected[c.file]!.loader, o.verdict, o.facts, o.log]);
  }
  assert.equal(rows.length, 1, `expected.json's "loader" disagrees with the real loader:\n${table(rows)}`);
});

/**
 * The fixtures about their library (expected.json `library`): for each, the loader's own log says what
 * Strata's diagnostic says (dlerror's text, "failed to load", "wrong bit-type": `loaderLog`), and
 * lint.files on the very files the loader read gives exactly the expected codes, with an error iff
 * this loader does not load the layer or driver (or the lower severity expected.json gives and why).
 */
/** The loader's log lines a diagnostic quotes ("Requested layer "NAME" failed to load."), the user's search terms in VK_LOADER_DEBUG's output. */
const quotedLoaderLines = (o: Observation) => o.lintMessages.flatMap((m) => [...m.matchAll(/\("(Requested layer "[^"]*" [^"]*)"\)/g)].map((q) => q[1]!));

function libraryDisagreements(obs: Map<string, Observation>, version: string): string[][] {
  const rows: string[][] = [];
  for (const c of corpus) {
    const e = expected[c.file]!;
    if (!e.library) continue;
    const o = obs.get(c.file)!;
    if (e.loaderLog && !new RegExp(e.loaderLog).test(o.libraryLog))
      rows.push([c.file, `log /${e.loaderLog}/`, o.libraryLog.replace(/\s+/g, ' ').slice(0, 240) || '(no line about the library)']);
    // A quoted line is checked where this loader logged one of its kind (an explicit layer's "!" line needs an application that enables it).
    for (const line of quotedLoaderLines(o))
      if (o.libraryLog.includes('Requested layer "') && !o.libraryLog.includes(line))
        rows.push([c.file, `the diagnostic quotes ${line}`, o.libraryLog.replace(/\s+/g, ' ').slice(0, 240)]);
    const codes = (o.lint ?? []).map((l) => l.split(' ')[0]!);
    if (JSON.stringify(codes) !== JSON.stringify(e.codes)) rows.push([c.file, `codes ${e.codes.join(', ')}`, (o.lint ?? ['(not linted)']).join(', ')]);
    const severities = (o.lint ?? []).map((l) => Number(l.split(' ')[1]));
    const verdict = expectedVerdict(e, version);
    const want = e.lintSeverity ? (e.lintSeverity === 'warning' ? 2 : 3) : verdict === 'loads' ? null : 1;
    if (want !== null ? Math.min(...severities) !== want : severities.includes(1))
      rows.push([c.file, `severity ${want ?? 'below error'} (loader: ${verdict})`, (o.lint ?? []).join(', ')]);
  }
  return rows;
}

test('library_path fixtures: the loader logs what the lint says, and lint.files on the same files agrees with the loader', async () => {
  const obs = await observeCorpus();
  const libraryCases = corpus.filter((c) => expected[c.file]!.library);
  assert.ok(libraryCases.length >= 10, `only ${libraryCases.length} library fixtures`);
  const rows = libraryDisagreements(obs, '1.3.239');
  assert.equal(rows.length, 0, `loader 1.3.239 and the library lint disagree:\n${table([['file', 'expected', 'observed'], ...rows])}`);
  const quotedAndLogged = libraryCases.filter((c) => quotedLoaderLines(obs.get(c.file)!).some((line) => obs.get(c.file)!.libraryLog.includes(line)));
  assert.ok(quotedAndLogged.length >= 1, 'no diagnostic quotes a line the loader logged');
});

test('invalid JSON: the loader fails the whole enumeration with exactly VK_ERROR_OUT_OF_HOST_MEMORY (an empty file is skipped)', async () => {
  const obs = await observeCorpus();
  const invalid = corpus.filter((c) => expected[c.file]!.codes.includes('manifest/invalid-json'));
  assert.ok(invalid.length >= 5, `only ${invalid.length} invalid-JSON fixtures`);
  for (const c of invalid) {
    // loader 1.3.239 treats an empty file as "no JSON" and moves on, with no log line; any
    // syntax error in a non-empty file makes cJSON fail and the loader return the error.
    const want: LoaderVerdict = c.text.trim() === '' ? 'rejects' : 'fails';
    assert.equal(expected[c.file]!.loader, want, `${c.file}: expected.json`);
    assert.equal(obs.get(c.file)!.verdict, want, `${c.file}: ${obs.get(c.file)!.facts}`);
    if (want === 'fails') assert.match(obs.get(c.file)!.facts, new RegExp(`^(layers|create) ${VK_ERROR_OUT_OF_HOST_MEMORY}\\b`), c.file);
  }
});

// The same corpus through every loader of the matrix: where a newer loader treats a file differently,
// expected.json says so per version (`loaderSince`), and the lint's verdict follows the version.
const skipMatrix = matrixSkip();
for (const b of skipMatrix ? [{ version: 'the matrix' } as LoaderBuild] : loaderMatrix()) {
  test(
    `loader ${b.version}: the real loader does with every bad/ fixture what expected.json says for that version`,
    { timeout: 300_000, skip: skipMatrix },
    async () => {
      const obs = await observeCorpus(b.libDir);
      // STRATA_DUMP_VERDICTS=FILE appends what each loader said, to review a new loader's behaviour.
      const dump = process.env['STRATA_DUMP_VERDICTS'];
      if (dump) appendFileSync(dump, `${JSON.stringify({ version: b.version, verdicts: Object.fromEntries([...obs].map(([f, o]) => [f, o.verdict])) })}\n`);
      const rows = [['file', 'role', 'expected', 'loader said', 'probe', "loader's log"]];
      for (const c of corpus) {
        const want = expectedVerdict(expected[c.file]!, b.version);
        const o = obs.get(c.file)!;
        if (o.verdict !== want) rows.push([c.file, c.role, want, o.verdict, o.facts, o.log]);
      }
      assert.equal(rows.length, 1, `loader ${b.version}: expected.json disagrees with the real loader:\n${table(rows)}`);
      // The lint for this version (the rules table: json-helpers, invalid-json-skips-file, strict-manifest-types …)
      // against what this loader did: an error iff it does not simply load the file, and for invalid JSON,
      // whether it fails every enumeration or skips the file.
      const lintRows = [['file', 'loader said', 'lint says']];
      for (const c of corpus) {
        const e = expected[c.file]!;
        if (e.library || e.lintSeverity) continue;
        const verdict = obs.get(c.file)!.verdict;
        const diagnostics = lintManifest(parseManifest(c.text), { role: c.role, loaderVersion: b.version });
        const text = (d: (typeof diagnostics)[number]) => (typeof d.message === 'string' ? d.message : d.message.value);
        const says = diagnostics.map((d) => `${String(d.code)} ${d.severity}: ${text(d)}`);
        const hasError = diagnostics.some((d) => d.severity === DiagnosticSeverity.Error);
        const invalid = diagnostics.find((d) => d.code === 'manifest/invalid-json' && /^Invalid JSON/.test(text(d)));
        const failsAll = invalid ? / then fails vkEnumerateInstance/.test(text(invalid)) : verdict === 'fails';
        if (hasError !== (verdict !== 'loads') || (invalid && failsAll !== (verdict === 'fails')))
          lintRows.push([c.file, verdict, says.join(' | ').slice(0, 300)]);
      }
      assert.equal(lintRows.length, 1, `loader ${b.version}: the lint for this version disagrees with the real loader:\n${table(lintRows)}`);
      const library = libraryDisagreements(obs, b.version);
      assert.equal(library.length, 0, `loader ${b.version} and the library lint disagree:\n${table([['file', 'expected', 'observed'], ...library])}`);
    },
  );
}
