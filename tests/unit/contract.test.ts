/**
 * The contract's schemas are loaded per channel, on first use (issue #19): each channel's `schemas`
 * must still give a request and a response schema, and a group of channels declared in a module of
 * its own must list exactly that module's channels.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod';
import { channelRequestSchema, channels, channelSchemas, type ChannelName } from '../../shared/ipc/contract';
import { channelsOfProfiles } from '../../shared/profiles/profile-channels';
import { channelsOfActivity } from '../../shared/activity/activity-status';

test('every channel loads a request and a response schema, the same objects on every call', async () => {
  for (const name of Object.keys(channels) as ChannelName[]) {
    const schemas = await channelSchemas(name);
    assert.ok(schemas.request instanceof z.ZodType, `${name}: request`);
    assert.ok(schemas.response instanceof z.ZodType, `${name}: response`);
    assert.equal(await channelSchemas(name), schemas, `${name}: loaded once`);
  }
});

test('channelRequestSchema gives each channel the request schema of its `schemas`, where a channel names it apart too', async () => {
  for (const name of Object.keys(channels) as ChannelName[]) assert.equal(await channelRequestSchema(name), (await channelSchemas(name)).request, name);
  assert.ok(Object.values(channels).filter((c) => 'request' in c).length >= 2);
});

test("the grouped channels are exactly their modules' channels, with their schemas", async () => {
  for (const group of [channelsOfProfiles, channelsOfActivity] as Record<string, { request: z.ZodType; response: z.ZodType }>[]) {
    for (const [name, spec] of Object.entries(group)) {
      assert.ok(Object.prototype.hasOwnProperty.call(channels, name), `${name} is not in the contract`);
      const schemas = await channelSchemas(name as ChannelName);
      assert.equal(schemas.request, spec.request, name);
      assert.equal(schemas.response, spec.response, name);
    }
  }
  const grouped = Object.keys(channels).filter((n) => n.startsWith('profiles.') || n.startsWith('activity.'));
  assert.deepEqual(grouped.sort(), [...Object.keys(channelsOfProfiles), ...Object.keys(channelsOfActivity)].sort());
});

test('a request is validated by the loaded schema: unknown fields refused', async () => {
  const { request } = await channelSchemas('app.info');
  assert.equal(request.safeParse({}).success, true);
  assert.equal(request.safeParse({ verbose: true }).success, false);
});
