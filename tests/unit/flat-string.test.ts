import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getHeapSnapshot, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { flatString } from '../../shared/text/flat-string';

// A young-generation collection, which is where V8 drops a flattened rope's last node (a full one keeps it).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options: { type: 'minor' }) => void;

/** The heap's rope nodes (V8's "concatenated string"), counted in a heap snapshot after a young-generation collection. */
async function ropeNodes(): Promise<number> {
  gc({ type: 'minor' });
  let text = '';
  for await (const chunk of getHeapSnapshot()) text += String(chunk);
  const snapshot = JSON.parse(text) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[] };
  const fields = snapshot.snapshot.meta.node_fields;
  const typeNames = snapshot.snapshot.meta.node_types[0];
  const typeAt = fields.indexOf('type');
  let ropes = 0;
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) if (typeNames[snapshot.nodes[i + typeAt]!] === 'concatenated string') ropes++;
  return ropes;
}

/** A message as a diagnostic builds it: a template literal of parts long enough that V8 joins them as a rope. */
const message = (i: number) =>
  `Library ${`/tmp/strata-flat-string-test/share/vulkan/${i}`}/libVkLayer.so does not exist; the loader lists layer ${`VK_LAYER_STRATA_flat_${i}`} but leaves it out (${i % 2 ? 'the first reason, long enough' : 'the other reason, long enough too'}).`;

test('flatString: the same text, and a message kept flat from its making leaves no rope behind', async () => {
  assert.equal(flatString(message(7)), message(7));
  assert.equal(flatString(''), '');
  const base = await ropeNodes();
  // As made, each message is a rope of several nodes (so this check can see them)…
  const asMade = Array.from({ length: 2000 }, (_, i) => message(i));
  const ropesAsMade = (await ropeNodes()) - base;
  assert.ok(ropesAsMade >= 2000 * 3, `${ropesAsMade} rope nodes for 2,000 messages as made`);
  asMade.length = 0;
  const base2 = await ropeNodes();
  // …and flattened as it is made (strataDiagnostic), none is left for the collector to keep.
  const flat = Array.from({ length: 2000 }, (_, i) => flatString(message(i)));
  const left = (await ropeNodes()) - base2;
  assert.ok(left < 200, `${left} rope nodes left for 2,000 messages made flat`);
  assert.equal(flat[5], message(5));
});
