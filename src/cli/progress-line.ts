/** A command's progress on stderr: rewritten in place on a terminal, otherwise one line every few seconds. */
import { readFileSync } from 'node:fs';
import { UsageError } from './args';

const isTty = process.stderr.isTTY === true;
/** Progress on stderr: rewritten in place on a terminal, otherwise one line every few seconds. */
const PROGRESS_INTERVAL_MS = isTty ? 100 : 5000;
let progressShown = false;
let lastProgress = 0;

export function progress(text: string): void {
  const now = performance.now();
  if (now - lastProgress < PROGRESS_INTERVAL_MS) return;
  lastProgress = now;
  if (isTty) {
    process.stderr.write(`\r\x1b[2K${text}`);
    progressShown = true;
  } else {
    process.stderr.write(`${text}\n`);
  }
}

export function endProgress(): void {
  if (isTty && progressShown) process.stderr.write('\n');
  progressShown = false;
  lastProgress = 0;
}

/** A file's text; a file that cannot be read is a UsageError naming it. */
export function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${file}${code === 'ENOENT' ? ': no such file' : code ? `: ${code}` : ''}`);
  }
}
