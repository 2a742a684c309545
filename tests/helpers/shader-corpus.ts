import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_ROOT } from './strata-cli';

/**
 * The SPIR-V test corpus, built from tests/fixtures/shaders/ into a temporary folder: GLSL with
 * `glslangValidator -V` (glslang-tools), `.spvasm` with `spirv-as` (spirv-tools). A source's
 * `// glslangValidator: ARGS` and `// spirv-val: ARGS` lines (or `; spirv-as: ARGS`) add options.
 */
export const SHADER_FIXTURES = join(APP_ROOT, 'tests', 'fixtures', 'shaders');

export interface CorpusModule {
  name: string;
  path: string;
  /** Arguments for spirv-val; null for hand-written modules that are only meant to parse. */
  validateArgs: string[] | null;
}

export interface ShaderCorpus {
  dir: string;
  modules: CorpusModule[];
  cleanup(): void;
}

const option = (source: string, tool: string): string[] | null => {
  const m = source.match(new RegExp(`^(?://|;) ${tool}: (.*)$`, 'm'));
  return m ? m[1]!.trim().split(/\s+/) : null;
};

export function buildShaderCorpus(): ShaderCorpus {
  const dir = mkdtempSync(join(tmpdir(), 'strata-spirv-'));
  const modules: CorpusModule[] = [];
  for (const name of readdirSync(SHADER_FIXTURES).sort()) {
    const source = join(SHADER_FIXTURES, name);
    const text = readFileSync(source, 'utf8');
    const path = join(dir, `${name}.spv`);
    if (name.endsWith('.spvasm')) {
      execFileSync('spirv-as', [...(option(text, 'spirv-as') ?? []), source, '-o', path], { stdio: 'pipe' });
      modules.push({ name, path, validateArgs: null });
    } else {
      execFileSync('glslangValidator', ['-V', ...(option(text, 'glslangValidator') ?? []), source, '-o', path], { stdio: 'pipe' });
      modules.push({ name, path, validateArgs: option(text, 'spirv-val') ?? ['--target-env', 'vulkan1.0'] });
    }
  }
  return { dir, modules, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `spirv-dis --raw-id FILE`, stdout as bytes. */
export function spirvDis(path: string): Buffer {
  return execFileSync('spirv-dis', ['--raw-id', path], { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

/** `spirv-cross FILE --reflect` (Debian spirv-cross), parsed. The file goes first: `--reflect` takes an optional value. */
export function spirvCrossReflect(path: string): Record<string, unknown> {
  return JSON.parse(execFileSync('spirv-cross', [path, '--reflect'], { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 }).toString('utf8'));
}
