import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { lintManifest, roleFromPath } from '../../shared/lint/manifest-lint';

/** The manifests Debian's packages install load fine in the real loader, so none may get an error. */
const folders = ['/usr/share/vulkan/explicit_layer.d', '/usr/share/vulkan/implicit_layer.d', '/usr/share/vulkan/icd.d'];
const files = folders.flatMap((d) =>
  readdirSync(d)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(d, f)),
);

test('the machine has installed manifests to check (layers and drivers)', () => {
  assert.ok(files.some((f) => f.includes('/icd.d/')));
  assert.ok(files.some((f) => f.includes('_layer.d/')));
  // npm test installs these (scripts/ensure-setup.mjs): the validation layers, Mesa's layers and drivers, MangoHud, vkBasalt.
  for (const name of ['VkLayer_khronos_validation.json', 'VkLayer_MESA_device_select.json', 'lvp_icd.x86_64.json', 'MangoHud.json', 'vkBasalt.json'])
    assert.ok(
      files.some((f) => f.endsWith(`/${name}`)),
      `${name} is installed`,
    );
});

for (const file of files) {
  test(`installed ${file}: no error-level diagnostic`, () => {
    const parsed = parseManifest(readFileSync(file, 'utf8'));
    assert.ok(parsed.manifest, 'recognized as a layer or driver manifest');
    const errors = lintManifest(parsed, { role: roleFromPath(file) }).filter((d) => d.severity === DiagnosticSeverity.Error);
    assert.deepEqual(errors, []);
  });
}
