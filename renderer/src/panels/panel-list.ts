/**
 * The panels of the app, in sidebar order. Pure data (no React) so the sidebar, the Alt+digit
 * shortcuts and `ui.navigate` requests all read one list, and it can be unit-tested.
 */
export type PanelId = 'layers' | 'chain' | 'drivers' | 'profiles' | 'applications' | 'sessions' | 'shaders' | 'problems' | 'about';

export type PanelGroup = 'configure' | 'inspect' | 'app';

export interface PanelDescription {
  id: PanelId;
  label: string;
  group: PanelGroup;
  /** One sentence under the heading: what the panel is for. */
  summary: string;
  /** What the panel will list once it is built; shown by the empty state instead of fake data. */
  willShow: readonly string[];
  /** Built panels render their own view; the others show EmptyPanel. */
  built: boolean;
}

export const PANELS: readonly PanelDescription[] = [
  {
    id: 'layers',
    label: 'Layers',
    group: 'configure',
    summary: 'The Vulkan layers the loader can find, and which of them an application gets.',
    willShow: [
      'Explicit and implicit layers from the system, user and VK_ADD_LAYER_PATH folders',
      'Each manifest file, where it came from, and any mistakes in it',
      'Whether a layer is enabled, disabled, or shadowed by another copy — and why',
    ],
    built: true,
  },
  {
    id: 'chain',
    label: 'Chain',
    group: 'configure',
    summary: 'The instance layer chain an application gets: each layer in order and why, and every layer left out.',
    willShow: [],
    built: true,
  },
  {
    id: 'drivers',
    label: 'Drivers & Devices',
    group: 'configure',
    summary: 'The Vulkan drivers (ICDs) the loader finds and the physical devices they expose.',
    willShow: [
      'Every driver manifest, its library, and the API version it reports',
      'The physical devices each driver exposes, in the order applications see them',
      'Drivers that fail to load, with the loader’s reason',
    ],
    built: true,
  },
  {
    id: 'profiles',
    label: 'Profiles',
    group: 'configure',
    summary: 'Named sets of layer choices and settings that Strata applies through the override layer.',
    willShow: [
      'Your profiles, and which one is active',
      'A draft you can edit and preview before anything is written',
      'Apply, undo, and restore the configuration from before Strata',
    ],
    built: false,
  },
  {
    id: 'applications',
    label: 'Applications',
    group: 'configure',
    summary: 'Programs that get their own configuration instead of the global one.',
    willShow: [
      'The executables a profile is limited to',
      'The layer chain each application will get when it starts',
    ],
    built: false,
  },
  {
    id: 'sessions',
    label: 'Sessions',
    group: 'inspect',
    summary: 'Applications launched from Strata, and what the loader and layers said while they ran.',
    willShow: [
      'Running and finished launches with their exit status',
      'Loader and layer messages, captured as the application ran',
    ],
    built: false,
  },
  {
    id: 'shaders',
    label: 'Shaders',
    group: 'inspect',
    summary: 'SPIR-V modules and validation-cache files, decoded.',
    willShow: [
      'Entry points, execution models and capabilities of a SPIR-V module',
      'The extensions and SPIR-V version a module needs',
    ],
    built: true,
  },
  {
    id: 'problems',
    label: 'Problems',
    group: 'inspect',
    summary: 'Everything wrong with the current Vulkan setup, in one list.',
    willShow: [
      'Broken or incomplete manifests, with the file and line',
      'Missing libraries, shadowed layers, and settings the loader ignores',
      'A fix for each problem, where one is known',
    ],
    built: true,
  },
  {
    id: 'about',
    label: 'About',
    group: 'app',
    summary: 'Strata’s version, where it runs, and the Vulkan loader and environment it sees.',
    willShow: [],
    built: true,
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

/** Alt+1 … Alt+9 follow sidebar order; digits past the list mean nothing. */
export function panelForDigit(digit: number): PanelId | null {
  if (!Number.isInteger(digit) || digit < 1) return null;
  return PANELS[digit - 1]?.id ?? null;
}

export function shortcutDigit(id: PanelId): number {
  return panelIndex(id) + 1;
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
