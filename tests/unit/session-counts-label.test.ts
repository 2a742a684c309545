import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countsLabel } from '../../shared/sessions/session-counts-label';
import { emptyCounts } from '../../shared/sessions/session-records';

// shared/sessions/session-counts-label.ts: one wording of a session's counts for the header, the history and `strata launch`.
test('validation counts always; the loader’s errors and warnings only when there are some; singular and plural', () => {
  const counts = emptyCounts();
  assert.equal(countsLabel(counts), '0 errors, 0 warnings, 0 info (validation)');
  counts.messages.error = 1;
  counts.messages.warning = 2;
  counts.messages.info = 5;
  counts.loader.info = 40;
  assert.equal(countsLabel(counts), '1 error, 2 warnings, 5 info (validation)', 'loader info and debug lines are not counted');
  counts.loader.warning = 1;
  assert.equal(countsLabel(counts), '1 error, 2 warnings, 5 info (validation) · loader: 0 errors, 1 warning');
  assert.equal(
    countsLabel({ messages: { error: 0, warning: 0, info: 0 }, loader: { error: 3, warning: 0 } }),
    '0 errors, 0 warnings, 0 info (validation) · loader: 3 errors, 0 warnings',
  );
});
