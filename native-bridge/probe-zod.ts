/**
 * What the probe's own modules take from zod (each as `import * as z from 'zod'`): scripts/build.mjs
 * bundles this file as out/native-bridge/probe-zod.cjs, the one zod of a probe, which the device,
 * negotiation and inspection modules require when they first run. Only these members, so that
 * requiring it starts no more of zod than the inline bundle did: all of zod made `strata device
 * list` ~8% slower. tests/unit/probe-zod.test.ts holds this list to what the probe's modules use.
 */
export { array, boolean, enum, number, object, record, string, unknown } from 'zod';
