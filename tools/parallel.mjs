#!/usr/bin/env node
// Run npm scripts side by side, in phases (npm test uses it; docs: CONTRIBUTING.md, "Tests"):
//
//   node tools/parallel.mjs typecheck lint build:e2e \
//     --then test:e2e:main "test:e2e:hostile ; test:e2e:firefox" "test:unit ; test:e2e:late"
//
// That is: type-check, lint and the builds (the store builds, then the test builds copied from them)
// together; then three lanes, each one browser at a time: the Chromium tier's main lane; its hostile pages,
// then the Firefox tier; the unit tests, then the Chromium tier's fixture sites and long-task bounds (the
// lanes: vitest.shared.ts CHROMIUM_LANES, balanced by measured time).
//
// Each argument is a job: steps separated by `;`, run one after the other whatever the last one ended with;
// a step is npm scripts joined by `&&`, run one after the other while they pass. The jobs of a phase run
// side by side; the next phase starts once every job of this one has ended, and only when all of them
// passed. A job's output is printed in one piece when it ends (never interleaved with another's), with its
// time and each script's. Exits 1 when any job failed, after its phase (the other jobs of the phase are let
// finish: their failures are news too).
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The phases: lists of jobs, each a list of steps, each a list of npm scripts. */
export function parsePhases(args) {
  const phases = [[]];
  for (const arg of args) {
    if (arg === '--then') {
      phases.push([]);
      continue;
    }
    const steps = arg.split(';').map((step) => step.split('&&').map((s) => s.trim()));
    if (steps.flat().some((s) => !/^[\w:.-]+$/.test(s))) throw new Error(`not a list of npm scripts: "${arg}"`);
    phases[phases.length - 1].push(steps);
  }
  if (phases.some((jobs) => jobs.length === 0)) throw new Error('every phase needs at least one job');
  return phases;
}

function runScript(script, output) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' } });
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (err) => {
      output.push(Buffer.from(`${err.message}\n`));
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function runJob(steps) {
  const started = Date.now();
  const output = [];
  const times = [];
  let code = 0;
  for (const scripts of steps) {
    for (const script of scripts) {
      output.push(Buffer.from(`> npm run ${script}\n`));
      const from = Date.now();
      const status = await runScript(script, output);
      times.push(`${script} ${((Date.now() - from) / 1000).toFixed(1)} s`);
      if (status !== 0) {
        code = code || status;
        break;
      }
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const name = steps.map((scripts) => scripts.join(' && ')).join(' ; ');
  const each = times.length > 1 ? `: ${times.join(', ')}` : '';
  process.stdout.write(`\n━━ ${name} (${seconds} s${each}${code === 0 ? '' : `, exit ${code}`})\n`);
  process.stdout.write(Buffer.concat(output));
  return { name, code, seconds, each };
}

async function main() {
  const phases = parsePhases(process.argv.slice(2));
  const started = Date.now();
  const times = [];
  for (const jobs of phases) {
    const results = await Promise.all(jobs.map(runJob));
    times.push(...results);
    const failed = results.filter((r) => r.code !== 0);
    if (failed.length > 0) {
      process.stdout.write(`\nparallel: failed: ${failed.map((f) => f.name).join(', ')}\n`);
      return 1;
    }
  }
  const total = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`\nparallel: all passed in ${total} s (${times.map((t) => `${t.name} ${t.seconds} s${t.each ? ` [${t.each.slice(2)}]` : ''}`).join(', ')})\n`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error(`parallel: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(2);
    },
  );
}
