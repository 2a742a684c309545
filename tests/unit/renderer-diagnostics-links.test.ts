import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnosticCodes } from '../../shared/lint/diagnostic-codes';
import { isRuleCode, layersIn, messageParts, ruleForMessage, ruleReference } from '../../renderer/src/diagnostics/message-links';
import { filesIn } from '../../renderer/src/diagnostics/log-groups';
import { liveCounts, overrideWarningsNote } from '../../renderer/src/sessions/session-notes';
import { rowAt, rowOffsets, wrappedLineCount, wrappedWindow } from '../../renderer/src/virtual/wrapped-rows';

// Lines as loader 1.3.239 prints them (captured from `strata launch --profile … -- vulkaninfo --summary`).
const COMPONENT =
  "WARNING:          verify_meta_layer_component_layers: Meta-layer VK_LAYER_LUNARG_override can't find component layer VK_LAYER_KHRONOS_validation at index 0.  Skipping this layer.";
const SYMBOL = 'WARNING:          vkEnumerateInstanceLayerProperties: Unable to resolve symbol "" in implicit layer library "libVkLayer_MESA_device_select.so"';
const line = (seq: number, text: string, src?: 'loader', level?: 'warning' | 'error') => ({
  kind: 'line' as const,
  seq,
  stream: 'stderr' as const,
  t: seq,
  wall: seq,
  text,
  ...(src ? { src } : {}),
  ...(level ? { level } : {}),
});

test('loader messages map to the rule that describes them; a message that matches none has none', () => {
  assert.equal(ruleForMessage(COMPONENT), 'layer/component-missing');
  assert.equal(ruleForMessage('Layer name my_layer does not conform to naming standard (Policy #LLP_LAYER_3)'), 'layer/name-convention');
  assert.equal(
    ruleForMessage('loader_add_layer_properties: /x.json has unknown layer manifest file version 9.0.0.  May cause errors.'),
    'manifest/unsupported-file-format-version',
  );
  assert.equal(ruleForMessage(SYMBOL), null);
  assert.equal(ruleForMessage('Vulkan Loader Version 1.3.239'), null);
  // Every rule named is one docs/diagnostics.md describes (a test keeps that file and the codes in step).
  for (const code of ['layer/component-missing', 'layer/name-convention'] as const)
    assert.match(ruleReference(code).doc, new RegExp(`docs/diagnostics.md › ${code}`));
  assert.equal(ruleReference('layer/component-missing').spec, diagnosticCodes['layer/component-missing'].spec);
  assert.ok(isRuleCode('layer/duplicate-name'));
  assert.ok(!isRuleCode('toString'));
  assert.ok(!isRuleCode('layer/made-up'));
});

test('a message cut into text, files and layer names in order; a layer name inside a linked path stays part of the path', () => {
  assert.deepEqual(layersIn(COMPONENT), ['VK_LAYER_LUNARG_override', 'VK_LAYER_KHRONOS_validation']);
  const msg = 'Insert instance layer "VK_LAYER_x" (/h/.local/share/vulkan/explicit_layer.d/VK_LAYER_x.json)';
  const parts = messageParts(msg, filesIn(msg));
  assert.deepEqual(parts, [
    { kind: 'text', text: 'Insert instance layer "' },
    { kind: 'layer', text: 'VK_LAYER_x' },
    { kind: 'text', text: '" (' },
    { kind: 'file', text: '/h/.local/share/vulkan/explicit_layer.d/VK_LAYER_x.json' },
    { kind: 'text', text: ')' },
  ]);
  assert.equal(parts.map((p) => p.text).join(''), msg, 'nothing lost or repeated');
  assert.deepEqual(messageParts('plain', []), [{ kind: 'text', text: 'plain' }]);
});

test('the session header counts what the log holds while it runs, and the footer once it ended', () => {
  const records = [
    line(1, COMPONENT, 'loader', 'warning'),
    line(2, COMPONENT, 'loader', 'warning'),
    line(3, 'GPU0: llvmpipe'),
    line(4, SYMBOL, 'loader', 'warning'),
  ];
  const live = liveCounts(records as never[]);
  assert.equal(live.counts.loader.warning, 3);
  assert.equal(live.label, '0 errors, 0 warnings, 0 info (validation) · loader: 0 errors, 3 warnings');
  const footer = { ...live.counts, loader: { ...live.counts.loader, warning: 71 } };
  assert.match(liveCounts(records as never[], footer).label, /loader: 0 errors, 71 warnings/);
});

test('the override warnings of a profile launch are explained once; without a launch profile they are not explained away', () => {
  const records = [...Array.from({ length: 61 }, (_, i) => line(i + 1, COMPONENT, 'loader', 'warning')), line(62, SYMBOL, 'loader', 'warning')];
  const note = overrideWarningsNote({ profile: 'Val' }, records as never[]);
  assert.ok(note);
  assert.match(note, /^61 loader warnings “Meta-layer VK_LAYER_LUNARG_override can't find component layer” \(VK_LAYER_KHRONOS_validation\)/);
  assert.match(note, /DISABLE_STRATA_OVERRIDE=1/);
  assert.match(note, /profile “Val”/);
  assert.equal(overrideWarningsNote({ profile: null }, records as never[]), null, 'no profile: the override was on, so a missing component is real');
  assert.equal(overrideWarningsNote({ profile: 'Val' }, [line(1, SYMBOL, 'loader', 'warning')] as never[]), null);
  // An application's own output that happens to say the same is not the loader's.
  assert.equal(overrideWarningsNote({ profile: 'Val' }, [line(1, COMPONENT)] as never[]), null);
});

test('wrapped rows: lines per text in a monospace column, offsets, and the window for a scroll position', () => {
  assert.equal(wrappedLineCount('', 80), 1);
  assert.equal(wrappedLineCount('x'.repeat(80), 80), 1);
  assert.equal(wrappedLineCount('x'.repeat(81), 80), 2);
  assert.equal(wrappedLineCount(COMPONENT, 60), Math.ceil(COMPONENT.length / 60));
  assert.equal(wrappedLineCount('a\nb\n', 80), 3, 'each hard line at least one');
  assert.equal(wrappedLineCount('\t'.repeat(10), 80), 1);
  assert.equal(wrappedLineCount('\t'.repeat(11), 80), 2, 'tabs at 8');
  assert.equal(wrappedLineCount('abc', 0), 3, 'a column narrower than one character still holds one');

  const offsets = rowOffsets([20, 60, 20, 40]);
  assert.deepEqual([...offsets], [0, 20, 80, 100, 140]);
  assert.equal(rowAt(offsets, 0), 0);
  assert.equal(rowAt(offsets, 19.9), 0);
  assert.equal(rowAt(offsets, 20), 1);
  assert.equal(rowAt(offsets, 79), 1);
  assert.equal(rowAt(offsets, 500), 3);
  assert.deepEqual(wrappedWindow(offsets, 30, 40, 0), { start: 1, end: 2, offset: 20, totalHeight: 140 }, '30…70 lies in row 1 (20…80)');
  assert.deepEqual(wrappedWindow(offsets, 70, 40, 0), { start: 1, end: 4, offset: 20, totalHeight: 140 }, '70…110: rows 1 to 3');
  assert.deepEqual(wrappedWindow(offsets, 0, 1000, 2), { start: 0, end: 4, offset: 0, totalHeight: 140 });
  assert.deepEqual(wrappedWindow(rowOffsets([]), 0, 100), { start: 0, end: 0, offset: 0, totalHeight: 0 });
  // 100k rows: the window is a handful of rows whatever the scroll position.
  const big = rowOffsets(Array.from({ length: 100_000 }, (_, i) => (i % 7 === 0 ? 60 : 20)));
  const w = wrappedWindow(big, 1_000_000, 400);
  assert.ok(w.end - w.start < 40, `${w.end - w.start} rows`);
  assert.ok(big[w.start]! <= 1_000_000 && big[w.end]! >= 1_000_400);
});
