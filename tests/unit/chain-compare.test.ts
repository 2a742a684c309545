import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLayerChain, type ChainManifest } from '../../shared/loader/chain';
import { compareChainsAcrossVersions, differingVersions, ruleBoundaries } from '../../shared/loader/chain-compare';

const layer = (kind: 'implicit_layer' | 'explicit_layer', name: string, extra: Record<string, unknown> = {}): ChainManifest => ({
  path: `/${kind}/${name}.json`,
  kind,
  origin: 'test',
  problem: null,
  text: JSON.stringify({
    file_format_version: '1.2.0',
    layer: { name, type: 'GLOBAL', library_path: `lib${name}.so`, api_version: '1.3.0', implementation_version: '1', description: 'd', ...extra },
  }),
});

const implicit = [layer('implicit_layer', 'I', { disable_environment: { DISABLE_I: '1' } })];
const explicit = [layer('explicit_layer', 'A')];
const chainAt = (env: Record<string, string>) => async (version: string) =>
  computeLayerChain({ implicit, explicit, env, app: { path: '/app', requestedLayers: [] }, loaderVersion: version });

test('rule boundaries between two versions are the releases where a modeled rule arrives', () => {
  // Every modeled rule is a boundary (the chain is computed there; only a change is reported).
  assert.deepEqual(ruleBoundaries('1.3.275', '1.4.359'), [
    '1.3.302',
    '1.4.303',
    '1.4.309',
    '1.4.323',
    '1.4.324',
    '1.4.325',
    '1.4.326',
    '1.4.329',
    '1.4.333',
    '1.4.336',
    '1.4.337',
    '1.4.340',
    '1.4.347',
    '1.4.357',
    '1.4.358',
    '1.4.359',
  ]);
  assert.deepEqual(ruleBoundaries('1.4.359', '1.3.275'), ruleBoundaries('1.3.275', '1.4.359'), 'order of the pair does not matter');
  assert.deepEqual(ruleBoundaries('1.4.341', '1.4.346'), []);
});

test('a difference is pinned to the release and the rule that make it', async () => {
  const c = await compareChainsAcrossVersions(['1.3.275', '1.4.341'], chainAt({ VK_INSTANCE_LAYERS: 'A:I' }));
  assert.equal(c.same, false);
  assert.deepEqual(
    c.chains.map((x) => x.chain.chain.map((e) => e.name)),
    [
      ['I', 'A'],
      ['A', 'I'],
    ],
  );
  assert.equal(c.changes.length, 1);
  assert.equal(c.changes[0]!.at, '1.4.326');
  assert.deepEqual(
    c.changes[0]!.rules.map((r) => r.id),
    // The settings file's rule of that release (settings-null-check) cannot matter without a settings file: not named.
    ['instance-layers-order-implicit'],
  );
  assert.deepEqual(c.changes[0]!.before.chain, ['I', 'A']);
  assert.deepEqual(c.changes[0]!.after.chain, ['A', 'I']);
});

test('the same chain on every version: no changes', async () => {
  const c = await compareChainsAcrossVersions(['1.3.239', '1.3.275', '1.4.359'], chainAt({}));
  assert.equal(c.same, true);
  assert.deepEqual(c.changes, []);
});

test('differingVersions: the versions whose chain differs from the one shown, with only the rules that make the difference', async () => {
  const env = { VK_INSTANCE_LAYERS: 'A:I' };
  const at = (version: string) => computeLayerChain({ implicit, explicit, env, app: { path: '/app', requestedLayers: [] }, loaderVersion: version });
  const shown = { version: '1.4.359', chain: at('1.4.359') };
  const d = differingVersions(shown, ['1.3.239', '1.3.275', '1.4.341', '1.4.359'], at);
  assert.deepEqual(
    d.map((x) => x.version),
    ['1.3.239', '1.3.275'],
  );
  // Between 1.3.275 and 1.4.359 some twenty rules arrive; the chain changes at one of them.
  assert.deepEqual(d[1]!.rules, ['instance-layers-order-implicit']);
  assert.ok(d[0]!.rules.includes('instance-layers-order-implicit'), JSON.stringify(d));
  assert.ok(!d[0]!.rules.includes('layers-allow'), `nothing here is filtered: ${JSON.stringify(d[0])}`);
});
