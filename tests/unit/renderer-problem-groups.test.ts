import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildInventory, type ScannedManifest } from '../../shared/discovery/manifest-inventory';
import type { ManifestKind } from '../../shared/loader/search-paths';
import { countSeverities, describeCounts, positionLabel, severityName, splitFix } from '../../renderer/src/problems/diagnostic-severity';
import { estimateGroupHeight, findProblem, flatRows, groupProblems, manifestCount, splitPath, totalCounts } from '../../renderer/src/problems/problem-groups';

function scanned(kind: ManifestKind, order: number, path: string, text: string): ScannedManifest {
  return {
    path,
    kind,
    origin: 'XDG_CONFIG_HOME',
    location: path.slice(0, path.lastIndexOf('/')),
    order,
    readdirOrder: true,
    text,
    problem: null,
    duplicateOf: null,
  };
}
const good = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify(
    {
      file_format_version: '1.2.0',
      layer: { name, type: 'GLOBAL', library_path: 'x.so', api_version: '1.3.0', implementation_version: '1', description: 'd', ...extra },
    },
    null,
    2,
  );

const inventory = buildInventory(
  { implicit_layer: [], explicit_layer: [], driver: [] },
  {
    implicit_layer: [scanned('implicit_layer', 0, '/c/implicit_layer.d/i.json', good('VK_LAYER_i'))],
    explicit_layer: [
      // An error (library_path missing) and a warning (name convention) in one file, warning first in the text.
      scanned(
        'explicit_layer',
        1,
        '/c/explicit_layer.d/two.json',
        JSON.stringify(
          { file_format_version: '1.2.0', layer: { name: 'bad_name', type: 'GLOBAL', api_version: '1.3.0', implementation_version: '1', description: 'd' } },
          null,
          2,
        ),
      ),
      scanned('explicit_layer', 0, '/c/explicit_layer.d/broken.json', '{\n  "file_format_version": "1.2.0",\n  "layer": {"name": "x",}\n}\n'),
      scanned('explicit_layer', 2, '/c/explicit_layer.d/ok.json', good('VK_LAYER_ok')),
    ],
    driver: [scanned('driver', 0, '/c/icd.d/d.json', JSON.stringify({ file_format_version: '1.0.0', ICD: { api_version: '1.3.0' } }))],
  },
);
const groups = groupProblems(inventory);

test('one group per file with diagnostics, in loader order (implicit, explicit by order, drivers); clean files left out', () => {
  assert.deepEqual(
    groups.map((g) => g.path),
    ['/c/implicit_layer.d/i.json', '/c/explicit_layer.d/broken.json', '/c/explicit_layer.d/two.json', '/c/icd.d/d.json'],
  );
  assert.equal(manifestCount(inventory), 5);
});

test('each group counts its severities; rows are worst first, then by position', () => {
  const two = groups.find((g) => g.path.endsWith('two.json'))!;
  assert.equal(two.counts.error, 1);
  assert.equal(two.counts.warning, 1);
  assert.deepEqual(
    two.rows.map((r) => severityName(r.diagnostic.severity)),
    ['error', 'warning'],
  );
  assert.deepEqual(
    two.rows.map((r) => r.diagnostic.code),
    ['layer/missing-library-path', 'layer/name-convention'],
  );
  const broken = groups.find((g) => g.path.endsWith('broken.json'))!;
  assert.equal(broken.rows[0]!.diagnostic.code, 'manifest/invalid-json');
  assert.equal(broken.rows[0]!.diagnostic.range.start.line, 2);
});

test('totals, flat row order, and finding a row by key (null after it is gone)', () => {
  const total = totalCounts(groups);
  assert.equal(total.error, 4);
  assert.equal(total.warning, 1);
  const flat = flatRows(groups);
  assert.equal(flat.length, 5);
  assert.equal(new Set(flat.map((r) => r.key)).size, 5);
  const hit = findProblem(inventory, flat[2]!.key);
  assert.equal(hit?.manifest.path, flat[2]!.path);
  assert.equal(hit?.diagnostic, flat[2]!.diagnostic);
  assert.equal(findProblem(inventory, '/nowhere.json#0'), null);
});

test('severity names, counts and their wording', () => {
  assert.deepEqual(
    [1, 2, 3, 4, undefined].map((s) => severityName(s as 1)),
    ['error', 'warning', 'information', 'hint', 'error'],
  );
  const counts = countSeverities([{ severity: 1 }, { severity: 1 }, { severity: 2 }, { severity: 3 }]);
  assert.deepEqual(counts, { error: 2, warning: 1, information: 1, hint: 0 });
  assert.equal(describeCounts(counts), '2 errors, 1 warning, 1 message');
  assert.equal(describeCounts(countSeverities([])), 'No problems');
});

test('splitFix takes the last " Fix: " off the message; positions are shown 1-based', () => {
  assert.deepEqual(splitFix('Bad thing. Fix: do this.'), { text: 'Bad thing.', fix: 'do this.' });
  assert.deepEqual(splitFix('No fix here'), { text: 'No fix here', fix: null });
  assert.deepEqual(splitFix('Says "Fix: a" inside. Fix: b'), { text: 'Says "Fix: a" inside.', fix: 'b' });
  assert.equal(positionLabel({ line: 4, character: 2 }), '5:3');
  assert.deepEqual(splitPath('/usr/share/vulkan/icd.d/x.json'), { folder: '/usr/share/vulkan/icd.d/', name: 'x.json' });
});

test('a group height estimate (before the virtualised list measures it) grows with its rows and its wrapped lines', () => {
  const groups = groupProblems(inventory);
  const two = groups.find((g) => g.rows.length === 2)!;
  const one = { ...two, rows: two.rows.slice(0, 1) };
  assert.ok(estimateGroupHeight(two, 80) > estimateGroupHeight(one, 80), 'a second row adds height');
  assert.ok(estimateGroupHeight(two, 20) > estimateGroupHeight(two, 200), 'a narrow column wraps into more lines');
  assert.ok(estimateGroupHeight({ ...two, rows: [] }, 80) > 0, 'the header alone has a height');
  assert.equal(estimateGroupHeight(two, 5), estimateGroupHeight(two, 20), 'no column narrower than 20 characters is assumed');
});
