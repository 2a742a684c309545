import { strToU8, zipSync } from 'fflate';

/**
 * The diagnostics bundle a user attaches to a bug report: one zip of plain files, each named for
 * what it holds, with a README saying where each came from. Built from answers the UI already has
 * (nothing is read twice); every text is kept as it is, so a manifest in the bundle is byte for
 * byte the file the loader read.
 */
export interface BundleInput {
  createdAt: string;
  /** app.info */
  versions: unknown;
  /** env.summary */
  environment: unknown;
  /** activity.status: what Strata changed for whom */
  activity: unknown;
  /** discovery.manifests: every manifest with its text */
  manifests: { manifests: Record<string, readonly { path: string; origin?: string; text: string | null }[]> } | null;
  /** The chain the Chain model gives the target (or null) */
  chain: unknown;
  /** devices */
  devices: unknown;
  /** The run: its command, loader level and its output lines */
  run: { command: string; loaderDebug: string; lines: readonly string[]; header: unknown } | null;
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** Manifest paths as file names inside the bundle: the folders kept, so two files of one name stay apart. */
export function manifestEntryName(kind: string, path: string): string {
  const clean = path
    .replace(/^[A-Za-z]:/, '')
    .replace(/\\/g, '/')
    .replace(/^\/+/, '')
    .replace(/\.\.(\/|$)/g, '__$1');
  return `manifests/${kind}/${clean}`;
}

export function bundleFiles(input: BundleInput): Record<string, string> {
  const files: Record<string, string> = {};
  files['versions.json'] = json(input.versions);
  files['environment.json'] = json(input.environment);
  files['strata-activity.json'] = json(input.activity);
  if (input.chain) files['chain.json'] = json(input.chain);
  if (input.devices) files['devices.json'] = json(input.devices);
  if (input.run) {
    files['run/command.txt'] = `${input.run.command}\nVK_LOADER_DEBUG=${input.run.loaderDebug}\n`;
    files['run/output.log'] = input.run.lines.join('\n') + (input.run.lines.length ? '\n' : '');
    files['run/session-header.json'] = json(input.run.header);
  }
  const listed: string[] = [];
  for (const [kind, list] of Object.entries(input.manifests?.manifests ?? {}))
    for (const m of list) {
      listed.push(`${kind}\t${m.path}\t${m.origin ?? ''}`);
      if (m.text !== null) files[manifestEntryName(kind, m.path)] = m.text;
    }
  files['manifests/index.tsv'] = `kind\tpath\torigin\n${listed.join('\n')}${listed.length ? '\n' : ''}`;
  files['README.txt'] = [
    `Strata diagnostics bundle, ${input.createdAt}`,
    '',
    'versions.json          Strata, its runtime and the Vulkan loader it found (app.info)',
    'environment.json       the Vulkan variables that are set and the XDG folders (env.summary)',
    'strata-activity.json   what Strata changed for whom: its override files, bound applications, files of other tools',
    'chain.json             the layer chain of the target, as the chain model explains it',
    'devices.json           the physical devices the real loader enumerates, with their drivers',
    'run/                   the loader run: command, VK_LOADER_DEBUG level, its output',
    'manifests/             every layer and driver manifest the loader reads, as they are on disk (index.tsv lists them)',
    '',
  ].join('\n');
  return files;
}

export function zipBundle(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])), { level: 6, mtime: new Date('2020-01-01T00:00:00Z') });
}
