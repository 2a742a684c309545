import type { XdgDirectories } from '../../../shared/loader/xdg-directories';

/** One row of the About view's XDG table; pure so the table's content is unit-tested. */
export interface XdgRow {
  label: string;
  variable: string;
  /** Lists (XDG_CONFIG_DIRS, XDG_DATA_DIRS) keep one entry per folder, in search order. */
  values: string[];
  source: 'environment' | 'default' | 'unset';
}

export function xdgRows(xdg: XdgDirectories): XdgRow[] {
  return [
    { label: 'Config home', variable: 'XDG_CONFIG_HOME', values: [xdg.configHome.value], source: xdg.configHome.source },
    { label: 'Data home', variable: 'XDG_DATA_HOME', values: [xdg.dataHome.value], source: xdg.dataHome.source },
    { label: 'State home', variable: 'XDG_STATE_HOME', values: [xdg.stateHome.value], source: xdg.stateHome.source },
    { label: 'Config folders', variable: 'XDG_CONFIG_DIRS', values: xdg.configDirs.value, source: xdg.configDirs.source },
    { label: 'Data folders', variable: 'XDG_DATA_DIRS', values: xdg.dataDirs.value, source: xdg.dataDirs.source },
    // No default exists for the runtime folder: the spec leaves it to the session manager.
    { label: 'Runtime folder', variable: 'XDG_RUNTIME_DIR', values: xdg.runtimeDir ? [xdg.runtimeDir] : [], source: xdg.runtimeDir ? 'environment' : 'unset' },
  ];
}

export const XDG_SOURCE_LABELS: Readonly<Record<XdgRow['source'], string>> = {
  environment: 'Set in environment',
  default: 'Default',
  unset: 'Not set',
};
