import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_ROOT } from './strata-cli';

/**
 * The SPIR-V test corpus, built from tests/fixtures/shaders/ into a temporary folder: GLSL with
 * `glslangValidator -V` (glslang-tools), `.spvasm` with `spirv-as` (spirv-tools). A source's
 * `// glslangValidator: ARGS` and `// spirv-val: ARGS` lines (or `; spirv-as: ARGS`) add options;
 * `spirv-cross: skip` keeps a module out of the comparison with spirv-cross (which refuses Kernel modules).
 */
export const SHADER_FIXTURES = join(APP_ROOT, 'tests', 'fixtures', 'shaders');

export interface CorpusModule {
  name: string;
  path: string;
  /** Arguments for spirv-val; null for hand-written modules that are only meant to parse. */
  validateArgs: string[] | null;
  /** False where the source says `spirv-cross: skip` (spirv-cross refuses Kernel modules). */
  spirvCross: boolean;
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
      modules.push({ name, path, validateArgs: null, spirvCross: option(text, 'spirv-cross')?.[0] !== 'skip' });
    } else {
      execFileSync('glslangValidator', ['-V', ...(option(text, 'glslangValidator') ?? []), source, '-o', path], { stdio: 'pipe' });
      modules.push({
        name,
        path,
        validateArgs: option(text, 'spirv-val') ?? ['--target-env', 'vulkan1.0'],
        spirvCross: option(text, 'spirv-cross')?.[0] !== 'skip',
      });
    }
  }
  return { dir, modules, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `spirv-dis --raw-id FILE`, stdout as bytes. */
export function spirvDis(path: string): Buffer {
  return execFileSync('spirv-dis', ['--raw-id', path], { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

/** `spirv-dis FILE` (friendly names), stdout as bytes. */
export function spirvDisFriendly(path: string): Buffer {
  return execFileSync('spirv-dis', [path], { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

/** `spirv-cross FILE --reflect` (Debian spirv-cross), parsed. The file goes first: `--reflect` takes an optional value. */
export function spirvCrossReflect(path: string): Record<string, unknown> {
  return JSON.parse(execFileSync('spirv-cross', [path, '--reflect'], { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 }).toString('utf8'));
}

/**
 * GLSL for a large fragment shader: `functions` functions, each with a loop, a branch, matrix and
 * vector arithmetic, a texture sample and constants of its own, all called from main. 640 functions
 * compile (glslangValidator -V) to a module of about 1.1 MB (bench/spirv-*.bench.ts).
 */
export function largeShaderGlsl(functions: number): string {
  const out = [
    '#version 450',
    'layout(location = 0) in vec4 inColor;',
    'layout(location = 1) in vec2 inUv;',
    'layout(location = 0) out vec4 outColor;',
    'layout(set = 0, binding = 0) uniform sampler2D tex;',
    'layout(set = 0, binding = 1) uniform Params { mat4 m; vec4 v[8]; float k; int n; } params;',
  ];
  for (let i = 0; i < functions; i++) {
    out.push(
      `vec4 f${i}(vec4 a, float b) {`,
      `  vec4 acc = a * ${((i * 0.37) % 3).toFixed(3)} + vec4(b, ${i}.25, -${i % 17}.5, 3.0);`,
      `  for (int i = 0; i < params.n + ${i % 5}; ++i) {`,
      `    acc = params.m * acc + params.v[(i + ${i}) & 7] * float(i);`,
      `    if (acc.x > ${(i % 9) + 0.5}) acc.yz = sin(acc.zy) * 0.75; else acc.w += cos(b * ${i + 1}.0);`,
      '  }',
      '  acc += texture(tex, acc.xy * 0.5 + inUv) * params.k;',
      '  return acc;',
      '}',
    );
  }
  out.push('void main() {', '  vec4 c = inColor;');
  for (let i = 0; i < functions; i++) out.push(`  c = f${i}(c, ${(i / 7).toFixed(4)});`);
  out.push('  outColor = c;', '}', '');
  return out.join('\n');
}

/** Compiles largeShaderGlsl(functions) into a temporary folder; the caller cleans up. */
export function buildLargeModule(functions = 640): { path: string; bytes: Uint8Array; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'strata-spirv-large-'));
  const source = join(dir, 'large.frag');
  const path = join(dir, 'large.spv');
  writeFileSync(source, largeShaderGlsl(functions));
  execFileSync('glslangValidator', ['-V', source, '-o', path], { stdio: 'pipe' });
  return { path, bytes: new Uint8Array(readFileSync(path)), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
