// Draws the extension's icons (a 2048 tile with an autopilot arrow) as SVG and rasterises them with
// headless Chromium into icons/icon-{16,32,48,128}.png. Run: node icons/render-icons.mjs
// (needs /usr/bin/chromium or CHROME_PATH). The PNGs are committed; this script is how they were made.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = dirname(fileURLToPath(import.meta.url));
const SIZES = [16, 32, 48, 128];

/** The icon at `size` px: small sizes drop the "2048" label and thicken the arrow so it stays legible. */
export function iconSvg(size) {
  const small = size < 48;
  const radius = small ? 3 : 14;
  const label = small
    ? ''
    : `<text x="64" y="49" text-anchor="middle" font-family="'Clear Sans','Helvetica Neue',Arial,sans-serif"
         font-weight="800" font-size="38" fill="#ffffff" letter-spacing="-1">2048</text>`;
  // Autopilot arrow: a chevron pointing up-right with a trailing "flight path" of three dots.
  const arrow = small
    ? `<path d="M30 98 L98 30 M52 30 H98 V76" fill="none" stroke="#ffffff" stroke-width="20" stroke-linecap="round" stroke-linejoin="round"/>`
    : `<path d="M44 104 L92 62 M62 60 H94 V92" fill="none" stroke="#ffffff" stroke-width="11" stroke-linecap="round" stroke-linejoin="round"/>
       <circle cx="30" cy="116" r="4.5" fill="#ffffff" opacity="0.85"/>
       <circle cx="20" cy="124" r="3" fill="#ffffff" opacity="0.6"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 128 128">
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#f3d04a"/>
      <stop offset="1" stop-color="#e2b41f"/>
    </linearGradient>
  </defs>
  <rect x="2" y="2" width="124" height="124" rx="${radius * 2}" fill="url(#g)"/>
  <rect x="2" y="2" width="124" height="124" rx="${radius * 2}" fill="none" stroke="#c9a016" stroke-width="3"/>
  ${label}
  ${arrow}
</svg>`;
}

async function main() {
  const executablePath = process.env.CHROME_PATH ?? ['/usr/bin/chromium', '/usr/bin/google-chrome'].find((p) => existsSync(p));
  if (!executablePath) throw new Error('No Chromium found (set CHROME_PATH)');
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    for (const size of SIZES) {
      await page.setViewportSize({ width: size, height: size });
      await page.setContent(`<html><body style="margin:0;background:transparent">${iconSvg(size)}</body></html>`);
      await page.locator('svg').screenshot({ path: join(HERE, `icon-${size}.png`), omitBackground: true });
      console.log(`icons/icon-${size}.png`);
    }
  } finally {
    await browser.close();
  }
}

await main();
