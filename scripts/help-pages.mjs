#!/usr/bin/env node
// Prints, as JSON, what `strata ... --help` writes for every command of the built CLI, as a pipe
// (80 columns, no colour) sees it. scripts/build.mjs runs this with stdout piped and saves the
// answer as out/main/help-pages.json; bin/strata then answers `--help` from it without loading
// commander and the command tree (issue #19: start-up). Each page is produced by the CLI's own
// main(), so it is byte for byte what the CLI prints (tests/integration/cli-help-pages.test.ts
// checks every page against the CLI run without the pages).
import { pathToFileURL } from 'node:url';

const cliFile = process.argv[2];
if (!cliFile) throw new Error('usage: help-pages.mjs out/main/cli.mjs');
const { buildProgram, divertStandardStreams, main } = await import(pathToFileURL(cliFile).href);

/** Every command path, root first: [], ['info'], ['layer'], ['layer', 'list'], … */
function paths(command, prefix = []) {
  return [prefix, ...command.commands.flatMap((c) => paths(c, [...prefix, c.name()]))];
}

const pages = {};
for (const path of paths(buildProgram('0.0.0'))) {
  const said = { stdout: '', stderr: '' };
  // Everything the CLI prints goes through its standard-streams module, here into `said`.
  divertStandardStreams((stream, text) => (said[stream] += text));
  let code;
  try {
    code = await main([...path, '--help']);
  } finally {
    divertStandardStreams(null);
  }
  // Only a plain page (exit 0, nothing on stderr) is kept; anything else is left to the CLI.
  if (code === 0 && said.stderr === '') pages[path.join(' ')] = said.stdout;
}
process.exitCode = 0;
process.stdout.write(JSON.stringify({ width: 80, pages }));
