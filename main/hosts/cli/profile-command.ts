import { envOption, envRequest, unsetOption, type EnvOverrides } from './env-option';
import { GuardedReadError, readTextGuardedSync } from '../../platform/guarded-read';
import type { Command } from 'commander';
import { formatStrataError, strataError } from '../../../shared/errors/strata-error';
import type { BindingsSyncResult, ProfilesList } from '../../../shared/profiles/profile-channels';
import type { Profile } from '../../../shared/profiles/profile-schema';
import { callChannel, CliFailure } from './cli-channel';
import { EXIT, formatPairs, formatTable, jsonOption, outputOption, parseLoaderVersion, printJson, writeOutputFile } from './cli-output';
import { writeErr, writeOut } from './standard-streams';

/**
 * `strata profile …`: named configurations (vkconfig's "configurations"), the built-in presets,
 * import / export as files, and binding applications to profiles. Thin: every verb is one channel.
 */
export const PROFILE_HELP = `
A profile is a JSON file in ~/.config/strata/profiles ($XDG_CONFIG_HOME/strata/profiles):
  {
    "schemaVersion": 2,
    "name": "Sync checks",
    "description": "…",                                   (optional)
    "layers": [ { "name": "VK_LAYER_KHRONOS_validation", "state": "on" },
                { "name": "VK_LAYER_MESA_device_select", "state": "off" } ],
    "applicationLayersAt": 1,                             (optional: where layers the application enables go)
    "settings": { "VK_LAYER_KHRONOS_validation": { "enables": ["VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT"] } },
    "loaderMessages": ["error", "warn"],                  (optional: VK_LOADER_DEBUG)
    "drivers": { "select": ["lvp_icd*"], "disable": [], "order": [] },   (optional: driver manifest file names or globs)
    "overridePaths": ["/opt/layers"],                     (optional)
    "applications": ["/usr/bin/vkcube"]                   (kept in step with \`strata profile bind\`)
  }
state: "on" forced on (in this order), "off" forced off, "auto" left to the application.
A preset ("Validation — standard", … see \`strata profile list\`) can be named wherever a profile is read.`;

const list = (xs: readonly string[] | undefined) => (xs?.length ? xs.join(', ') : '(none)');
const layersOf = (p: Profile, state: 'on' | 'off' | 'auto') => p.layers.filter((l) => l.state === state).map((l) => l.name);

export function formatProfilesList(r: ProfilesList): string {
  const out: string[] = [];
  out.push(`Profiles (${r.dir})`);
  if (r.profiles.length === 0) out.push('  none yet: `strata profile create NAME --from "Validation — standard"`');
  else
    out.push(
      formatTable(
        ['NAME', 'ON', 'OFF', 'BOUND TO'],
        r.profiles.map((p) => [p.name, list(layersOf(p.profile, 'on')), list(layersOf(p.profile, 'off')), list(p.profile.applications)]),
        '  ',
      ),
    );
  for (const p of r.profiles) for (const w of p.warnings) out.push(`  warning: ${p.name}: ${w}`);
  out.push('', 'Presets (read-only; copy one to change it)');
  out.push(
    formatTable(
      ['NAME', 'ID', 'HERE'],
      r.presets.map((p) => [p.profile.name, p.id, p.available ? 'available' : `missing: ${list(p.missing)}`]),
      '  ',
    ),
  );
  if (r.problems.length) {
    out.push('', 'Profile files that do not read (left as they are):');
    for (const e of r.problems) out.push(`  ${formatStrataError(e)}`);
  }
  if (r.applicationsProblem) out.push('', `Applications list: ${formatStrataError(r.applicationsProblem)}`);
  return out.join('\n');
}

export function formatProfile(p: Profile): string {
  const rows: [string, string][] = [['name', p.name]];
  if (p.description) rows.push(['description', p.description]);
  rows.push(['on (in order)', list(layersOf(p, 'on'))], ['off', list(layersOf(p, 'off'))], ['auto', list(layersOf(p, 'auto'))]);
  if (p.applicationLayersAt !== undefined) rows.push(['application layers', `before layer #${p.applicationLayersAt + 1}`]);
  for (const [layer, values] of Object.entries(p.settings ?? {}))
    for (const [k, v] of Object.entries(values)) rows.push([`setting`, `${layer}.${k} = ${JSON.stringify(v)}`]);
  if (p.loaderMessages?.length) rows.push(['loader messages', p.loaderMessages.join(', ')]);
  if (p.drivers?.select?.length) rows.push(['drivers: only', p.drivers.select.join(', ')]);
  if (p.drivers?.disable?.length) rows.push(['drivers: never', p.drivers.disable.join(', ')]);
  if (p.drivers?.order?.length) rows.push(['drivers: order', p.drivers.order.join(', ')]);
  if (p.overridePaths?.length) rows.push(['layers only from', p.overridePaths.join(', ')]);
  if (p.applications?.length) rows.push(['bound to', p.applications.join(', ')]);
  return formatPairs(rows);
}

export function formatSync(s: BindingsSyncResult): string {
  const out = [
    `Per-application profiles (loader ${s.loaderVersion}, ${s.mechanism === 'override-app-keys' ? 'override layers scoped by app_keys' : 'vk_loader_settings.json'}):`,
  ];
  if (s.files.length === 0) out.push('  no application is bound to a profile');
  for (const f of s.files) out.push(`  ${f.path}${f.profile ? ` ← "${f.profile}"` : ''}: ${f.apps.join(', ')}${f.written ? '' : ' (unchanged)'}`);
  for (const r of s.removed) out.push(`  removed ${r}`);
  for (const c of s.checks) out.push(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.app} → "${c.profile}": ${c.message}${c.chain.length ? ` [${c.chain.join(' → ')}]` : ''}`);
  for (const n of s.notes) out.push(`  note: ${n}`);
  return out.join('\n');
}

function readFile(file: string, what: string): string {
  try {
    return readTextGuardedSync(file, 'profile');
  } catch (e) {
    const message = e instanceof GuardedReadError ? e.message : `Cannot read the ${what}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
    throw new CliFailure(
      strataError('profile/file-unreadable', message, { where: file, fix: e instanceof GuardedReadError ? e.fix : 'check the path' }),
      EXIT.problems,
    );
  }
}

const loaderVersionOption = ['--loader-version <x.y.z>', 'model this loader version instead of asking the installed loader', parseLoaderVersion] as const;

const out = (json: boolean | undefined, value: unknown, human: () => string) => {
  if (json) printJson(value);
  else writeOut(`${human()}\n`);
};

export function addProfileCommands(program: Command): void {
  const profile = program
    .command('profile')
    .description('named configurations: presets, your profiles, import/export, and binding applications to them')
    .addHelpText('after', PROFILE_HELP);

  profile
    .command('list')
    .description(
      'your profiles, the built-in presets (with what is missing here), files that do not read, bound applications (exit 1 when a file does not read)',
    )
    .option(...jsonOption())
    .action(async (o: { json?: boolean }) => {
      const r = await callChannel('profiles.list', {});
      out(o.json, r, () => formatProfilesList(r));
      if (r.problems.length || r.applicationsProblem) process.exitCode = EXIT.problems;
    });

  profile
    .command('show')
    .description('one profile or preset')
    .argument('<name>', 'a profile name, or a preset name or id')
    .option(...jsonOption('the profile as stored'))
    .action(async (name: string, o: { json?: boolean }) => {
      const r = await callChannel('profiles.export', { name });
      const p = JSON.parse(r.text) as Profile;
      out(o.json, p, () => formatProfile(p));
    });

  profile
    .command('create')
    .description('a new profile: empty, or a copy of a preset or profile (--from)')
    .argument('<name>', 'its name (unique, without regard to case)')
    .option('--from <preset-or-profile>', 'start from this preset (name or id) or profile')
    .option('--description <text>', 'what it is for')
    .option(...jsonOption())
    .action(async (name: string, o: { from?: string; description?: string; json?: boolean }) => {
      const r = await callChannel('profiles.create', {
        name,
        ...(o.from ? { from: o.from } : {}),
        ...(o.description !== undefined ? { description: o.description } : {}),
      });
      out(o.json, r, () => `Created "${r.name}" in ${r.file}.`);
    });

  profile
    .command('copy')
    .description('copy a profile or preset under a new name')
    .argument('<from>')
    .argument('<to>')
    .option(...jsonOption())
    .action(async (from: string, to: string, o: { json?: boolean }) => {
      const r = await callChannel('profiles.copy', { from, to });
      out(o.json, r, () => `Copied "${from}" to "${r.name}" (${r.file}).`);
    });

  profile
    .command('rename')
    .description('rename a profile; applications bound to it stay bound')
    .argument('<from>')
    .argument('<to>')
    .option(...jsonOption())
    .action(async (from: string, to: string, o: { json?: boolean }) => {
      const r = await callChannel('profiles.rename', { from, to });
      out(o.json, r, () => `Renamed "${from}" to "${r.name}" (${r.file}).`);
    });

  profile
    .command('delete')
    .description('delete a profile (refused while applications are bound to it, unless --force)')
    .argument('<name>')
    .option('--force', 'unbind its applications and delete it')
    .option(...jsonOption())
    .action(async (name: string, o: { force?: boolean; json?: boolean }) => {
      const r = await callChannel('profiles.delete', { name, ...(o.force ? { force: true } : {}) });
      out(o.json, r, () => [`Deleted "${r.deleted.name}" (${r.deleted.file}).`, ...(r.unbound.length ? [`Unbound: ${r.unbound.join(', ')}`] : [])].join('\n'));
    });

  profile
    .command('apply')
    .description("install a profile or preset as Strata's global override layer (atomic, backed up; foreign files protected unless --force)")
    .argument('<name>')
    .option('--force', 'replace an override file Strata did not write, or one changed since')
    .option('--system', 'the system-wide override (root only)')
    .option(...jsonOption())
    .action(async (name: string, o: { force?: boolean; system?: boolean; json?: boolean }) => {
      const r = await callChannel('profiles.apply', { name, ...(o.force ? { force: true } : {}), ...(o.system ? { system: true } : {}) });
      out(o.json, r, () =>
        [
          r.result.action === 'unchanged'
            ? `The override at ${r.result.path} already has "${name}"; nothing changed.`
            : `${r.result.action === 'created' ? 'Created' : 'Replaced'} ${r.result.path} with "${name}".`,
          ...(r.result.backup ? [`The file it replaced is kept in ${r.result.backup}.`] : []),
          ...r.notes.map((n) => `note: ${n}`),
        ].join('\n'),
      );
    });

  profile
    .command('export')
    .description('a profile or preset as a file to move to another machine')
    .argument('<name>')
    .option(...outputOption())
    .action(async (name: string, o: { output?: string }) => {
      const r = await callChannel('profiles.export', { name });
      if (!o.output) return void writeOut(r.text);
      await writeOutputFile(o.output, r.text);
      writeOut(`Wrote ${o.output}.\n`);
    });

  profile
    .command('import')
    .description('store a profile file (any schema version) or a VkLayer_override.json (vkconfig) as a profile; unknown layers are kept, with a warning')
    .argument('<file>')
    .option('--name <name>', 'store it under this name')
    .option('--replace', 'replace a profile of the same name')
    .option(...jsonOption())
    .action(async (file: string, o: { name?: string; replace?: boolean; json?: boolean }) => {
      const text = readFile(file, 'profile');
      const r = await callChannel('profiles.import', { text, source: file, ...(o.name ? { name: o.name } : {}), ...(o.replace ? { replace: true } : {}) });
      out(o.json, r, () =>
        [
          `Imported "${r.stored.name}" (${r.kind === 'override-layer' ? 'from an override layer file' : 'profile'}) into ${r.stored.file}.`,
          ...r.warnings.map((w) => `warning: ${w}`),
        ].join('\n'),
      );
      if (!o.json) for (const w of r.warnings) writeErr(`strata: warning: ${w}\n`);
    });

  profile
    .command('env')
    .description('the environment a launch from Strata gets for a profile, for the installed loader, and what that loader cannot express')
    .argument('<name>')
    .option(...loaderVersionOption)
    .option(...jsonOption())
    .action(async (name: string, o: { loaderVersion?: string; json?: boolean }) => {
      const r = await callChannel('profiles.launchEnvironment', { name, ...(o.loaderVersion ? { loaderVersion: o.loaderVersion } : {}) });
      out(o.json, r, () =>
        [...Object.entries(r.env).map(([k, v]) => (v === null ? `unset ${k}` : `${k}=${v}`)), ...r.notes.map((n) => `note: ${n}`)].join('\n'),
      );
    });

  profile
    .command('bind')
    .description(
      'bind an application to a profile so it gets it when started anywhere (as far as the loader allows); every bound application is checked (exit 1 when one would not get its profile)',
    )
    .argument('<app-path>', "the application's executable")
    .argument('<profile>', 'a profile name')
    .option('--arg <value>', 'an argument for launches from Strata; repeatable', (v: string, prev: string[]) => [...prev, v], [] as string[])
    .option('--cwd <dir>', 'the working folder for launches from Strata')
    .option(...envOption('launches from Strata'))
    .option(...unsetOption('launches from Strata'))
    .option('--force', 'replace a per-application override file Strata did not write')
    .option(...loaderVersionOption)
    .option(...jsonOption())
    .action(
      async (
        appPath: string,
        name: string,
        o: { arg: string[]; cwd?: string; env?: EnvOverrides; unset?: string[]; force?: boolean; loaderVersion?: string; json?: boolean },
      ) => {
        const r = await callChannel('profiles.bind', {
          appPath,
          profile: name,
          ...(o.arg.length ? { args: o.arg } : {}),
          ...(o.cwd ? { cwd: o.cwd } : {}),
          ...envRequest(o),
          ...(o.force ? { force: true } : {}),
          ...(o.loaderVersion ? { loaderVersion: o.loaderVersion } : {}),
        });
        out(o.json, r, () =>
          [`Bound ${r.application.path} to "${r.application.profile}".`, ...r.notes.map((n) => `note: ${n}`), formatSync(r.sync)].join('\n'),
        );
        if (r.sync.checks.some((c) => !c.ok)) process.exitCode = EXIT.problems;
      },
    );

  profile
    .command('unbind')
    .description('forget an application and its binding; the per-application override layers are rewritten')
    .argument('<app-path>')
    .option(...loaderVersionOption)
    .option(...jsonOption())
    .action(async (appPath: string, o: { loaderVersion?: string; json?: boolean }) => {
      const r = await callChannel('profiles.unbind', { appPath, ...(o.loaderVersion ? { loaderVersion: o.loaderVersion } : {}) });
      out(o.json, r, () => [`Unbound ${appPath}.`, formatSync(r.sync)].join('\n'));
      if (r.sync.checks.some((c) => !c.ok)) process.exitCode = EXIT.problems;
    });
}
