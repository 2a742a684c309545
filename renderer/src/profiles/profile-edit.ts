import type { LayerDraft } from '../../../shared/configurator/layer-draft';
import type { Profile } from '../../../shared/profiles/profile-schema';
import { serializeProfile } from '../../../shared/profiles/profile-text';
import { unifiedDiff } from '../../../shared/text/unified-diff';

/**
 * A profile edited in the Layers editor: the draft's states, order and settings written back into
 * the profile, every other field (description, drivers, loader messages, bound applications) kept.
 * Pure; the editor's Save sends the result to profiles.save.
 */
export function profileFromDraft(original: Profile, draft: LayerDraft): Profile {
  // 'auto' layers are the profile saying nothing about them: only 'on' and 'off' are written, in the draft's order.
  const layers = draft.config.layers.filter((l) => l.state !== 'auto').map((l) => ({ name: l.name, state: l.state }));
  const { settings: _settings, applicationLayersAt: at, ...rest } = original;
  const out: Profile = { ...rest, layers };
  const settings = draft.config.settings;
  if (settings && Object.keys(settings).length) out.settings = settings;
  if (at !== undefined) {
    // The application layers' place follows the last layer that was before it.
    const before = new Set(original.layers.slice(0, at).map((l) => l.name));
    let next = 0;
    layers.forEach((l, i) => {
      if (before.has(l.name)) next = i + 1;
    });
    out.applicationLayersAt = next;
  }
  return out;
}

/** The profile file before and after, as a unified diff ('' when the file would not change). */
export function profileDiff(original: Profile, edited: Profile): string {
  return unifiedDiff(serializeProfile(original), serializeProfile(edited), {
    fromLabel: `${original.name} (saved)`,
    toLabel: `${edited.name} (edited)`,
    maxLines: 400,
  });
}
