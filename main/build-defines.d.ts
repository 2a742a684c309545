/**
 * What scripts/build.mjs defines (esbuild `define`) in a startup snapshot's bundle of the CLI: the
 * group of commands that bundle holds (bin/cli-snapshot.cjs SNAPSHOT_GROUPS). Absent from every
 * other bundle and from the sources run through tsx, so code tests it with `typeof` first; esbuild
 * decides such a test as it builds, and leaves out what only the other groups use (issue #19).
 */
declare const __STRATA_CLI_GROUP__: 'explain' | 'discovery' | 'shader' | undefined;
