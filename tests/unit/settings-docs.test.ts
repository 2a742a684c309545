import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { settingsDocumentHtml, settingsDocumentMarkdown } from '../../shared/settings/settings-docs';
import { layerSettingsFromManifest, undescribedLayer } from '../../shared/settings/settings-schema';

// shared/settings/settings-docs.ts: the html and md documentation exports, from Debian's validation layer manifest.
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const d = layerSettingsFromManifest(readFileSync('/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json', 'utf8'), VALIDATION)!;

test('markdown: every setting with its key, type, default, range, platforms and dependence; presets; the export’s own value', () => {
  const md = settingsDocumentMarkdown(d, { duplicate_message_limit: 20 });
  assert.ok(md.startsWith(`# ${VALIDATION} settings\n`));
  for (const key of d.byKey.keys()) assert.ok(md.includes(`\`khronos_validation.${key}\``), key);
  assert.match(md, /## Presets/);
  for (const p of d.presets) assert.ok(md.includes(`| ${p.label} |`), p.label);
  assert.match(md, /\| Range \| 128 to 1048576 bytes \|/);
  assert.match(md, /\| Value in this export \| `20` \|/);
  assert.equal(md.match(/Value in this export/g)?.length, 1, 'only the changed value');
  assert.match(md, /\| Requires all of \| debug_action = VK_DBG_LAYER_ACTION_LOG_MSG \|/);
  assert.match(md, /\| Platforms \| Windows, Linux \|/);
  assert.ok(md.endsWith('_Written by Strata from the layer manifest._\n'));
});

test('markdown of a layer without a description lists the values given', () => {
  const md = settingsDocumentMarkdown(undescribedLayer('VK_LAYER_x'), { a: 'p|q', b: [] });
  assert.match(md, /This layer has no settings description in its manifest/);
  assert.match(md, /- `x\.a = p\|q`/);
  assert.match(md, /- `x\.b = \(none\)`/);
});

test('html: a complete document, every text escaped', () => {
  const html = settingsDocumentHtml({ ...d, layerName: 'VK_LAYER_<b>&"x"' }, {});
  assert.ok(html.startsWith('<!DOCTYPE html>'));
  assert.match(html, /<title>VK_LAYER_&lt;b&gt;&amp;&quot;x&quot; settings<\/title>/);
  assert.ok(!html.includes('<b>&'));
  assert.ok(html.trimEnd().endsWith('</html>'));
  for (const s of d.byKey.values()) assert.ok(html.includes(s.key), s.key);
});
