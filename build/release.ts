/**
 * `npm run release`: the packages for the two stores and the source for addons.mozilla.org's review.
 *
 *   1. the release check (build/release-check.ts): the version was bumped and CHANGELOG.md has its
 *      section; the working tree is clean (the source package must be what was built; --allow-dirty to
 *      try it out anyway);
 *   2. `npm run build`: dist/ and dist-firefox/, packed by build/zip.mjs into
 *      release/2048-autopilot-<version>-chrome.zip and -firefox.zip;
 *   3. `web-ext lint` of dist-firefox/: no error (warnings are printed);
 *   4. release/2048-autopilot-<version>-source.zip: every file git tracks, with build/REVIEWERS.md (how to
 *      build the Firefox package from it) also at the archive's root as REVIEWERS.md.
 *
 * Then tag the commit (`git tag v<version>`): the next release is checked against that tag.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { zipSync } from 'fflate';
import { releaseProblems } from './release-check';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const NAME = '2048-autopilot';

function run(command: string, args: string[], options: { quiet?: boolean } = {}): string {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', options.quiet ? 'pipe' : 'inherit', 'inherit'], maxBuffer: 64 << 20 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
  return result.stdout ?? '';
}

function git(args: string[]): string {
  return run('git', args, { quiet: true });
}

function fail(lines: string[]): never {
  for (const line of lines) console.error(`release: ${line}`);
  process.exit(1);
}

/** `web-ext lint` of the Firefox build: the errors (each a line), after printing the summary. */
function lintFirefox(): string[] {
  const lint = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/web-ext/bin/web-ext.js'), 'lint', '--source-dir', join(ROOT, 'dist-firefox'), '--output', 'json', '--no-config-discovery'],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  const report = JSON.parse(lint.stdout) as {
    summary: { errors: number; warnings: number; notices: number };
    errors: { code: string; file?: string; message: string }[];
    warnings: { code: string; file?: string; message: string }[];
  };
  console.log(`release: web-ext lint: ${report.summary.errors} errors, ${report.summary.warnings} warnings, ${report.summary.notices} notices`);
  for (const w of report.warnings) console.log(`  warning ${w.code} ${w.file ?? ''}: ${w.message}`);
  return report.errors.map((e) => `web-ext lint: ${e.code} ${e.file ?? ''}: ${e.message}`);
}

/**
 * The source package: every file git tracks, as the working tree has it (release refuses a dirty tree, so
 * as the commit has it), plus build/REVIEWERS.md again at the root as REVIEWERS.md. Returns the zip's bytes.
 */
export function sourceZip(root: string = ROOT): { bytes: Uint8Array; files: number } {
  const tracked = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 }).stdout;
  const files = tracked.split('\0').filter((file) => file !== '' && existsSync(join(root, file)) && statSync(join(root, file)).isFile());
  const mtime = new Date('2024-01-01T00:00:00Z');
  const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
  for (const file of files.sort()) entries[file] = [readFileSync(join(root, file)), { mtime }];
  entries['REVIEWERS.md'] = [readFileSync(join(root, 'build/REVIEWERS.md')), { mtime }];
  return { bytes: zipSync(entries, { level: 9 }), files: files.length };
}

function main(): void {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { 'allow-dirty': { type: 'boolean', default: false } } });
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const changelogPath = join(ROOT, 'CHANGELOG.md');
  const problems = releaseProblems({
    version,
    earlierTags: git(['tag', '--list', '--no-contains', 'HEAD']).split('\n').filter(Boolean),
    changelog: existsSync(changelogPath) ? readFileSync(changelogPath, 'utf8') : null,
  });
  if (problems.length > 0) fail(problems);
  const dirty = git(['status', '--porcelain', '--untracked-files=no']).trim();
  if (dirty && !values['allow-dirty']) fail(['the working tree has uncommitted changes: commit them first (or --allow-dirty to try).', dirty]);

  console.log(`release: ${NAME} ${version}`);
  run('npm', ['run', 'build']);
  const lintErrors = lintFirefox();
  if (lintErrors.length > 0) fail(lintErrors);

  const dir = join(ROOT, 'release');
  mkdirSync(dir, { recursive: true });
  const source = join(dir, `${NAME}-${version}-source.zip`);
  const zipped = sourceZip();
  writeFileSync(source, zipped.bytes);
  console.log(`${relative(ROOT, source)}: ${zipped.files} files, ${(zipped.bytes.length / 1024).toFixed(1)} KiB`);
  for (const browser of ['chrome', 'firefox']) {
    const zip = join(dir, `${NAME}-${version}-${browser}.zip`);
    if (!existsSync(zip)) fail([`${relative(ROOT, zip)} was not written by the build.`]);
  }
  console.log(`release: done. Upload the chrome and firefox zips (and the source zip to AMO), then: git tag v${version}`);
}

// Run as `npm run release` (tsx build/release.ts); imported (a test of the source package), nothing runs.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main();
  } catch (err) {
    fail([err instanceof Error ? err.message : String(err)]);
  }
}
