import { GuardedReadError, parseJsonGuarded, readTextGuardedSync } from '../../platform/guarded-read';
import type { Command } from 'commander';
import { strataError } from '../../../shared/errors/strata-error';
import type { OverrideConfig } from '../../../shared/override/override-config';
import { forcesLayers, OVERRIDE_DISABLE_VARIABLE } from '../../../shared/override/override-names';
import type {
  OverrideApplyResult,
  OverrideOwnership,
  OverrideRemoveResult,
  OverrideStatus,
  SettingsFileResult,
} from '../../../shared/override/override-status';
import { callChannel, CliFailure } from './cli-channel';
import { EXIT, formatPairs, jsonOption, outputOption, printJson, writeOutputFile } from './cli-output';
import { writeErr, writeOut } from './standard-streams';

export const CONFIG_HELP = `
The configuration file (--config) is JSON:
  {
    "layers": [
      { "name": "VK_LAYER_KHRONOS_validation", "state": "on" },
      { "name": "VK_LAYER_MESA_device_select", "state": "off" }
    ],
    "appKeys": ["/usr/bin/vkcube"],          (optional: only these executables; default: every application)
    "overridePaths": ["/opt/layers"],        (optional: the only folders searched for the "on" layers)
    "apiVersion": "1.3.0",                   (optional: the override layer's api_version, default 1.3.0)
    "settings": {                            (optional: layer settings changed from their defaults)
      "VK_LAYER_KHRONOS_validation": { "log_filename": "/tmp/vvl.txt", "report_flags": ["error", "warn"] }
    }
  }
state: "on" forces the layer on (component_layers, in the order listed), "off" forces it off
(blacklisted_layers, even when an application asks for it), "auto" leaves it to the application.
The override is ~/.local/share/vulkan/implicit_layer.d/VkLayer_override.json ($XDG_DATA_HOME);
set ${OVERRIDE_DISABLE_VARIABLE}=1 to run an application without it. Settings go to
~/.local/share/vulkan/settings.d/vk_layer_settings.txt, which the layers read for every application
(before VK_LAYER_SETTINGS_PATH); \`strata settings show --layer NAME\` lists a layer's settings.
A configuration with only settings (no layer "on" or "off") installs no override file.
On Windows both files go into %LOCALAPPDATA%\\Strata (--system: %ProgramData%\\Strata) and are
registered under HKCU (HKLM) SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers and ...\\Settings.`;

async function readConfig(file: string): Promise<OverrideConfig> {
  let text: string;
  try {
    text = readTextGuardedSync(file, 'config');
  } catch (e) {
    const message = e instanceof GuardedReadError ? e.message : `Cannot read the configuration: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
    throw new CliFailure(strataError('override/config-unreadable', message, { where: file, fix: 'check the path given to --config' }), EXIT.problems);
  }
  let json: unknown;
  try {
    json = parseJsonGuarded(text, file);
  } catch (e) {
    if (e instanceof GuardedReadError) throw new CliFailure(strataError('override/config-invalid', e.message, { where: file, fix: e.fix }), EXIT.problems);
    throw new CliFailure(
      strataError('override/config-invalid', `The configuration is not valid JSON (${(e as Error).message})`, {
        where: file,
        fix: 'correct the JSON; see `strata override apply --help` for the format',
      }),
      EXIT.problems,
    );
  }
  // The schema (zod) is loaded here, when a configuration is read, not when the CLI starts.
  const { OverrideConfigSchema } = await import('../../../shared/override/override-config-schema');
  const parsed = OverrideConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message)).join('; ');
    throw new CliFailure(
      strataError('override/config-invalid', `The configuration does not match the format: ${issues}`, {
        where: file,
        fix: 'see `strata override apply --help` for the format',
      }),
      EXIT.problems,
    );
  }
  return parsed.data;
}

const OWNERSHIP: Record<OverrideOwnership, string> = {
  absent: 'no override file',
  strata: "Strata's",
  modified: 'changed since Strata wrote it',
  foreign: "not Strata's (another tool's or a person's)",
};

const list = (names: readonly string[]) => (names.length ? names.join(', ') : '(none)');

function layerLines(layers: OverrideStatus['layers']): [string, string][] {
  if (!layers) return [];
  const rows: [string, string][] = [
    ['on (in order)', list(layers.componentLayers)],
    ['off', list(layers.blacklistedLayers)],
  ];
  if (layers.appKeys.length) rows.push(['only for', layers.appKeys.join(', ')]);
  if (layers.overridePaths.length) rows.push(['layers only from', layers.overridePaths.join(', ')]);
  return rows;
}

const SETTINGS_ACTION: Record<SettingsFileResult['action'], string> = {
  created: 'Created',
  replaced: 'Replaced',
  unchanged: 'Kept (already this content)',
  removed: "Removed Strata's",
  nothing: 'No settings; left alone',
};

const SETTINGS_BEFORE: Record<OverrideOwnership, string> = {
  absent: 'there was no settings file before',
  strata: "replacing Strata's previous settings file",
  modified: 'replacing a version changed since Strata wrote it',
  foreign: 'replacing a settings file Strata did not write; `strata override remove` puts it back',
};

function settingsResultLines(r: SettingsFileResult | undefined): string[] {
  if (!r || (r.action === 'nothing' && r.text === null)) return [];
  const lines = [
    `Layer settings: ${SETTINGS_ACTION[r.action]} ${r.path}${r.action === 'created' || r.action === 'replaced' ? ` (${SETTINGS_BEFORE[r.before]})` : ''}.`,
  ];
  if (r.backup) lines.push(`  the file it replaced is kept in ${r.backup}`);
  for (const h of r.hides) lines.push(`  note: ${h.reason}`);
  lines.push(...registrationLines(r.registration, 'settings files'));
  return lines;
}

function settingsStatusLines(s: OverrideStatus['settings']): string[] {
  if (!s) return [];
  const rows: [string, string][] = [
    ['file', s.path],
    [
      'state',
      s.ownership === 'strata' && s.writtenAt
        ? `${OWNERSHIP[s.ownership]} (written ${s.writtenAt})`
        : OWNERSHIP[s.ownership].replace('no override file', 'no settings file'),
    ],
  ];
  if (s.text !== null) rows.push(['settings', String(s.text.split('\n').filter((l) => /^\s*[^#\s][^=]*=/.test(l)).length)]);
  if (s.originalBackup) rows.push(['remove restores', `the earlier settings file, kept in ${s.originalBackup}`]);
  for (const h of s.hides) rows.push(['hides', h.reason]);
  const out = ['Layer settings file', formatPairs(rows).replace(/^/gm, '  ')];
  if (s.diff) out.push('What changed since Strata wrote it:', s.diff);
  out.push(...registrationLines(s.registration, 'settings files'));
  return out;
}

/** Windows: the registry value that makes the loader read the override file (or the layers their settings file). */
function registrationLines(g: OverrideApplyResult['registration'], others = 'override layers'): string[] {
  if (!g) return [];
  const did: Record<NonNullable<typeof g.action>, string> = {
    added: 'registered',
    unchanged: 'already registered',
    enabled: 'enabled (its DWORD was not 0)',
    removed: 'removed',
    restored: 'restored to its value before Strata',
    nothing: 'not touched (Strata had not registered it)',
  };
  const state = g.action ? did[g.action] : g.registered ? 'registered' : 'not registered, so the loader does not read the file';
  const lines = [`Registry: value "${g.value}" (DWORD 0) in ${g.key}: ${state}.`];
  if (g.disabled.length) lines.push(`  other ${others} disabled (DWORD 1) until \`strata override remove\`: ${g.disabled.join(', ')}`);
  if (g.note) lines.push(`Note: ${g.note}`);
  return lines;
}

export function formatOverrideStatus(s: OverrideStatus): string {
  const rows: [string, string][] = [
    ['file', s.path],
    ['state', s.ownership === 'strata' && s.writtenAt ? `${OWNERSHIP[s.ownership]} (written ${s.writtenAt})` : OWNERSHIP[s.ownership]],
    ...layerLines(s.layers),
  ];
  if (s.text !== null && !s.layers) rows.push(['content', 'not a readable override layer']);
  if (s.originalBackup) rows.push(['remove restores', `the earlier override, kept in ${s.originalBackup}`]);
  const out = [`Override (${s.scope})`, formatPairs(rows).replace(/^/gm, '  ')];
  if (s.diff) out.push('What changed since Strata wrote it:', s.diff);
  out.push(...settingsStatusLines(s.settings));
  out.push(...registrationLines(s.registration));
  return out.join('\n');
}

const BEFORE: Record<OverrideOwnership, string> = {
  absent: 'there was no override before',
  strata: "replacing Strata's previous override",
  modified: 'replacing a version changed since Strata wrote it',
  foreign: "replacing another tool's override",
};

export function formatApplyResult(r: OverrideApplyResult, config: OverrideConfig): string {
  const settings = settingsResultLines(r.settings);
  if (r.action === 'removed' || (r.action === 'unchanged' && !forcesLayers(config)))
    return [
      r.action === 'removed'
        ? `This configuration forces no layer on or off, so Strata's override at ${r.path} was removed${r.text ? ' (the override that was there before Strata is back)' : ''}.`
        : 'This configuration forces no layer on or off; no override file is installed.',
      ...settings,
    ].join('\n');
  if (r.action === 'unchanged') return [`The override at ${r.path} already has this configuration; nothing changed.`, ...settings].join('\n');
  const names = (state: string) => config.layers.filter((l) => l.state === state).map((l) => l.name);
  const lines = [`${r.action === 'created' ? 'Created' : 'Replaced'} ${r.path} (${BEFORE[r.before]}).`];
  lines.push(`  forced on, in this order: ${list(names('on'))}`, `  forced off: ${list(names('off'))}`);
  if (config.appKeys?.length) lines.push(`  only for: ${config.appKeys.join(', ')}`);
  if (r.backup) lines.push(`The file it replaced is kept in ${r.backup}.`);
  if (r.originalBackup) lines.push(`The override that was there before Strata is kept in ${r.originalBackup}; \`strata override remove\` puts it back.`);
  lines.push(...settings);
  lines.push(...registrationLines(r.registration));
  lines.push(`Vulkan applications started from now on get this; run one with ${OVERRIDE_DISABLE_VARIABLE}=1 to leave the override out.`);
  return lines.join('\n');
}

export function formatRemoveResult(r: OverrideRemoveResult): string {
  const lines =
    r.action === 'restored'
      ? [
          `Removed Strata's override and restored the override that was at ${r.path} before Strata, as it was (the same bytes; a symbolic link is a link again).`,
        ]
      : r.action === 'deleted'
        ? [`Removed Strata's override: ${r.path} is gone, and applications choose their layers again.`]
        : r.settings
          ? [`No override of Strata's to remove (${r.reason ?? 'none installed'}).`]
          : [`Nothing to remove: ${r.reason ?? 'Strata has no override here'}.`];
  if (r.backup) lines.push(`A copy of what was removed is in ${r.backup}.`);
  if (r.settings && r.settings.action !== 'nothing')
    lines.push(
      r.settings.text === null
        ? `Removed Strata's layer settings file ${r.settings.path}.`
        : `Restored the layer settings file that was at ${r.settings.path} before Strata.`,
    );
  if (r.settings?.backup) lines.push(`A copy of the removed settings is in ${r.settings.backup}.`);
  lines.push(...registrationLines(r.registration));
  lines.push(...registrationLines(r.settings?.registration, 'settings files'));
  return lines.join('\n');
}

interface ScopeOptions {
  system?: boolean;
  json?: boolean;
}

export function addOverrideCommands(program: Command): void {
  const override = program
    .command('override')
    .description("Strata's override meta-layer (VK_LAYER_LUNARG_override): force layers on or off for every Vulkan application")
    .addHelpText('after', CONFIG_HELP);
  const system = ['--system', 'the system-wide override in /etc/vulkan/implicit_layer.d (root only) instead of your own'] as const;

  override
    .command('apply')
    .description('install a configuration as the override (atomically, with a backup); refuses to replace a file Strata did not write unless --force')
    .requiredOption('--config <file>', 'the configuration, JSON (format below)')
    .option('--force', 'replace a file Strata did not write, or one changed since it did (a backup is kept)')
    .option(...system)
    .option(...jsonOption())
    .addHelpText('after', CONFIG_HELP)
    .action(async (opts: ScopeOptions & { config: string; force?: boolean }) => {
      const config = await readConfig(opts.config);
      // The scope always said: without --system the user's, whatever the elevation (a request without one means the applications' scope).
      const r = await callChannel('override.apply', { config, ...(opts.force ? { force: true } : {}), system: opts.system === true });
      if (opts.json) printJson(r);
      else writeOut(`${formatApplyResult(r, config)}\n`);
    });

  override
    .command('show')
    .description('print the installed override file')
    .option(...system)
    .action(async (opts: ScopeOptions) => {
      const s = await callChannel('override.status', { system: opts.system === true });
      if (s.text === null) writeOut(`No override is installed (${s.path} does not exist).\n`);
      else writeOut(s.text.endsWith('\n') ? s.text : `${s.text}\n`);
    });

  override
    .command('remove')
    .description('surrender: restore the state before Strata (the earlier override file, or none)')
    .option('--force', 'remove even when the file was changed since Strata wrote it (a copy is kept)')
    .option(...system)
    .option(...jsonOption())
    .action(async (opts: ScopeOptions & { force?: boolean }) => {
      const r = await callChannel('override.remove', { ...(opts.force ? { force: true } : {}), system: opts.system === true });
      if (opts.json) printJson(r);
      else writeOut(`${formatRemoveResult(r)}\n`);
    });

  override
    .command('status')
    .description('where the override is, whose it is, what it forces on and off, and what changed since Strata wrote it')
    .option(...system)
    .option(...jsonOption())
    .action(async (opts: ScopeOptions) => {
      const s = await callChannel('override.status', { system: opts.system === true });
      if (opts.json) printJson(s);
      else writeOut(`${formatOverrideStatus(s)}\n`);
    });

  override
    .command('export')
    .description('the VkLayer_override.json of a configuration or a profile, without installing it')
    .option('--config <file>', 'the configuration, JSON (format below)')
    .option('--profile <name>', 'a profile or preset instead of --config (`strata profile list`)')
    .option(...outputOption())
    .addHelpText('after', CONFIG_HELP)
    .action(async (opts: { config?: string; profile?: string; output?: string }) => {
      if (!opts.config === !opts.profile)
        throw new CliFailure(
          strataError('override/export-usage', 'Give exactly one of --config and --profile', {
            where: 'strata override export',
            fix: 'see `strata override export --help`',
          }),
          EXIT.usage,
        );
      const r = opts.profile
        ? await callChannel('profiles.overrideExport', { name: opts.profile })
        : { ...(await callChannel('override.export', { config: await readConfig(opts.config!) })), notes: [] as string[] };
      for (const note of r.notes) writeErr(`strata: note: ${note}\n`);
      if (!opts.output) {
        writeOut(r.text);
        return;
      }
      await writeOutputFile(opts.output, r.text);
      writeOut(
        `Wrote ${opts.output} (not installed; \`${opts.profile ? `strata profile apply ${JSON.stringify(opts.profile)}` : `strata override apply --config ${opts.config}`}\` installs it).\n`,
      );
    });
}
