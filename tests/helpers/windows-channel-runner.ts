/**
 * One router channel answered by Windows Node under Wine, for channels no CLI command prints (the
 * status strip's `activity.status`): bundled by the test (windows-lane.ts bundleForLane) and run by
 * lane.node(). It goes through the CLI host's entry (callChannel: the router, the services, the
 * probe in process), so the answer is the one the desktop window and `strata serve` get.
 *
 *   node windows-channel-runner.mjs CHANNEL REQUEST.json RESULT.json
 *
 * RESULT.json holds `{ ok: true, value }` or `{ ok: false, error }` (Windows Node's stdout cannot be a
 * pipe under Wine: the answer goes through a file).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { callChannel } from '../../main/hosts/cli/cli-channel';
import type { ChannelName, RequestOf } from '../../shared/ipc/contract';

const [channel, requestFile, resultFile] = process.argv.slice(2);
if (!channel || !requestFile || !resultFile) throw new Error('usage: windows-channel-runner.mjs CHANNEL REQUEST.json RESULT.json');
try {
  const value = await callChannel(channel as ChannelName, JSON.parse(readFileSync(requestFile, 'utf8')) as RequestOf<ChannelName>);
  writeFileSync(resultFile, JSON.stringify({ ok: true, value }));
} catch (e) {
  writeFileSync(resultFile, JSON.stringify({ ok: false, error: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) }));
  process.exitCode = 1;
}
