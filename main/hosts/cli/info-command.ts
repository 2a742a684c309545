import type { AppInfo } from '../../../shared/app/app-info';
import type { EnvSummary } from '../../../shared/loader/environment-summary';
import { formatPairs } from './cli-output';

export function formatAppInfo(info: AppInfo): string {
  const loader = info.loader.found
    ? `${info.loader.version} (${info.loader.path ?? info.loader.library})`
    : `not found: ${info.loader.reason}${info.loader.fix ? `. Fix: ${info.loader.fix}` : ''}`;
  return formatPairs([
    ['Strata', info.version],
    ['Platform', `${info.platform} ${info.arch}`],
    ['Node', info.versions.node],
    ['Electron', info.versions.electron ?? '—'],
    ['Vulkan loader', loader],
  ]);
}

export function formatEnvSummary(summary: EnvSummary): string {
  const lines: string[] = [];
  if (summary.variables.length === 0) lines.push('No Vulkan-related environment variables are set.');
  else lines.push('Vulkan-related environment variables:', formatPairs(summary.variables.map((v) => [`  ${v.name}`, v.value])));
  if (summary.xdg) {
    const x = summary.xdg;
    const src = (s: 'environment' | 'default') => (s === 'default' ? ' (default)' : '');
    lines.push(
      '',
      'XDG folders:',
      formatPairs([
        ['  XDG_CONFIG_HOME', x.configHome.value + src(x.configHome.source)],
        ['  XDG_CONFIG_DIRS', x.configDirs.value.join(':') + src(x.configDirs.source)],
        ['  XDG_DATA_HOME', x.dataHome.value + src(x.dataHome.source)],
        ['  XDG_DATA_DIRS', x.dataDirs.value.join(':') + src(x.dataDirs.source)],
        ['  XDG_STATE_HOME', x.stateHome.value + src(x.stateHome.source)],
      ]),
    );
  }
  return lines.join('\n');
}
