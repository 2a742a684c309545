import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIRST_VIEW_BODY, FIRST_VIEW_REQUEST } from '../../shared/ipc/first-view-request';
import { channelSchemas } from '../../shared/ipc/contract';

/**
 * shared/ipc/first-view-request.ts: the request the page sends ahead and the renderer makes first
 * must be one the contract accepts, and the body both sides compare must be its JSON.
 */
test('the first view asks discovery.manifests with fresh: false, a request the contract accepts; the body is its JSON', async () => {
  const { request } = await channelSchemas(FIRST_VIEW_REQUEST.channel);
  assert.deepEqual(request.parse(FIRST_VIEW_REQUEST.request), { fresh: false });
  assert.equal(FIRST_VIEW_BODY, JSON.stringify(FIRST_VIEW_REQUEST.request));
  assert.deepEqual(JSON.parse(FIRST_VIEW_BODY), FIRST_VIEW_REQUEST.request);
});
