import { OVERRIDE_DISABLE_VARIABLE, OVERRIDE_LAYER_NAME } from '../../../shared/override/override-names';
import { countRecord, emptyCounts, type CaptureRecord, type SessionCounts } from '../../../shared/sessions/session-records';
import { countsLabel } from './session-labels';

/**
 * What a session's header says about its log, from the records themselves while it runs (the
 * footer's counts once it ended): the same counting as the session file (shared/sessions/
 * session-records.ts countRecord), so the header never says "0 warnings" over a log of warnings.
 */
export function liveCounts(records: readonly CaptureRecord[], footerCounts?: SessionCounts | null): { counts: SessionCounts; label: string } {
  let counts = footerCounts ?? null;
  if (!counts) {
    counts = emptyCounts();
    for (const r of records) countRecord(counts, r);
  }
  return { counts, label: countsLabel(counts) };
}

const COMPONENT_WARNING = new RegExp(`Meta-layer ${OVERRIDE_LAYER_NAME} can't find component layer (\\S+)`);

/**
 * A launch with a profile switches every installed override layer off through its
 * disable_environment (DISABLE_STRATA_OVERRIDE=1, shared/profiles/launch-environment.ts), so that the
 * profile alone decides. The loader still checks a switched-off override's component layers
 * (loader.c loader_scan_for_implicit_layers → verify_all_meta_layers, 1.3.239 through 1.4.359): it
 * reads the explicit layers only when an override is *on*, so each explicit component is "not
 * found", and it says so at every vkEnumerate…/vkCreateInstance call (61 lines for one
 * vulkaninfo). No variable keeps the loader from checking, so the header explains them once: they
 * concern the switched-off override, not the profile's layers.
 */
export function overrideWarningsNote(summary: { profile: string | null }, records: readonly CaptureRecord[]): string | null {
  if (summary.profile === null) return null;
  let count = 0;
  const components: string[] = [];
  for (const r of records) {
    if (r.kind !== 'line' || r.src !== 'loader') continue;
    const m = COMPONENT_WARNING.exec(r.text);
    if (!m) continue;
    count++;
    if (!components.includes(m[1]!)) components.push(m[1]!);
  }
  if (count === 0) return null;
  return (
    `${count} loader warning${count === 1 ? '' : 's'} “Meta-layer ${OVERRIDE_LAYER_NAME} can't find component layer” (${components.join(', ')}) ` +
    `${count === 1 ? 'concerns' : 'concern'} Strata's installed override layer, which this launch switched off (${OVERRIDE_DISABLE_VARIABLE}=1) so that the profile “${summary.profile}” alone decides. ` +
    `The loader checks a switched-off override's components before it has read the explicit layers, warns, and drops that override, which was off anyway; ` +
    `the profile's own layers come from the launch's variables and are not affected. Launch a bound application without a profile to run it with its binding and none of these warnings.`
  );
}
