import { config } from 'zod';

/**
 * Zod probes `new Function('')` to decide whether it may compile faster parsers. Under our
 * Content-Security-Policy (no 'unsafe-eval') the probe fails — caught by zod, but Chromium still
 * reports a CSP violation. Every web entry point (both preloads, the renderer) imports this first.
 */
config({ jitless: true });
