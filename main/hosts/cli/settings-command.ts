import { Option, type Command } from 'commander';
import { jsonOption, outputOption } from './cli-output';
import type { Platform } from '../../../shared/settings/setting-types';
import type { ExportFormat } from '../../../shared/settings/settings-output';

/**
 * `strata settings show|export`: a layer's settings description (from the manifest discovery finds,
 * the same one the loader reads) and its exports (txt, bash, cmd, hpp, html, md). The values start
 * from a SettingsValuesSource (the defaults, or a profile's with --profile) and `--set KEY=VALUE` changes them.
 * The actions are in settings-actions.ts, loaded when one runs: registering the commands (and
 * `--help`) loads no settings schema (issue #19).
 */

export const PLATFORM_TOKENS: Record<string, Platform> = { linux: 'LINUX', windows: 'WINDOWS', macos: 'MACOS', android: 'ANDROID' };

/** settings-output.ts's EXPORT_FORMATS, spelled here so that registering the command does not load the exporters (checked in tests/integration/cli-startup.test.ts). */
export const EXPORT_FORMAT_CHOICES: readonly ExportFormat[] = ['txt', 'bash', 'cmd', 'hpp', 'html', 'md'];

export interface ExportOptions {
  layer: string;
  format: ExportFormat;
  output?: string;
  dryRun?: boolean;
  set: string[];
  platform?: string;
  profile?: string;
}

const actions = () => import('./settings-actions');

const collect = (value: string, previous: string[]) => [...previous, value];

export function addSettingsCommands(program: Command): Command {
  const settings = program
    .command('settings')
    .description("layer settings (a layer manifest's file_format_version 1.2.0 settings description): list them, export them");
  const platformOption = () =>
    new Option('--platform <platform>', 'the platform whose settings to use (default: this one)').choices(Object.keys(PLATFORM_TOKENS));

  settings
    .command('show')
    .description("a layer's settings: key, type, default, range or choices, environment variable, dependence (exit 1 when its description has errors)")
    .requiredOption('--layer <name>', 'the layer, e.g. VK_LAYER_KHRONOS_validation')
    .addOption(platformOption())
    .option(...jsonOption())
    .action(async (opts: { layer: string; json?: boolean; platform?: string }) => (await actions()).settingsShowAction(opts));

  settings
    .command('export')
    .description(
      "a layer's settings as vk_layer_settings.txt (txt), environment scripts (bash, cmd), a VK_EXT_layer_settings C++ header (hpp), or documentation (html, md)",
    )
    .requiredOption('--layer <name>', 'the layer, e.g. VK_LAYER_KHRONOS_validation')
    .addOption(new Option('--format <format>', 'what to write').choices([...EXPORT_FORMAT_CHOICES]).makeOptionMandatory())
    .option(...outputOption())
    .option('--dry-run', 'print what would be written, write nothing')
    .option('--profile <name>', "start from this profile's or preset's values for the layer instead of the defaults")
    .option('--set <key=value>', 'change a setting (repeatable; lists comma-separated; over --profile)', collect, [] as string[])
    .addOption(platformOption())
    .action(async (opts: ExportOptions) => {
      const { settingsExportAction, profileValues, defaultsOnly } = await actions();
      await settingsExportAction(opts, opts.profile ? profileValues(opts.profile) : defaultsOnly);
    });

  return settings;
}
