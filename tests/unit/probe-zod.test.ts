import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, transformSync } from 'esbuild';
import { APP_ROOT } from '../helpers/strata-cli';

/**
 * native-bridge/probe-zod.ts is the probe's zod (scripts/build.mjs bundles it on its own, and the
 * probe's bundle requires it where its modules import zod): it must export every member those
 * modules use, or a probe fails at run time in the path that uses the missing one; and no more,
 * or requiring it starts more of zod than the probe needs. The probe's modules are the files
 * esbuild bundles from native-bridge/probe.ts; what each uses is read from its JavaScript (types gone).
 */
test("native-bridge/probe-zod.ts exports exactly the zod members the probe's modules use, each imported as `* as z`", async () => {
  const bundled = await build({
    absWorkingDir: APP_ROOT,
    entryPoints: ['native-bridge/probe.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    metafile: true,
    logLevel: 'silent',
    external: ['koffi', 'electron', 'zod'],
  });
  const sources = Object.keys(bundled.metafile.inputs).filter((f) => !f.includes('node_modules') && f.endsWith('.ts'));
  assert.ok(sources.includes('native-bridge/vulkan-queries.ts'), sources.join(', '));
  const used = new Set<string>();
  let importers = 0;
  for (const file of sources) {
    const js = transformSync(readFileSync(join(APP_ROOT, file), 'utf8'), { loader: 'ts', format: 'esm' }).code;
    const imports = [...js.matchAll(/import\s+([^;]*?)\s+from\s+["']zod["']/g)].map((m) => m[1]!);
    if (imports.length === 0) continue;
    importers++;
    assert.deepEqual(imports, ['* as z'], `${file}: zod imported otherwise than as \`* as z\``);
    for (const m of js.matchAll(/(?<![\w$.])z\.([A-Za-z_$][\w$]*)/g)) used.add(m[1]!);
    assert.doesNotMatch(js.replace(/(?<![\w$.])z\.[A-Za-z_$]/g, ''), /(?<![\w$.])z(?![\w$])(?!\s+from)/, `${file}: z used as a value, not only its members`);
  }
  assert.ok(importers > 0, 'no probe module imports zod');
  const exported = (readFileSync(join(APP_ROOT, 'native-bridge', 'probe-zod.ts'), 'utf8').match(/export\s*\{([^}]*)\}\s*from\s*'zod'/)?.[1] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  assert.deepEqual([...exported].sort(), [...used].sort());
});
