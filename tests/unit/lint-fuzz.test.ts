import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseManifest } from '../../shared/manifest/manifest-parser';
import { lintManifest, type ManifestRole } from '../../shared/lint/manifest-lint';
import { lintManifestSet } from '../../shared/lint/manifest-set-lint';
import { seededRandom } from '../helpers/seeded-random';

/**
 * 10,000 seeded mutations of valid manifests through parser and lint: none may throw, and every
 * diagnostic must have a code and a range inside the text. A failure prints the seed and iteration,
 * which reproduce it exactly.
 */
const SEED = 0x5eed_2024;
const ITERATIONS = 10_000;

const installed = ['/usr/share/vulkan/explicit_layer.d', '/usr/share/vulkan/implicit_layer.d', '/usr/share/vulkan/icd.d'].flatMap((d) =>
  readdirSync(d)
    .filter((f) => f.endsWith('.json'))
    .map((f) => readFileSync(join(d, f), 'utf8')),
);
const meta = JSON.stringify({
  file_format_version: '1.2.1',
  layers: [
    {
      name: 'VK_LAYER_LUNARG_override',
      type: 'GLOBAL',
      api_version: '1.3.0',
      implementation_version: '1',
      description: 'o',
      component_layers: ['VK_LAYER_KHRONOS_validation'],
      override_paths: ['/opt'],
      blacklisted_layers: ['VK_LAYER_x'],
      app_keys: ['/bin/a'],
      disable_environment: { D: '1' },
      library_arch: '64',
      pre_instance_functions: { vkEnumerateInstanceVersion: 'f' },
    },
  ],
});
// The real validation layer manifest is large; keep its first part so the run stays fast.
const seeds = [...installed.map((t) => (t.length > 4000 ? t.slice(0, 4000) : t)), meta];

const JUNK = ['{', '}', '[', ']', ',', ':', '"', '0', 'null', 'true', '"x"', '\\', '\n', '/*', '\u0000', '\ud800', '-1e999'];
const TYPES = ['1', '"1"', 'true', 'null', '[]', '{}', '[1,"a",{}]', '{"a":{"b":[]}}'];

function mutate(text: string, next: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] as T;
  const at = Math.floor(next() * (text.length + 1));
  switch (Math.floor(next() * 6)) {
    case 0: {
      const code = text.charCodeAt(at) ^ (1 << Math.floor(next() * 7));
      return text.slice(0, at) + String.fromCharCode(Number.isNaN(code) ? 32 : code) + text.slice(at + 1);
    }
    case 1:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(next() * 20));
    case 2:
      return text.slice(0, at);
    case 3:
      return text.slice(0, at) + pick(JUNK) + text.slice(at);
    case 4: {
      // Replace one JSON value (a string, number, literal, [] or {}) with a value of another type.
      const values = [...text.matchAll(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null|\[\]|\{\}/g)];
      if (values.length === 0) return text;
      const m = pick(values);
      return text.slice(0, m.index) + pick(TYPES) + text.slice((m.index ?? 0) + m[0].length);
    }
    default: {
      const a = Math.floor(next() * text.length);
      return text.slice(0, a) + text.slice(a, a + Math.floor(next() * 40)).repeat(2) + text.slice(a);
    }
  }
}

test(`${ITERATIONS} seeded mutations through parser and lint: no exception, sane diagnostics`, () => {
  const next = seededRandom(SEED);
  const roles: ManifestRole[] = ['explicit-layer', 'implicit-layer', 'driver', 'unknown'];
  const batch: { uri: string; parsed: ReturnType<typeof parseManifest> }[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    let text = seeds[i % seeds.length] as string;
    const rounds = 1 + Math.floor(next() * 3);
    for (let k = 0; k < rounds; k++) text = mutate(text, next);
    const role = roles[i % roles.length] as ManifestRole;
    try {
      const parsed = parseManifest(text);
      const lines = text.split(/\r\n|\r|\n/).length;
      for (const d of lintManifest(parsed, { role })) {
        assert.ok(typeof d.code === 'string' && d.code.length > 0);
        assert.ok(d.range.start.line >= 0 && d.range.end.line < lines, `range inside the text: ${JSON.stringify(d.range)}`);
      }
      batch.push({ uri: `mem:${i}`, parsed });
      if (batch.length === 50) lintManifestSet(batch.splice(0));
    } catch (e) {
      assert.fail(`seed ${SEED}, iteration ${i}, text ${JSON.stringify(text)}: ${e instanceof Error ? e.stack : String(e)}`);
    }
  }
});
