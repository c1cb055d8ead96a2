#!/usr/bin/env node
// Makes the web app's PNG icons from the hand-drawn SVGs, web/icons/icon.svg (the page's too) and
// tools/icons/maskable.svg (the PNG's source only, so not served) (the manifest lists both kinds;
// some platforms, such as the home screen of iOS, take PNG only): Debian's chromium, through the
// browser tests' playwright-core, draws each SVG at the size asked and saves the picture.
//   node tools/web-icons.mjs [--chromium /usr/bin/chromium]
// Run it again after changing an SVG, and commit the PNGs with it.
import {readFile} from 'node:fs/promises';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {launchBrowser} from '../tests/web/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const icons = path.join(here, '..', 'web', 'icons');
const sources = {'icon.svg': icons, 'maskable.svg': path.join(here, 'icons')};
const args = process.argv.slice(2);
const i = args.indexOf('--chromium');
const chromium = i >= 0 ? args[i + 1] : '/usr/bin/chromium';

// [svg, png, size]: "any" icons on a transparent corner, the maskable one full bleed.
const OUTPUTS = [
  ['icon.svg', 'icon-192.png', 192],
  ['icon.svg', 'icon-512.png', 512],
  ['maskable.svg', 'maskable-512.png', 512],
];

const browser = await launchBrowser(chromium);
try {
  for (const [svg, png, size] of OUTPUTS) {
    const source = await readFile(path.join(sources[svg], svg), 'utf8');
    const page = await browser.newPage({viewport: {width: size, height: size}, deviceScaleFactor: 1});
    const url = `data:image/svg+xml;base64,${Buffer.from(source).toString('base64')}`;
    await page.setContent(`<!doctype html><style>html,body{margin:0;background:transparent}img{display:block}</style>` +
                          `<img src="${url}" width="${size}" height="${size}" alt="">`);
    await page.waitForFunction(() => document.querySelector('img').complete);
    await page.screenshot({path: path.join(icons, png), omitBackground: true, clip: {x: 0, y: 0, width: size, height: size}});
    await page.close();
    console.log(`${png}: ${size} x ${size} from ${svg}`);
  }
} finally {
  await browser.close();
}
