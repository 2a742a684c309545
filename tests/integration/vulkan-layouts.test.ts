/**
 * native-bridge/vulkan-layouts.ts is written by hand; gcc measures the same structs in the
 * installed vulkan_core.h, and any offset or size that differs fails here (before a probe reads
 * a field from the wrong bytes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAYOUT } from '../../native-bridge/vulkan-layouts';

test('every struct offset and size in vulkan-layouts.ts matches gcc on the installed Vulkan headers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-layouts-'));
  try {
    const lines: string[] = [];
    for (const [struct, fields] of Object.entries(LAYOUT)) {
      for (const field of Object.keys(fields)) {
        lines.push(
          field === 'sizeof'
            ? `printf("%s.sizeof %zu\\n", "${struct}", sizeof(${struct}));`
            : `printf("%s.${field} %zu\\n", "${struct}", offsetof(${struct}, ${field}));`,
        );
      }
    }
    writeFileSync(
      join(dir, 'layouts.c'),
      `#include <stdio.h>\n#include <stddef.h>\n#include <vulkan/vulkan_core.h>\nint main(void) {\n${lines.join('\n')}\nreturn 0;\n}\n`,
    );
    execFileSync('gcc', ['-o', join(dir, 'layouts'), join(dir, 'layouts.c')], { stdio: 'pipe' });
    const measured = Object.fromEntries(
      execFileSync(join(dir, 'layouts'), { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((l) => l.split(' ') as [string, string])
        .map(([k, v]) => [k, Number(v)]),
    );
    const ours = Object.fromEntries(Object.entries(LAYOUT).flatMap(([s, fields]) => Object.entries(fields).map(([f, n]) => [`${s}.${f}`, n])));
    assert.deepEqual(ours, measured);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
