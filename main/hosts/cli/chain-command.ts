import { Command, InvalidArgumentError } from 'commander';
import type { LayerChain } from '../../../shared/loader/chain';
import type { ChainComparison } from '../../../shared/loader/chain-compare';
import { strataError } from '../../../shared/errors/strata-error';
import { callChannel, CliFailure } from './cli-channel';
import { envOption, envOverrides, envRequest, unsetOption, type EnvOverrides } from './env-option';
import { EXIT, jsonOption, parseLoaderVersion, printJson } from './cli-output';
import { writeOut } from './standard-streams';

interface ExplainOptions {
  app?: string;
  enableLayers?: string;
  apiVersion?: string;
  env?: EnvOverrides;
  unset?: string[];
  json?: boolean;
  loader?: string;
  loaderVersion?: string;
  compare?: string[];
}

function parseVersionList(v: string): string[] {
  const list = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (list.length < 2 || list.length > 8) throw new InvalidArgumentError('expected 2 to 8 loader versions, comma-separated, e.g. 1.3.275,1.4.341');
  for (const x of list) parseLoaderVersion(x);
  return list;
}

/** `strata explain --compare`: each version's chain in one line, then where and why they part. */
export function formatComparison(c: ChainComparison): string {
  const width = Math.max(...c.chains.map((x) => x.version.length));
  const lines = [
    c.same ? `The same chain on every loader asked (${c.chains.map((x) => x.version).join(', ')}).` : 'The chain differs between the loaders asked:',
    '',
  ];
  for (const { version, chain } of c.chains)
    lines.push(
      `  ${version.padEnd(width)}  ${chain.result === 'VK_SUCCESS' ? '' : `${chain.result}  `}application → ${[...chain.chain.map((e) => e.name), 'drivers'].join(' → ')}`,
    );
  for (const ch of c.changes) {
    lines.push('', `From ${ch.from} to ${ch.to}: changes at loader ${ch.at}`);
    for (const r of ch.rules) lines.push(`  rule ${r.id} (${r.since}+): ${r.summary}`);
    const show = (o: { result: string; chain: string[] }) => `${o.result === 'VK_SUCCESS' ? '' : `${o.result}  `}${o.chain.join(' → ') || '(no layers)'}`;
    lines.push(`  before: ${show(ch.before)}`, `  after:  ${show(ch.after)}`);
  }
  return lines.join('\n');
}

export function formatChain(c: LayerChain): string {
  // Every row of the rules table up to this version applies (40-odd on a new loader): a count, not the list, and where to see more.
  const applied = c.rules.filter((r) => r.applied);
  // Compared here, not with loader-rules.ts: the CLI's entry loads no schema library (tests/integration/cli-startup.test.ts).
  const key = (v: string) => v.split('.').reduce((n, part) => n * 1000 + Number(part), 0);
  const newest = applied.map((r) => r.since).reduce((a, b) => (key(b) > key(a) ? b : a), '0.0.0');
  const lines = [
    `Instance layer chain (loader ${c.loaderVersion ?? `version unknown, rules of loader ${c.rulesVersion}`}): ${c.result}`,
    `Loader rules: ${applied.length} of the ${c.rules.length} version-keyed behaviours apply${applied.length ? ` (the newest from ${newest})` : ''}; \`--json\` lists them, \`--compare\` shows what another version changes`,
    '',
    'application',
  ];
  for (const e of c.chain) {
    lines.push(`  ↓ ${e.name}  [${e.type}]  ${e.manifest}`);
    for (const r of e.reasons) lines.push(`      ${r.code}: ${r.message}`);
  }
  lines.push(c.chain.length ? '  ↓ drivers' : '  ↓ drivers (no layers)');
  if (c.metaLayers.length) {
    lines.push('', 'Meta-layers expanded:');
    for (const m of c.metaLayers) lines.push(`  ${m.name} → ${m.components.join(', ')}  ${m.manifest}`);
  }
  if (c.excluded.length) {
    lines.push('', 'Left out:');
    for (const e of c.excluded) {
      lines.push(`  ${e.name}  ${e.manifest ?? '(no manifest)'}`);
      for (const r of e.reasons) lines.push(`      ${r.code}: ${r.message}`);
    }
  }
  if (c.notes.length) lines.push('', ...c.notes.map((n) => `note: ${n}`));
  return lines.join('\n');
}

export function addExplainCommand(program: Command) {
  program
    .command('explain')
    .description(
      'the effective instance layer chain for an application, top (application) to bottom (drivers), with why each layer is in or out (exit 1 when vkCreateInstance would fail)',
    )
    .option('--app <path>', "the application's executable (matched against the override layer's app_keys)")
    .option('--enable-layers <names>', 'layers the application requests, comma-separated, in order')
    .option('--api-version <x.y>', "the application's VkApplicationInfo::apiVersion (default 1.0)", (v) => {
      if (!/^\d+\.\d+(\.\d+)?$/.test(v)) throw new InvalidArgumentError('expected MAJOR.MINOR, e.g. 1.3');
      return v;
    })
    .option(...envOption('the question'))
    .option(...unsetOption('the question'))
    .option('--profile <name>', 'as if this profile or preset were installed as the override layer; also lists the drivers it keeps')
    .option('--loader <path>', "predict for another loader library (a libvulkan.so.1 / vulkan-1.dll): ask it for its version and apply that version's rules")
    .option('--loader-version <x.y.z>', 'predict for this loader version (the model alone, no loader asked), e.g. 1.3.275 for Ubuntu 24.04', parseLoaderVersion)
    .option(
      '--compare <versions>',
      'model the chain for each loader version (comma-separated, e.g. 1.3.275,1.4.341) and show where they differ and which loader rule makes the difference',
      parseVersionList,
    )
    .option(...jsonOption())
    .action(async (o: ExplainOptions & { profile?: string }) => {
      const exclusive = [o.profile && '--profile', o.loader && '--loader', o.loaderVersion && '--loader-version', o.compare && '--compare'].filter(Boolean);
      if (exclusive.length > 1)
        throw new CliFailure(
          strataError('explain/options', `${exclusive.join(' and ')} cannot be combined`, { where: 'strata explain', fix: 'ask one question at a time' }),
          EXIT.usage,
        );
      if (o.profile) return explainProfile(o.profile, o);
      const question = {
        ...(o.app ? { appPath: o.app } : {}),
        ...(o.enableLayers ? { requestedLayers: o.enableLayers.split(',').filter(Boolean) } : {}),
        ...(o.apiVersion ? { apiVersion: o.apiVersion } : {}),
        ...envRequest(o),
      };
      if (o.compare) {
        const c = await callChannel('chain.compare', { ...question, versions: o.compare });
        if (o.json) printJson(c);
        else writeOut(`${formatComparison(c)}\n`);
        if (!c.same) process.exitCode = EXIT.problems;
        return;
      }
      const value = await callChannel('chain.explain', {
        ...question,
        ...(o.loader ? { loaderPath: o.loader } : {}),
        ...(o.loaderVersion ? { loaderVersion: o.loaderVersion } : {}),
      });
      if (o.json) printJson(value);
      else writeOut(`${formatChain(value)}\n`);
      if (value.result !== 'VK_SUCCESS') process.exitCode = EXIT.problems;
    });
}

/** `explain --profile`: the profiles.explain channel (its environment is Strata's own; --env is not applied). */
async function explainProfile(name: string, o: ExplainOptions) {
  if (Object.keys(envOverrides(o)).length)
    throw new CliFailure(
      strataError('explain/profile-env', '--env and --unset cannot be combined with --profile', {
        where: 'strata explain',
        fix: 'drop --env, or set the variables in the environment of `strata` itself',
      }),
      EXIT.usage,
    );
  const r = await callChannel('profiles.explain', {
    name,
    ...(o.app ? { appPath: o.app } : {}),
    ...(o.enableLayers ? { requestedLayers: o.enableLayers.split(',').filter(Boolean) } : {}),
    ...(o.apiVersion ? { apiVersion: o.apiVersion } : {}),
  });
  if (o.json) printJson({ ...r.chain, drivers: r.drivers, profileNotes: r.notes });
  else {
    const drivers = r.drivers.map((d) => `  ${d.kept ? '✓' : '✗'} ${d.path}  (${d.reason})`);
    writeOut(
      `${[`Profile "${name}" as the override layer:`, formatChain(r.chain), '', 'Drivers:', ...(drivers.length ? drivers : ['  (none found)']), ...r.notes.map((n) => `note: ${n}`)].join('\n')}\n`,
    );
  }
  if (r.chain.result !== 'VK_SUCCESS' || !r.drivers.some((d) => d.kept)) process.exitCode = EXIT.problems;
}
