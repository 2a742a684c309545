import { Command, InvalidArgumentError } from 'commander';
import type { LayerChain } from '../../shared/loader/chain';
import { strataError } from '../../shared/errors/strata-error';
import { callChannel, CliFailure } from './cli-channel';
import { EXIT, printJson } from './cli-output';

interface ExplainOptions {
  app?: string;
  enableLayers?: string;
  apiVersion?: string;
  env: Record<string, string | null>;
  json?: boolean;
}

/** `--env K=V` sets, `--env K=` unsets; repeatable. */
function collectEnv(value: string, previous: Record<string, string | null>): Record<string, string | null> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError('expected NAME=VALUE (NAME= unsets it)');
  const v = value.slice(eq + 1);
  return { ...previous, [value.slice(0, eq)]: v === '' ? null : v };
}

export function formatChain(c: LayerChain): string {
  const applied = c.rules.filter((r) => r.applied).map((r) => `${r.id} (${r.since}+)`);
  const lines = [
    `Instance layer chain (loader ${c.loaderVersion ?? 'version unknown'}, rules of loader ${c.rulesVersion}): ${c.result}`,
    `Rules applied: ${applied.join(', ') || 'none'}`,
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
    .description('the effective instance layer chain for an application, top (application) to bottom (drivers), with why each layer is in or out (exit 1 when vkCreateInstance would fail)')
    .option('--app <path>', "the application's executable (matched against the override layer's app_keys)")
    .option('--enable-layers <names>', 'layers the application requests, comma-separated, in order')
    .option('--api-version <x.y>', 'the application\'s VkApplicationInfo::apiVersion (default 1.0)', (v) => {
      if (!/^\d+\.\d+(\.\d+)?$/.test(v)) throw new InvalidArgumentError('expected MAJOR.MINOR, e.g. 1.3');
      return v;
    })
    .option('--env <NAME=VALUE>', 'set a variable for the question (NAME= unsets it); repeatable', collectEnv, {})
    .option('--profile <name>', 'as if this profile or preset were installed as the override layer; also lists the drivers it keeps')
    .option('--json', 'print machine-readable JSON')
    .action(async (o: ExplainOptions & { profile?: string }) => {
      if (o.profile) return explainProfile(o.profile, o);
      const value = await callChannel('chain.explain', {
        ...(o.app ? { appPath: o.app } : {}),
        ...(o.enableLayers ? { requestedLayers: o.enableLayers.split(',').filter(Boolean) } : {}),
        ...(o.apiVersion ? { apiVersion: o.apiVersion } : {}),
        ...(Object.keys(o.env).length ? { env: o.env } : {}),
      });
      if (o.json) printJson(value);
      else process.stdout.write(`${formatChain(value)}\n`);
      if (value.result !== 'VK_SUCCESS') process.exitCode = EXIT.problems;
    });
}

/** `explain --profile`: the profiles.explain channel (its environment is Strata's own; --env is not applied). */
async function explainProfile(name: string, o: ExplainOptions) {
  if (Object.keys(o.env).length) throw new CliFailure(strataError('explain/profile-env', '--env cannot be combined with --profile', { where: 'strata explain', fix: 'drop --env, or set the variables in the environment of `strata` itself' }), EXIT.usage);
  const r = await callChannel('profiles.explain', {
    name,
    ...(o.app ? { appPath: o.app } : {}),
    ...(o.enableLayers ? { requestedLayers: o.enableLayers.split(',').filter(Boolean) } : {}),
    ...(o.apiVersion ? { apiVersion: o.apiVersion } : {}),
  });
  if (o.json) printJson({ ...r.chain, drivers: r.drivers, profileNotes: r.notes });
  else {
    const drivers = r.drivers.map((d) => `  ${d.kept ? '✓' : '✗'} ${d.path}  (${d.reason})`);
    process.stdout.write(`${[`Profile "${name}" as the override layer:`, formatChain(r.chain), '', 'Drivers:', ...(drivers.length ? drivers : ['  (none found)']), ...r.notes.map((n) => `note: ${n}`)].join('\n')}\n`);
  }
  if (r.chain.result !== 'VK_SUCCESS' || !r.drivers.some((d) => d.kept)) process.exitCode = EXIT.problems;
}
