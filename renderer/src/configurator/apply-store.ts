import { create } from 'zustand';
import type { StrataError } from '../../../shared/errors/strata-error';
import { draftConfig } from '../../../shared/configurator/layer-draft';
import type { OverridePreview } from '../../../shared/override/override-preview';
import { toStrataError } from '../requests/request-state';
import { strataApi } from '../strata-bridge';
import { useDiscovery } from '../discovery/discovery-store';
import { useDraft } from './draft-store';
import { useLayersView } from '../layers/layers-view-store';
import { useActivity } from '../activity/activity-store';
import { savePreferredOrder } from '../layers/preferred-order';

/** The override file and the layer settings file Strata is about to write (from the last status read). */
function noteOverrideWrite() {
  const status = useDraft.getState().status;
  if (status.status !== 'ready') return;
  useActivity.getState().noteWrites([status.value.path, status.value.settings?.path ?? '']);
}

/**
 * The Apply and "Disable Strata's override" flows, one dialog at a time: preview (override.preview:
 * which files change and how), then the writer (override.apply / override.remove). The writer is
 * atomic, so a failure leaves the files as they were; the error dialog says so and gives the fix.
 */
export type ApplyDialog =
  | { kind: 'closed' }
  | { kind: 'preview'; preview: OverridePreview | null; error: StrataError | null; busy: boolean }
  | { kind: 'confirm-remove'; busy: boolean }
  | { kind: 'error'; action: 'apply' | 'remove'; error: StrataError; busy: boolean };

interface ApplyState {
  dialog: ApplyDialog;
  /** Apply…: ask for the preview of the current draft and show it. */
  openApply(): Promise<void>;
  /** Write the draft (force: the user chose Overwrite). */
  apply(force: boolean): Promise<void>;
  openRemove(): void;
  remove(force: boolean): Promise<void>;
  close(): void;
}

/** The data of override/not-strata-file: the diff between the file on disk and what Strata would write. */
export function conflictDiff(error: StrataError): string | null {
  const data = error.data as { diff?: unknown } | undefined;
  return error.code === 'override/not-strata-file' && typeof data?.diff === 'string' ? data.diff : null;
}

export const useApply = create<ApplyState>()((set, get) => {
  const afterWrite = async (message: string, keepDraft: boolean) => {
    try {
      useDraft.getState().installedNow(await strataApi().call('override.status', {}), keepDraft);
    } catch {
      // Written all the same; the status is read again with the next discovery answer.
      void useDraft.getState().loadStatus();
    }
    set({ dialog: { kind: 'closed' } });
    useLayersView.getState().announce(message);
    void useActivity.getState().load();
    // The override file is a manifest too: discovery shows it (the file watcher would as well, later).
    void useDiscovery.getState().refresh();
  };

  return {
    dialog: { kind: 'closed' },

    openApply: async () => {
      const draft = useDraft.getState().draft;
      if (!draft) return;
      set({ dialog: { kind: 'preview', preview: null, error: null, busy: true } });
      try {
        const preview = await strataApi().call('override.preview', { config: draftConfig(draft) });
        if (get().dialog.kind === 'preview') set({ dialog: { kind: 'preview', preview, error: null, busy: false } });
      } catch (e) {
        if (get().dialog.kind === 'preview') set({ dialog: { kind: 'preview', preview: null, error: toStrataError(e, 'override.preview'), busy: false } });
      }
    },

    apply: async (force) => {
      const draft = useDraft.getState().draft;
      if (!draft) return;
      const config = draftConfig(draft);
      const dialog = get().dialog;
      if (dialog.kind === 'preview' || dialog.kind === 'error') set({ dialog: { ...dialog, busy: true } });
      try {
        // No layer on or off: the override would change nothing, so applying means removing Strata's.
        // Noted before the write: the watcher may report it before the answer arrives.
        noteOverrideWrite();
        await useActivity.getState().writing(async () => {
          if (config) await strataApi().call('override.apply', { config, ...(force ? { force } : {}) });
          else await strataApi().call('override.remove', force ? { force } : {});
        });
        const status = useDraft.getState().status;
        if (status.status === 'ready') savePreferredOrder(status.value.path, draft);
        await afterWrite(config ? "Applied: Strata's override now holds the draft." : "Applied: Strata's override is removed.", true);
      } catch (e) {
        set({ dialog: { kind: 'error', action: 'apply', error: toStrataError(e, config ? 'override.apply' : 'override.remove'), busy: false } });
      }
    },

    openRemove: () => set({ dialog: { kind: 'confirm-remove', busy: false } }),

    remove: async (force) => {
      const dialog = get().dialog;
      if (dialog.kind === 'confirm-remove' || dialog.kind === 'error') set({ dialog: { ...dialog, busy: true } });
      try {
        const result = await useActivity.getState().writing(() => strataApi().call('override.remove', force ? { force } : {}));
        const said =
          result.action === 'restored'
            ? "Strata's override is removed; the override that was there before Strata is back."
            : result.action === 'deleted'
              ? "Strata's override is removed."
              : `Nothing to remove: ${result.reason ?? 'no override of Strata’s'}.`;
        await afterWrite(said, false);
      } catch (e) {
        set({ dialog: { kind: 'error', action: 'remove', error: toStrataError(e, 'override.remove'), busy: false } });
      }
    },

    close: () => set({ dialog: { kind: 'closed' } }),
  };
});
