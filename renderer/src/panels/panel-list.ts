/**
 * The panels of the app, in sidebar order. Pure data (no React) so the sidebar, the Alt+digit
 * shortcuts and `ui.navigate` requests all read one list, and it can be unit-tested.
 */
export type PanelId = 'layers' | 'chain' | 'drivers' | 'profiles' | 'applications' | 'settings' | 'sessions' | 'shaders' | 'problems' | 'diagnostics' | 'about';

export type PanelGroup = 'configure' | 'inspect' | 'app';

export interface PanelDescription {
  id: PanelId;
  label: string;
  group: PanelGroup;
  /** One sentence under the heading: what the panel is for. */
  summary: string;
}

export const PANELS: readonly PanelDescription[] = [
  {
    id: 'layers',
    label: 'Layers',
    group: 'configure',
    summary: 'The Vulkan layers the loader can find, and which of them an application gets.',
  },
  {
    id: 'chain',
    label: 'Chain',
    group: 'configure',
    summary: 'The instance layer chain an application gets: each layer in order and why, and every layer left out.',
  },
  {
    id: 'drivers',
    label: 'Drivers & Devices',
    group: 'configure',
    summary: 'The Vulkan drivers (ICDs) the loader finds and the physical devices they expose.',
  },
  {
    id: 'profiles',
    label: 'Profiles',
    group: 'configure',
    summary: 'Named sets of layer choices and settings that Strata applies through the override layer.',
  },
  {
    id: 'applications',
    label: 'Applications',
    group: 'configure',
    summary: 'Programs that get their own configuration instead of the global one.',
  },
  {
    id: 'settings',
    label: 'Settings',
    group: 'configure',
    summary: 'The layer settings of the configuration you are editing: every setting a layer describes, and the exact text Strata writes.',
  },
  {
    id: 'sessions',
    label: 'Sessions',
    group: 'inspect',
    summary: 'Applications launched from Strata, and what the loader and layers said while they ran.',
  },
  {
    id: 'shaders',
    label: 'Shaders',
    group: 'inspect',
    summary: 'SPIR-V modules and VBC files, decoded; VBC files packed from SPIR-V.',
  },
  {
    id: 'problems',
    label: 'Problems',
    group: 'inspect',
    summary: 'Everything wrong with the current Vulkan setup, in one list.',
  },
  {
    id: 'diagnostics',
    label: 'Diagnostics',
    group: 'inspect',
    summary: 'Run the loader for an application or the system, read what it says, and export one bundle for a bug report.',
  },
  {
    id: 'about',
    label: 'About',
    group: 'app',
    summary: 'Strata’s version, where it runs, and the Vulkan loader and environment it sees.',
  },
];

/** The main view: the layers the loader finds. */
export const DEFAULT_PANEL: PanelId = 'layers';

export function isPanelId(value: string): value is PanelId {
  return PANELS.some((p) => p.id === value);
}

export function panelById(id: PanelId): PanelDescription {
  // PANELS covers every PanelId (checked by tests/unit/renderer-panel-list.test.ts).
  return PANELS.find((p) => p.id === id)!;
}

export function panelIndex(id: PanelId): number {
  return PANELS.findIndex((p) => p.id === id);
}

/** Alt+1 … Alt+9, then Alt+0 for the tenth, follow sidebar order (as a keyboard's number row does); digits past the list mean nothing. */
export function panelForDigit(digit: number): PanelId | null {
  if (!Number.isInteger(digit) || digit < 0 || digit > 9) return null;
  return PANELS[digit === 0 ? 9 : digit - 1]?.id ?? null;
}

/** The digit of a panel's Alt shortcut (0 for the tenth), or null past the tenth. */
export function shortcutDigit(id: PanelId): number | null {
  const index = panelIndex(id);
  return index < 9 ? index + 1 : index === 9 ? 0 : null;
}

/**
 * A `ui.navigate` request names a panel; hosts may send the id in any case or the label
 * ("Drivers & Devices"). Anything else is null and ignored rather than guessed.
 */
export function panelFromName(name: string): PanelId | null {
  const wanted = name.trim().toLowerCase();
  const match = PANELS.find((p) => p.id === wanted || p.label.toLowerCase() === wanted);
  return match?.id ?? null;
}
