import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT } from './strata-cli';

const SOURCE = join(APP_ROOT, 'tests', 'fixtures', 'layers', 'fake-layer.c');

export const FAKE_LAYER_KINDS = [
  'good',
  'ctor-segv',
  'ctor-hang',
  'negotiate-segv',
  'negotiate-hang',
  'refuse',
  'zero',
  'v1',
  'nothing',
  'bare',
  'missing',
  'meta',
] as const;
export type FakeLayerKind = (typeof FAKE_LAYER_KINDS)[number];

export interface FakeLayers {
  /** The folder of the manifests: VK_LAYER_PATH for explicit layers. */
  manifestDir: string;
  /** The folder of the libraries: LD_LIBRARY_PATH for the bare-name one. */
  libDir: string;
  /** Layer name per kind ("VK_LAYER_STRATA_fake_good" …). */
  names: Record<FakeLayerKind, string>;
  manifests: Record<FakeLayerKind, string>;
}

const layerName = (kind: string) => `VK_LAYER_STRATA_fake_${kind.replace(/-/g, '_')}`;

/**
 * Builds tests/fixtures/layers/fake-layer.c once per behaviour into `<dir>/lib` and writes an explicit
 * layer manifest for each into `<dir>/explicit_layer.d` (file format 1.1.2, so pre_instance_functions
 * is valid), plus a bare-name manifest (found only through LD_LIBRARY_PATH), one whose library is
 * missing, and a meta-layer.
 */
export function buildFakeLayers(dir: string): FakeLayers {
  const libDir = join(dir, 'lib');
  const manifestDir = join(dir, 'explicit_layer.d');
  mkdirSync(libDir, { recursive: true });
  mkdirSync(manifestDir, { recursive: true });
  const build = (macro: string, out: string) => {
    execFileSync('gcc', ['-shared', '-fPIC', '-O1', '-Wall', '-Wextra', '-Werror', '-D', macro, SOURCE, '-o', join(libDir, out)], { stdio: 'pipe' });
    return join(libDir, out);
  };
  const names = {} as Record<FakeLayerKind, string>;
  const manifests = {} as Record<FakeLayerKind, string>;
  const manifest = (kind: FakeLayerKind, layer: Record<string, unknown>) => {
    names[kind] = layerName(kind);
    const path = join(manifestDir, `fake_${kind}.json`);
    writeFileSync(
      path,
      JSON.stringify(
        {
          file_format_version: '1.1.2',
          layer: {
            name: names[kind],
            type: 'GLOBAL',
            api_version: '1.3.239',
            implementation_version: '1',
            description: `Strata fake layer: ${kind}`,
            ...layer,
          },
        },
        null,
        2,
      ),
    );
    manifests[kind] = path;
  };
  for (const [kind, macro] of [
    ['good', 'FAKE_GOOD'],
    ['ctor-segv', 'FAKE_CTOR_SEGV'],
    ['ctor-hang', 'FAKE_CTOR_HANG'],
    ['negotiate-segv', 'FAKE_NEGOTIATE_SEGV'],
    ['negotiate-hang', 'FAKE_NEGOTIATE_HANG'],
    ['refuse', 'FAKE_REFUSE'],
    ['zero', 'FAKE_ZERO'],
    ['nothing', 'FAKE_NOTHING'],
  ] as const) {
    const extra =
      kind === 'good'
        ? { pre_instance_functions: { vkEnumerateInstanceVersion: 'Fake_EnumerateInstanceVersion', vkEnumerateInstanceLayerProperties: 'Fake_Missing' } }
        : {};
    manifest(kind, { library_path: build(macro, `libfake_layer_${kind.replace(/-/g, '_')}.so`), ...extra });
  }
  build('FAKE_V1', 'libfake_layer_v1.so');
  // Relative to the manifest's folder, with the renamed entry points of interface 1.
  manifest('v1', {
    library_path: '../lib/libfake_layer_v1.so',
    functions: { vkGetInstanceProcAddr: 'Fake_GetInstanceProcAddr', vkGetDeviceProcAddr: 'Fake_GetDeviceProcAddr' },
  });
  // A link, as distributions install SONAMEs (libGLX_nvidia.so.0 → libGLX_nvidia.so.580.159.04): ld.so maps the target.
  symlinkSync('libfake_layer_good.so', join(libDir, 'libfake_layer_bare.so'));
  manifest('bare', { library_path: 'libfake_layer_bare.so' });
  manifest('missing', { library_path: './libfake_layer_not_there.so' });
  manifest('meta', { component_layers: [layerName('good'), layerName('v1')], library_path: undefined });
  return { manifestDir, libDir, names, manifests };
}
