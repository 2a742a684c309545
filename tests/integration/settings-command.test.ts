import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withTempHome } from '../helpers/temp-home';
import { runStrata } from '../helpers/strata-cli';

/**
 * `strata settings show|export` and the settings part of `strata override apply|status|remove`,
 * through the built CLI (run `node scripts/build.mjs` first), against the layers Debian installs.
 */
const VALIDATION = 'VK_LAYER_KHRONOS_validation';

const oneLine = (stderr: string) => {
  assert.equal(stderr.trimEnd().split('\n').length, 1, `one line: ${stderr}`);
  return stderr;
};

test(
  'settings show: the settings with defaults and details; --json gives them flat with depth; an unknown layer is a usage error naming the nearest',
  withTempHome((home) => {
    const human = runStrata(['settings', 'show', '--layer', VALIDATION], home.env);
    assert.equal(human.status, 0, human.stderr);
    assert.match(human.stdout, /18 settings on Linux; in vk_layer_settings\.txt as khronos_validation\.<key> = <value>/);
    assert.match(
      human.stdout,
      /^\s+duplicate_message_limit\s+INT \(whole number\)\s+10\s+1–…; env VK_LAYER_DUPLICATE_MESSAGE_LIMIT; needs enable_message_limit=true$/m,
    );
    const json = runStrata(['settings', 'show', '--layer', VALIDATION, '--json'], home.env);
    const parsed = JSON.parse(json.stdout) as {
      prefix: string;
      settings: { key: string; depth: number; default?: unknown }[];
      presets: unknown[];
      diagnostics: unknown[];
    };
    assert.equal(parsed.prefix, 'khronos_validation');
    assert.equal(parsed.settings.length, 18);
    assert.deepEqual(
      parsed.settings.find((s) => s.key === 'log_filename'),
      { ...parsed.settings.find((s) => s.key === 'log_filename'), depth: 1, default: 'stdout' },
    );
    assert.equal(parsed.presets.length, 6);
    assert.deepEqual(parsed.diagnostics, []);
    const unknown = runStrata(['settings', 'show', '--layer', 'VK_LAYER_KHRONOS_validaton'], home.env);
    assert.equal(unknown.status, 2);
    assert.match(
      oneLine(unknown.stderr),
      /^strata: No layer named VK_LAYER_KHRONOS_validaton was found .*\(--layer\)\. Fix: did you mean VK_LAYER_KHRONOS_validation\?/,
    );
  }),
);

test(
  'settings export: --set changes values (unknown key and bad value are one-line usage errors); -o writes atomically; --dry-run writes nothing',
  withTempHome((home) => {
    const badKey = runStrata(['settings', 'export', '--layer', VALIDATION, '--format', 'txt', '--set', 'log_filenam=/tmp/x'], home.env);
    assert.equal(badKey.status, 2);
    assert.match(oneLine(badKey.stderr), /has no setting "log_filenam" \(--set log_filenam=\/tmp\/x\)\. Fix: did you mean log_filename\?/);
    const badValue = runStrata(['settings', 'export', '--layer', VALIDATION, '--format', 'txt', '--set', 'duplicate_message_limit=0'], home.env);
    assert.equal(badValue.status, 2);
    assert.match(oneLine(badValue.stderr), /Max Duplicated Messages \(duplicate_message_limit\): must be at least 1 .*Fix: give a whole number from 1/);
    const badFormat = runStrata(['settings', 'export', '--layer', VALIDATION, '--format', 'pdf'], home.env);
    assert.equal(badFormat.status, 2);

    const out = join(home.dir, 'exports', 'vk_layer_settings.txt');
    const dry = runStrata(
      ['settings', 'export', '--layer', VALIDATION, '--format', 'txt', '--set', 'report_flags=error,warn', '-o', out, '--dry-run'],
      home.env,
    );
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /^khronos_validation\.report_flags = error,warn$/m);
    assert.match(dry.stderr, /dry run: .* was not written/);
    assert.ok(!existsSync(out));

    const dir = home.dir;
    const target = join(dir, 'vk_layer_settings.txt');
    const wrote = runStrata(
      [
        'settings',
        'export',
        '--layer',
        VALIDATION,
        '--format',
        'txt',
        '--set',
        'report_flags=error,warn',
        '--set',
        'khronos_validation.enable_message_limit=false',
        '-o',
        target,
      ],
      home.env,
    );
    assert.equal(wrote.status, 0, wrote.stderr);
    const text = readFileSync(target, 'utf8');
    assert.match(text, /^khronos_validation\.report_flags = error,warn$/m);
    assert.match(text, /^khronos_validation\.enable_message_limit = false$/m, 'the layer-prefixed key form works too');
    assert.ok(!text.includes('duplicate_message_limit'), 'its dependence (enable_message_limit) no longer holds, so it is left out');
    assert.ok(!readdirSync(dir).some((f) => f.endsWith('.tmp')), 'no temp file left');

    const free = runStrata(['settings', 'export', '--layer', 'VK_LAYER_MESA_device_select', '--format', 'bash', '--set', 'note=x'], home.env);
    assert.equal(free.status, 0, free.stderr);
    assert.match(free.stdout, /^#   mesa_device_select\.note = x$/m);
  }),
);

test(
  "settings export --profile: the profile's or preset's values for the layer are the starting values, --set still wins; an unknown profile is its error",
  withTempHome((home) => {
    const preset = runStrata(['settings', 'export', '--layer', VALIDATION, '--format', 'txt', '--profile', 'validation-synchronization'], home.env);
    assert.equal(preset.status, 0, preset.stderr);
    assert.match(preset.stdout, /^khronos_validation\.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT$/m);
    assert.match(preset.stdout, /^khronos_validation\.disables = .*VK_VALIDATION_FEATURE_DISABLE_CORE_CHECKS_EXT$/m);

    const dir = join(home.env['XDG_CONFIG_HOME']!, 'strata', 'profiles');
    mkdirSync(dir, { recursive: true });
    const profile = {
      schemaVersion: 2,
      name: 'Quiet',
      layers: [{ name: VALIDATION, state: 'on' }],
      settings: { [VALIDATION]: { duplicate_message_limit: 3, report_flags: ['error'] } },
    };
    writeFileSync(join(dir, 'Quiet.json'), JSON.stringify(profile));
    const mine = runStrata(
      ['settings', 'export', '--layer', VALIDATION, '--format', 'txt', '--profile', 'quiet', '--set', 'report_flags=error,warn'],
      home.env,
    );
    assert.equal(mine.status, 0, mine.stderr);
    assert.match(mine.stdout, /^khronos_validation\.duplicate_message_limit = 3$/m, 'from the profile');
    assert.match(mine.stdout, /^khronos_validation\.report_flags = error,warn$/m, '--set over the profile');
    const other = runStrata(['settings', 'export', '--layer', 'VK_LAYER_MESA_device_select', '--format', 'txt', '--profile', 'Quiet'], home.env);
    assert.equal(other.status, 0, other.stderr);
    assert.ok(!other.stdout.includes('duplicate_message_limit'), 'a layer the profile keeps no values for starts from its defaults');

    const unknown = runStrata(['settings', 'export', '--layer', VALIDATION, '--format', 'txt', '--profile', 'Nope'], home.env);
    assert.equal(unknown.status, 1);
    assert.match(oneLine(unknown.stderr), /^strata: There is no profile named "Nope" .*Fix: use a profile or a preset name/);
  }),
);

test(
  'override apply with settings: the settings file is created beside the override, status shows it, remove takes both away',
  withTempHome((home) => {
    const config = join(home.dir, 'c.json');
    writeFileSync(config, JSON.stringify({ layers: [{ name: VALIDATION, state: 'on' }], settings: { [VALIDATION]: { duplicate_message_limit: 3 } } }));
    const apply = runStrata(['override', 'apply', '--config', config], home.env);
    assert.equal(apply.status, 0, apply.stderr);
    const file = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'settings.d', 'vk_layer_settings.txt');
    assert.match(apply.stdout, new RegExp(`^Layer settings: Created ${file.replace(/[.]/g, '\\.')} \\(there was no settings file before\\)\\.$`, 'm'));
    assert.match(readFileSync(file, 'utf8'), /^khronos_validation\.duplicate_message_limit = 3$/m);
    const status = runStrata(['override', 'status'], home.env);
    assert.match(status.stdout, /^Layer settings file\n\s+file\s+.*vk_layer_settings\.txt\n\s+state\s+Strata's \(written /m);
    const json = JSON.parse(runStrata(['override', 'status', '--json'], home.env).stdout) as { settings: { ownership: string } };
    assert.equal(json.settings.ownership, 'strata');
    const bad = join(home.dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ layers: [], settings: { [VALIDATION]: { report_flags: ['loud'] } } }));
    const refused = runStrata(['override', 'apply', '--config', bad], home.env);
    assert.equal(refused.status, 1);
    assert.match(
      oneLine(refused.stderr),
      /"loud" is not one of the values.*nothing was written \(settings\.VK_LAYER_KHRONOS_validation\.report_flags\)\. Fix: /,
    );
    const remove = runStrata(['override', 'remove'], home.env);
    assert.equal(remove.status, 0, remove.stderr);
    assert.match(remove.stdout, /Removed Strata's layer settings file/);
    assert.ok(!existsSync(file));
  }),
);
