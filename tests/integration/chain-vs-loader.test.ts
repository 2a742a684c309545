import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { explainChain } from '../../main/chain/chain-service';
import { makeTempHome } from '../helpers/temp-home';
import { APP_ROOT } from '../helpers/strata-cli';
import { mapConcurrently } from '../helpers/concurrent-map';
import {
  describeScenario,
  FOLDERS,
  makeScenario,
  manifestLayers,
  pinnedScenarios,
  RECORDING_LAYERS,
  settingsFileJson,
  type Scenario,
  type ScenarioManifest,
} from '../helpers/chain-scenarios';
import { loaderMatrix, matrixSkip, type LoaderBuild } from '../helpers/loader-builds';
import { CHAIN_RULE_IDS, compareLoaderVersions, LOADER_RULES, loaderHas, setRuleSinceForTest, type LoaderRuleId } from '../../shared/loader/loader-rules';

/**
 * Six real loaders (tests/helpers/loader-builds.ts: 1.3.239 … 1.4.359, built from the unmodified
 * Khronos sources) against shared/loader/chain.ts: each seeded scenario
 * (tests/helpers/chain-scenarios.ts) is laid out in its own temp HOME with recording layers
 * (tests/fixtures/layers/recording-layer.c, one copy of the library per manifest so the log tells
 * which manifest the loader used), the probe (chain-probe.c) creates an instance under lavapipe, and
 * the layers' log (order = chain, application side first) and the VkResult must equal the model's.
 * About half the scenarios set VK_LOADER_LAYERS_ENABLE / _DISABLE; the model gets the version the
 * probe's loader reports, so the version-keyed rules are the ones this loader has.
 */

const LAVAPIPE_MANIFEST = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const SCENARIOS = Number(process.env['STRATA_CHAIN_SCENARIOS'] ?? 300);
const FIRST_SEED = Number(process.env['STRATA_CHAIN_SEED'] ?? 1);
const WORKERS = 2;
const VK_RESULT: Record<string, number | string> = { VK_SUCCESS: 0, VK_ERROR_LAYER_NOT_PRESENT: -6, VK_ERROR_INITIALIZATION_FAILED: -3, LOADER_CRASH: 'crash' };

const work = realpathSync(mkdtempSync(join(tmpdir(), 'strata-chain-vs-loader-')));
after(() => (process.env['STRATA_CHAIN_KEEP'] ? undefined : rmSync(work, { recursive: true, force: true })));

function build(): { probe: string; libs: Map<string, string> } {
  assert.ok(existsSync(LAVAPIPE_MANIFEST), `${LAVAPIPE_MANIFEST} is missing (mesa-vulkan-drivers is needed)`);
  const src = join(APP_ROOT, 'tests', 'fixtures', 'layers');
  const probe = join(work, 'chain-probe');
  execFileSync('gcc', ['-O1', '-Wall', '-o', probe, join(src, 'chain-probe.c'), '-lvulkan'], { stdio: 'pipe' });
  // The loader dlopens each library path once: one library per layer name, copied per manifest.
  const libs = new Map<string, string>();
  for (const name of RECORDING_LAYERS) {
    const out = join(work, `lib${name}.so`);
    execFileSync('gcc', ['-O1', '-Wall', '-shared', '-fPIC', `-DLAYER_NAME="${name}"`, '-o', out, join(src, 'recording-layer.c'), '-ldl'], { stdio: 'pipe' });
    libs.set(name, out);
  }
  return { probe, libs };
}

interface Outcome {
  result: number | string;
  chain: string[];
}

function run(probe: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve) => {
    execFile(probe, args, { env, timeout: 20_000, killSignal: 'SIGKILL', encoding: 'utf8' }, (error, stdout, stderr) => {
      // A crash is reported by its signal, a hang by the SIGKILL of the timeout: the model's LOADER_CRASH covers both.
      const signal = error && 'signal' in error && error.signal ? `\nkilled by ${error.signal}` : '';
      resolve(error && !stdout ? `error: ${error.message} ${stderr}${signal}` : `${stdout}${signal}`);
    });
  });
}

interface Checked {
  failure: string | null;
  /** What the scenario exercised: reason codes the model gave, plus outcome facts. */
  covered: Set<string>;
  /** Recomputes the model (same manifests and environment) and says whether it still equals the loader. */
  agreesAgain(): Promise<boolean>;
  cleanup(): void;
}

async function check(s: Scenario, probe: string, libs: Map<string, string>, build: LoaderBuild): Promise<Checked> {
  const libDir = build.libDir;
  const home = makeTempHome();
  let keep = false;
  try {
    const fill = (v: string, lib = '') => v.replaceAll('$HOME', home.dir).replaceAll('$APP', probe).replaceAll('$LIB', lib);
    for (const m of s.manifests) {
      const folder = join(home.dir, FOLDERS[m.folder]);
      mkdirSync(folder, { recursive: true });
      // One copy of the library per layer of the manifest (a manifest may hold several: "layers").
      const layers = manifestLayers(m).map((layer, i) => {
        if (layer['library_path'] !== '$LIB') return layer;
        const lib = join(folder, `lib-${m.file.replace(/\.json$/, '')}${i ? `-${i}` : ''}.so`);
        copyFileSync(libs.get(String(layer['name']))!, lib);
        return { ...layer, library_path: lib };
      });
      const json = m.extraLayers ? { file_format_version: '1.2.0', layers } : { file_format_version: '1.2.0', layer: layers[0] };
      writeFileSync(join(folder, m.file), fill(JSON.stringify(json, null, 2)));
    }
    if (s.settings) {
      // Where every loader of the matrix that reads one looks (XDG_DATA_HOME is searched before and after 1.4.324);
      // builds of 1.3.251–1.3.252 look in vulkan/settings.d (the table's own row: a STRATA_RULE_FLIP of it does not move the file).
      const renamed = compareLoaderVersions(build.version, LOADER_RULES.find((r) => r.id === 'settings-folder-renamed')!.since) >= 0;
      const folder = join(home.env['XDG_DATA_HOME']!, 'vulkan', renamed ? 'loader_settings.d' : 'settings.d');
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'vk_loader_settings.json'), fill(JSON.stringify(settingsFileJson(s.settings), null, 2)));
    }
    const log = join(home.dir, 'layers.log');
    const env: Record<string, string> = {
      ...(home.env as Record<string, string>),
      XDG_DATA_DIRS: join(home.dir, 'data-dirs'),
      XDG_CONFIG_DIRS: join(home.dir, 'config-dirs'),
      VK_DRIVER_FILES: LAVAPIPE_MANIFEST,
      STRATA_LAYER_LOG: log,
      LD_LIBRARY_PATH: libDir,
    };
    for (const [k, v] of Object.entries(s.env)) env[k] = fill(v);

    const out = await run(probe, [s.apiVersion, ...s.requested], env);
    const m = /^create (-?\d+)$/m.exec(out);
    const real: Outcome = {
      result: m ? Number(m[1]) : /killed by SIG(SEGV|ABRT|BUS|KILL)/.test(out) ? 'crash' : `no result: ${out.trim()}`,
      chain: existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : [],
    };
    // The model is keyed on the version the loader itself reports (the probe prints it first).
    // A probe that crashed printed nothing (its stdout was a pipe, not flushed): the build's own version then.
    const version = /^loader (\d+\.\d+\.\d+)$/m.exec(out)?.[1] ?? (real.result === 'crash' ? build.version : undefined);
    const loader = version ? { version } : { version: null, why: `the probe did not print it: ${out.trim()}` };
    const modelOutcome = async () => {
      const model = await explainChain({ env }, { app: { path: probe, requestedLayers: s.requested, apiVersion: s.apiVersion }, loader });
      return { model, outcome: { result: VK_RESULT[model.result]!, chain: model.chain.map((e) => `${e.name} ${e.libraryPath}`) } as Outcome };
    };
    const { model, outcome: expected } = await modelOutcome();
    keep = true;
    // A crash is compared by itself: the layers that logged before it are not a chain.
    // Where the model says the loader's behaviour is undefined (it calls into itself), a crash, a hang
    // and VK_ERROR_INITIALIZATION_FAILED all agree with it.
    const undefinedBehaviour = (notes: readonly string[]) => notes.some((n) => n.includes('undefined behaviour'));
    const same = (a: Outcome, b: Outcome, notes: readonly string[]) =>
      b.result === 'crash' && undefinedBehaviour(notes) && (a.result === 'crash' || a.result === -3)
        ? true
        : a.result === 'crash' || b.result === 'crash'
          ? a.result === b.result
          : JSON.stringify(a) === JSON.stringify(b);
    const agreesAgain = async () => {
      const again = await modelOutcome();
      return same(real, again.outcome, again.model.notes);
    };
    // STRATA_CHAIN_KEEP=1 keeps each scenario's HOME and writes how to rerun its probe there (for a debugger).
    const cleanup = () =>
      process.env['STRATA_CHAIN_KEEP']
        ? writeFileSync(join(home.dir, `rerun-${s.seed}.json`), JSON.stringify({ probe, args: [s.apiVersion, ...s.requested], env }))
        : home.cleanup();
    const covered = new Set<string>([...model.chain, ...model.metaLayers, ...model.excluded].flatMap((e) => e.reasons.map((r) => r.code)));
    covered.add(`result ${real.result}`);
    if (s.settings && s.manifests.some((m) => m.extraLayers)) covered.add('settings names a manifest of several layers');
    if (real.chain.length >= 3) covered.add('chain of 3 or more');
    if (same(real, expected, model.notes)) return { failure: null, covered, agreesAgain, cleanup };
    const short = (o: Outcome) => `result ${o.result}\n${o.chain.map((l, i) => `    ${i}. ${l.replace(home.dir, '$HOME')}`).join('\n') || '    (no layers)'}`;
    const failure = [
      describeScenario(s),
      `  loader: ${short(real)}`,
      `  model:  ${short(expected)}`,
      `  model reasons: ${JSON.stringify(model.chain.map((e) => [e.name, e.reasons.map((r) => r.code)]))}`,
      `  model notes: ${JSON.stringify(model.notes).replaceAll(home.dir, '$HOME')}`,
      `  excluded: ${JSON.stringify(model.excluded.map((e) => [e.name, e.reasons.map((r) => r.message)])).replaceAll(home.dir, '$HOME')}`,
    ].join('\n');
    return { failure, covered, agreesAgain, cleanup };
  } finally {
    if (!keep) home.cleanup();
  }
}

/** Reason codes some scenario must reach on every loader, or a green run proves little. */
const NEEDED = [
  'result 0',
  'result -6',
  'chain of 3 or more',
  'implicit/enabled',
  'implicit/not-enabled',
  'implicit/disabled-by-env',
  'implicit/enabled-by-override',
  'explicit/requested-by-app',
  'explicit/vk-instance-layers',
  'explicit/not-requested',
  'meta/expanded',
  'meta/component-missing',
  'meta/component-too-old',
  'override/active',
  'override/component',
  'override/blacklisted',
  'override/app-keys-mismatch',
  'duplicate/shadowed',
  'api-version/older-than-app',
  'filter/disabled',
  'filter/enabled',
  'filter/disable-overridden',
];

/** The version-keyed rules the chain model reads; flipping any of them must make some scenario fail. */
const CHAIN_RULES = CHAIN_RULE_IDS;
/** Rules whose mutation some matrix version caught. */
const killed = new Set<LoaderRuleId>();

const skip = matrixSkip();
const builds: LoaderBuild[] = skip ? [] : loaderMatrix();
let kit: { probe: string; libs: Map<string, string> } | null = null;

for (const b of skip ? [{ version: 'the matrix' } as LoaderBuild] : builds) {
  test(
    `loader ${b.version}: the chain model equals the real loader on ${SCENARIOS} seeded scenarios and the pinned ones, and every version-keyed rule matters`,
    { timeout: 600_000, skip },
    async (t) => {
      kit ??= build();
      const { probe, libs } = kit;
      const scenarios = [...pinnedScenarios(), ...Array.from({ length: SCENARIOS }, (_, i) => makeScenario(FIRST_SEED + i))];
      const checked = await mapConcurrently(scenarios, WORKERS, (s) => check(s, probe, libs, b));
      try {
        const failures = checked.flatMap((c) => (c.failure ? [c.failure] : []));
        assert.equal(
          failures.length,
          0,
          `loader ${b.version}: ${failures.length} of ${scenarios.length} scenarios differ (rerun one with STRATA_LOADER_VERSIONS=${b.version} STRATA_CHAIN_SEED=<seed> STRATA_CHAIN_SCENARIOS=1):\n\n${failures.slice(0, 6).join('\n\n')}`,
        );
        if (SCENARIOS >= 100) {
          const tally = new Map<string, number>();
          for (const c of checked) for (const k of c.covered) tally.set(k, (tally.get(k) ?? 0) + 1);
          // Before 1.3.247 the occurrence nearest the driver wins; after, the first is kept.
          const needed = [
            ...NEEDED,
            ...(loaderHas(b.version, 'first-occurrence-wins') ? [] : ['duplicate/later-occurrence-wins']),
            // A settings file's layers decide the chain on the loaders that read one.
            ...(loaderHas(b.version, 'settings-file')
              ? [
                  'settings/on',
                  'settings/off',
                  'settings/order',
                  'settings/superseded',
                  'settings/not-listed',
                  'result crash',
                  'settings names a manifest of several layers',
                ]
              : []),
          ];
          const unreached = needed.filter((k) => !tally.has(k));
          assert.deepEqual(unreached, [], `rules no scenario reached: ${unreached.join(', ')}; tally ${JSON.stringify(Object.fromEntries(tally))}`);
        }
        // Mutation: each rule flipped for this version (applied ↔ not) must change some prediction away
        // from what the loader did. Sequential: the flip is process-wide while it lasts.
        // STRATA_MUTATION_EACH=1 flips every rule on every version and reports which flips this loader
        // catches: run on the builds either side of a row's boundary, it proves the row's first version.
        const each = process.env['STRATA_MUTATION_EACH'] === '1';
        const caught: string[] = [];
        for (const id of CHAIN_RULES) {
          if (killed.has(id) && !each) continue;
          const since = LOADER_RULES.find((r) => r.id === id)!.since;
          const had = loaderHas(b.version, id);
          setRuleSinceForTest(id, had ? '99.0.0' : '0.0.0');
          try {
            for (const c of checked)
              if (!(await c.agreesAgain())) {
                killed.add(id);
                caught.push(`${id} (${had ? 'turned off' : 'turned on'})`);
                break;
              }
          } finally {
            setRuleSinceForTest(id, since);
          }
        }
        if (each) t.diagnostic(`loader ${b.version}: flipping these rules breaks some scenario: ${caught.join(', ') || 'none'}`);
      } finally {
        for (const c of checked) c.cleanup();
      }
    },
  );
}

// Meta-layer cycles, which the model removes on every version (meta-recursion-check and
// meta-expansion-cycle-break are rows it does not model): a loader that has the row must agree with
// the model, one before it must crash (it recurses until the stack overflows). Run on the builds either
// side of a row with STRATA_RULE_FLIP moving it one release, either expectation fails.
const cycleMeta = (name: string, components: string[], folder: ScenarioManifest['folder']) => ({
  folder,
  file: `${name}.json`,
  layer: {
    name,
    type: 'GLOBAL',
    api_version: '1.1.0',
    implementation_version: '1',
    description: 'meta',
    component_layers: components,
    ...(folder === 'config-implicit' ? { disable_environment: { [`DISABLE_${name}`]: '1' } } : {}),
  },
});
const recordingLayer = (name: string): ScenarioManifest => ({
  folder: 'layer-path-0',
  file: `${name}.json`,
  layer: { name, type: 'GLOBAL', library_path: '$LIB', api_version: '1.3.0', implementation_version: '1', description: 'recording layer' },
});
const CYCLES: { rule: LoaderRuleId; scenario: Scenario }[] = [
  {
    rule: 'meta-recursion-check',
    scenario: {
      seed: 0,
      title: 'three meta-layers in a cycle (through VK_LAYER_PATH), one requested: removed from 1.4.304, a crash before (1.4.303 removes only a cycle of two)',
      apiVersion: '1.1',
      manifests: [
        recordingLayer('VK_LAYER_STRATA_a'),
        cycleMeta('VK_LAYER_STRATA_meta1', ['VK_LAYER_STRATA_a', 'VK_LAYER_STRATA_meta2'], 'layer-path-0'),
        cycleMeta('VK_LAYER_STRATA_meta2', ['VK_LAYER_STRATA_meta3'], 'layer-path-0'),
        cycleMeta('VK_LAYER_STRATA_meta3', ['VK_LAYER_STRATA_meta1'], 'layer-path-0'),
      ],
      env: { VK_LAYER_PATH: '$HOME/layer-path-0' },
      requested: ['VK_LAYER_STRATA_meta1'],
    },
  },
  {
    rule: 'meta-expansion-cycle-break',
    scenario: {
      seed: 0,
      title: 'a settings file turns on two implicit meta-layers that name each other (the loader test of 2feb31c48): no crash from 1.4.357',
      apiVersion: '1.1',
      manifests: [
        cycleMeta('VK_LAYER_STRATA_meta1', ['VK_LAYER_STRATA_meta2'], 'config-implicit'),
        cycleMeta('VK_LAYER_STRATA_meta2', ['VK_LAYER_STRATA_meta1'], 'config-implicit'),
      ],
      env: {},
      requested: [],
      settings: {
        form: 'array',
        entries: [
          {
            layers: ['VK_LAYER_STRATA_meta1', 'VK_LAYER_STRATA_meta2'].map((name) => ({
              control: 'on' as const,
              name,
              ref: { folder: 'config-implicit' as const, file: `${name}.json` },
              treat_as_implicit_manifest: true,
            })),
          },
        ],
      },
    },
  },
];
for (const b of skip ? [{ version: 'the matrix' } as LoaderBuild] : builds)
  for (const { rule, scenario } of CYCLES)
    test(`loader ${b.version}: ${scenario.title} (${rule})`, { skip }, async () => {
      kit ??= build();
      const c = await check(scenario, kit.probe, kit.libs, b);
      try {
        if (loaderHas(b.version, rule)) assert.equal(c.failure, null, `loader ${b.version} has ${rule}: the model must agree\n${c.failure}`);
        else assert.ok(c.covered.has('result crash'), `loader ${b.version} is before ${rule}: it must crash; got ${[...c.covered].join(', ')}`);
      } finally {
        c.cleanup();
      }
    });

test(
  'every version-keyed rule of the chain model is caught by some loader of the matrix when flipped',
  { skip: skip || builds.length < 6 ? 'needs all six loaders' : false },
  () => {
    assert.deepEqual(
      CHAIN_RULES.filter((id) => !killed.has(id)),
      [],
      'flipping these rules changed no prediction on any loader: the scenarios do not reach them',
    );
  },
);
