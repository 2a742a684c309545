// @ts-check
// The layering table of docs/architecture.md ("The layers"), enforced: who may import whom among shared/,
// main/, preload/, renderer/ and native-bridge/. Checked by `npm run layering` and by
// tests/unit/layering.test.ts (which also runs these rules against tests/fixtures/layering/).
//
// Paths in rules are relative to the directory depcruise runs in (the repo root, or a fixture
// root in the test), so they start with the folder name: '^shared/'. npm packages are matched
// anywhere in the path ('(^|/)node_modules/…') because from a fixture root they resolve to
// '../../../../node_modules/…'.
//
// Each comment is what a developer reads in `--output-type err-long`: what the layer MAY import.
// The rules are cut so that one bad import breaks exactly one rule (node built-ins, npm packages
// and our own folders are disjoint targets), so the message always names the precise problem.
const path = require('node:path');

/** npm packages with no Node built-ins and no DOM: safe in every layer, shared/ included. Add a
 * package here only after checking that (its own imports, not its README). */
const PLATFORM_FREE_PACKAGES = ['zod', 'jsonc-parser', 'vscode-languageserver-types'];
/** What renderer/ may use for its UI on top of the platform-free packages. fflate: its browser
 * build (package.json "module"/"browser", what Vite bundles) imports nothing; only its Node build
 * reaches for worker_threads, so it is the renderer's, not shared/'s (the diagnostics zip). */
const REACT_PACKAGES = ['react', 'react-dom', 'zustand', '@dnd-kit/[^/]+', 'fflate'];

/** Matches an import that resolved into node_modules/ (from any base directory). */
const NPM = '(^|/)node_modules/';
/** Matches an import that resolved into one of `names` (or its @types/ package). */
const npmPackages = (/** @type {string[]} */ names) => `${NPM}(@types/)?(${names.join('|')})/`;

/** Inside main/: the hosts (main/hosts/cli, serve, electron) and the wiring they share (main/hosts/*.ts), which may import everything below them. */
const HOST_SIDE = '^main/hosts/';

/** The target of an import into our own tree (not npm, not a Node built-in, resolved). The
 * allowed folders go in `pathNot`. */
const ownFolders = (/** @type {string[]} */ allowed) => ({
  dependencyTypesNot: ['core'],
  couldNotResolve: false,
  pathNot: [NPM, ...allowed],
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // ---- shared/ ---------------------------------------------------------------------------
    {
      name: 'shared-no-node-builtins',
      severity: 'error',
      comment:
        'Bad layering: shared/ is pure TypeScript that runs in every host (renderer included), so it ' +
        'may not use Node built-ins. Allowed in shared/: shared/ and platform-free npm packages (' +
        `${PLATFORM_FREE_PACKAGES.join(', ')}). Do the I/O in main/ and pass the data in.`,
      from: { path: '^shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'shared-allowed-folders',
      severity: 'error',
      comment:
        'Bad layering: shared/ is the bottom layer. Allowed in shared/: shared/ and platform-free npm ' +
        `packages (${PLATFORM_FREE_PACKAGES.join(', ')}); never main/, preload/, renderer/, ` +
        'native-bridge/ or tests/. Move what both sides need into shared/.',
      from: { path: '^shared/' },
      // native-bridge/ is reported by native-bridge-only-from-main.
      to: ownFolders(['^shared/', '^native-bridge/']),
    },
    {
      name: 'shared-allowed-packages',
      severity: 'error',
      comment:
        'Bad layering: shared/ runs in every host, so not electron, react, react-dom, zustand, koffi ' +
        `or Node-only packages. Allowed npm packages in shared/: ${PLATFORM_FREE_PACKAGES.join(', ')} ` +
        '(a new platform-free one goes into PLATFORM_FREE_PACKAGES in .dependency-cruiser.cjs after ' +
        'review).',
      from: { path: '^shared/' },
      to: { path: NPM, pathNot: npmPackages(PLATFORM_FREE_PACKAGES) },
    },
    {
      name: 'shared-no-circular',
      // An error, not a warning: shared/ holds one concept per module, and a cycle between modules
      // that build zod schemas at top level is a "Cannot access X before initialization" at load
      // time in whichever host happens to import the cycle from the wrong end.
      severity: 'error',
      comment:
        'shared/ modules may not import each other in a cycle. Allowed: an acyclic graph; move what ' +
        'both modules need into a third module that both import.',
      from: { path: '^shared/' },
      to: { path: '^shared/', circular: true },
    },

    // ---- renderer/ -------------------------------------------------------------------------
    {
      name: 'renderer-no-node-builtins',
      severity: 'error',
      comment:
        'Bad layering: renderer/ runs in a sandboxed browser page with no Node. Allowed in renderer/: ' +
        'renderer/, shared/, React libraries (react, react-dom, zustand, @dnd-kit/*) and platform-free ' +
        'packages. Ask main/ through window.strata (shared/ipc/contract.ts) instead.',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'renderer-allowed-folders',
      severity: 'error',
      comment:
        'Bad layering: allowed in renderer/: renderer/ and shared/ only; never main/, preload/, ' +
        'native-bridge/ or tests/. The renderer reaches main/ only through window.strata, typed by ' +
        'shared/ipc/contract.ts.',
      from: { path: '^renderer/' },
      // native-bridge/ is reported by native-bridge-only-from-main.
      to: ownFolders(['^renderer/', '^shared/', '^native-bridge/']),
    },
    {
      name: 'renderer-allowed-packages',
      severity: 'error',
      comment:
        'Bad layering: no electron (use window.strata), koffi or Node-only packages in renderer/. ' +
        'Allowed npm packages in renderer/: React libraries (react, react-dom, zustand, @dnd-kit/*), fflate (zip, browser build) ' +
        `and platform-free packages (${PLATFORM_FREE_PACKAGES.join(', ')}).`,
      from: { path: '^renderer/' },
      to: { path: NPM, pathNot: npmPackages([...REACT_PACKAGES, ...PLATFORM_FREE_PACKAGES]) },
    },
    {
      name: 'renderer-ui-below-features',
      severity: 'error',
      comment:
        'Bad layering: renderer/src/ui/ holds the pieces every feature uses (Card, Dialog, DataTable, icons) ' +
        'and knows no feature. Allowed in renderer/src/ui/: renderer/src/ui/, shared/, and type-only imports ' +
        "of a feature (a panel id, a severity name); never a feature's component, store or view model. " +
        'Pass what it needs in as props.',
      from: { path: '^renderer/src/ui/' },
      to: { path: '^renderer/src/', pathNot: '^renderer/src/ui/', dependencyTypesNot: ['type-only'] },
    },

    // ---- preload/ --------------------------------------------------------------------------
    {
      name: 'preload-no-node-builtins',
      severity: 'error',
      comment:
        'Bad layering: preload/ runs sandboxed (sandbox: true), where Node built-ins are not ' +
        'available. Allowed in preload/: preload/, shared/, electron (contextBridge, ipcRenderer) and ' +
        'platform-free packages.',
      from: { path: '^preload/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'preload-allowed-folders',
      severity: 'error',
      comment:
        'Bad layering: allowed in preload/: preload/ and shared/ only (plus electron); never main/, ' +
        'renderer/, native-bridge/ or tests/. What preload and main both need belongs in shared/.',
      from: { path: '^preload/' },
      // native-bridge/ is reported by native-bridge-only-from-main.
      to: ownFolders(['^preload/', '^shared/', '^native-bridge/']),
    },
    {
      name: 'preload-allowed-packages',
      severity: 'error',
      comment:
        'Bad layering: preload/ is a thin contextBridge. Allowed npm packages in preload/: electron ' +
        `(its renderer-side IPC) and platform-free packages (${PLATFORM_FREE_PACKAGES.join(', ')}).`,
      from: { path: '^preload/' },
      to: { path: NPM, pathNot: npmPackages(['electron', ...PLATFORM_FREE_PACKAGES]) },
    },

    // ---- main/ -----------------------------------------------------------------------------
    {
      name: 'main-allowed-folders',
      severity: 'error',
      comment:
        'Bad layering: allowed in main/: main/, shared/, native-bridge/, Node built-ins and npm ' +
        'packages; never renderer/, preload/ or tests/. main/ talks to the renderer through the ' +
        'shared/ipc contract (the Electron channel names are in shared/ipc/electron-channels.ts).',
      from: { path: '^main/' },
      to: ownFolders(['^main/', '^shared/', '^native-bridge/']),
    },
    {
      name: 'main-electron-only-in-main-electron',
      severity: 'error',
      comment:
        'Bad layering: electron may be imported only in main/hosts/electron/ (the Electron host). The rest ' +
        'of main/ (services, serve, cli) must run under plain Node: allowed there are main/, shared/, ' +
        'native-bridge/, Node built-ins and npm packages other than electron.',
      from: { path: '^main/', pathNot: '^main/hosts/electron/' },
      to: { path: npmPackages(['electron']) },
    },

    // ---- inside main/ (docs/architecture.md, "Inside main/") -------------------------------
    // main/hosts/ (cli, serve, electron and the wiring they share: app-context.ts, service-context.ts)
    // → main/router/ and the domain (discovery/, chain/, override/, profiles/, sessions/, activity/,
    // vulkan/, shaders/, app-info/, bridge/) → main/platform/. Never back up.
    {
      name: 'main-platform-allowed-folders',
      severity: 'error',
      comment:
        'Bad layering: main/platform/ is the bottom of main/ (atomic writes, locks, bounded reads, owned ' +
        'files). Allowed in main/platform/: main/platform/, shared/, Node built-ins and npm packages; ' +
        'never another main/ folder (a service, the router, a host). Move what it needs down into ' +
        'main/platform/, or pass it in as a parameter.',
      from: { path: '^main/platform/' },
      to: { path: '^main/', pathNot: '^main/platform/' },
    },
    {
      name: 'main-domain-no-hosts',
      severity: 'error',
      comment:
        'Bad layering: the domain of main/ (router, discovery, chain, override, profiles, sessions, ' +
        'activity, vulkan, shaders, app-info, the bridge) must not know its hosts. Allowed: the hosts ' +
        '(main/hosts/cli/, serve/, electron/) and their wiring (main/hosts/app-context.ts, service-context.ts) ' +
        'import the domain, never the reverse. Pass what the domain needs in as a parameter, or emit an ' +
        'event on main/platform/event-bus.ts.',
      // main/platform/ is reported by main-platform-allowed-folders.
      from: { path: '^main/', pathNot: [HOST_SIDE, '^main/platform/'] },
      to: { path: HOST_SIDE },
    },
    {
      name: 'main-hosts-apart',
      severity: 'error',
      comment:
        'Bad layering: a host does not import another host: main/hosts/cli/ and main/hosts/electron/ are imported ' +
        'by no one outside them. Allowed between hosts: cli/ → serve/entry.ts (lazily, for ' +
        '`strata serve`) and electron/ → serve/static-files.ts and content-security-policy.ts ' +
        '(the renderer files and their headers, served the same way by both UI hosts). What two hosts ' +
        'share belongs in the domain or main/platform/.',
      from: { path: '^main/hosts/(cli|serve|electron)/' },
      to: { path: '^main/hosts/(cli|electron)/', pathNot: '^main/hosts/$1/' },
    },
    {
      name: 'main-electron-serve-files-only',
      severity: 'error',
      comment:
        'Bad layering: main/hosts/electron/ may use only the renderer-serving part of main/hosts/serve/. Allowed in ' +
        'main/hosts/electron/ from main/hosts/serve/: static-files.ts and content-security-policy.ts; not the HTTP ' +
        'host, its guard or its tokens.',
      from: { path: '^main/hosts/electron/' },
      to: { path: '^main/hosts/serve/', pathNot: '^main/hosts/serve/(static-files|content-security-policy)[.]ts$' },
    },
    {
      name: 'main-cli-serve-entry-only',
      severity: 'error',
      comment:
        'Bad layering: main/hosts/cli/ reaches the browser host only through its one entry. Allowed in ' +
        "main/hosts/cli/ from main/hosts/serve/: main/hosts/serve/entry.ts, imported lazily (await import('../serve/entry')); " +
        'export what `strata serve` needs from there.',
      from: { path: '^main/hosts/cli/' },
      to: { path: '^main/hosts/serve/', pathNot: '^main/hosts/serve/entry[.]ts$' },
    },
    {
      name: 'main-cli-serve-lazy',
      severity: 'error',
      comment:
        'Bad layering: a static import of main/hosts/serve/entry.ts would load the HTTP server for every CLI ' +
        "command. Allowed: await import('../serve/entry') inside the `serve` command only.",
      from: { path: '^main/hosts/cli/' },
      to: { path: '^main/hosts/serve/entry[.]ts$', dynamic: false },
    },
    {
      name: 'main-router-from-wiring',
      severity: 'error',
      comment:
        'Bad layering: the router is created once, by the wiring the hosts share (main/hosts/service-context.ts). ' +
        'Allowed elsewhere in main/: type-only imports of main/router/router.ts (import type { Handlers, CallContext, Router }); ' +
        'a service is called by the router, it does not call it.',
      from: { path: '^main/', pathNot: HOST_SIDE },
      to: { path: '^main/router/router[.]ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'main-handlers-from-wiring',
      severity: 'error',
      comment:
        'Bad layering: the channel table (main/router/handlers.ts) is the top of the domain. Allowed ' +
        'to import it: the hosts and their wiring (main/hosts/); a ' +
        'service that needs another calls that service, not the channel table.',
      from: { path: '^main/', pathNot: [HOST_SIDE, '^main/router/handlers[.]ts$'] },
      to: { path: '^main/router/handlers[.]ts$' },
    },

    // ---- native-bridge/ --------------------------------------------------------------------
    {
      name: 'native-bridge-only-from-main',
      severity: 'error',
      comment:
        'Bad layering: native-bridge/ (koffi, the probe child process) is allowed only in main/ ' +
        '(through main/bridge/bridge-client.ts) and in native-bridge/ itself. shared/, renderer/ and ' +
        'preload/ get loader facts from main/ as data.',
      from: { pathNot: '^(main|native-bridge)/' },
      to: { path: '^native-bridge/' },
    },
    {
      name: 'native-bridge-allowed-folders',
      severity: 'error',
      comment:
        'Bad layering: allowed in native-bridge/: native-bridge/, shared/, Node built-ins, koffi and ' +
        'platform-free packages; never main/, renderer/, preload/ or tests/ (main/ calls the bridge, ' +
        'not the reverse).',
      from: { path: '^native-bridge/' },
      to: ownFolders(['^native-bridge/', '^shared/']),
    },
    {
      name: 'native-bridge-allowed-packages',
      severity: 'error',
      comment:
        'Bad layering: native-bridge/ runs as a plain Node child process (no electron). Allowed npm ' +
        `packages in native-bridge/: koffi and platform-free packages (${PLATFORM_FREE_PACKAGES.join(', ')}).`,
      from: { path: '^native-bridge/' },
      to: { path: NPM, pathNot: npmPackages(['koffi', ...PLATFORM_FREE_PACKAGES]) },
    },

    // ---- everywhere ------------------------------------------------------------------------
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'This import does not resolve to a file or an installed package, so no layering rule can ' +
        'judge it. Allowed: extensionless relative imports of existing .ts/.tsx files, Node ' +
        'built-ins, and packages listed in package.json (run npm install).',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports and re-exports count: `import type` from main/ into renderer/ still ties
    // the renderer to main's internals.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // Absolute, so the same config works when the test runs depcruise in a fixture root.
    tsConfig: { fileName: path.join(__dirname, 'tsconfig.base.json') },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      // Imports are extensionless (moduleResolution: Bundler); .js for npm packages' subpaths.
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    skipAnalysisNotInRules: true,
  },
};
