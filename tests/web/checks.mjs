// Checks shared by the browser tests that read the page rather than play it: accessibility
// (axe-core injected into the page), touch-target sizes, what is in view without scrolling,
// and the client's compressed size.
import {readFile, readdir, stat} from 'node:fs/promises';
import {createRequire} from 'node:module';
import path from 'node:path';
import {gzipSync} from 'node:zlib';

const require = createRequire(import.meta.url);
let axeSource = null;

// axe-core's violations on the page, of any impact (minor and moderate included), each named
// with its impact and the first elements it found.
export async function axeViolations(page) {
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated rather than added as a <script>: the page's Content-Security-Policy refuses inline
  // scripts, and what the test runs through the browser's own channel is not the page's.
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, {resultTypes: ['violations']});
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

// Runs axe-core on the page; fails on any violation, whatever its impact, naming each.
export async function axeCheck(page, what) {
  const result = await axeViolations(page);
  if (result.length) throw new Error(`axe on ${what}:\n       ${result.join('\n       ')}`);
}

// The picks on the board smaller than `min` CSS pixels either way (their bounding boxes). A pick
// a finger cannot hit (pointer-events: none, as the points of a board too fine to tap, which a
// tap zooms into first) is the keyboard's alone and not counted.
export async function smallTargets(page, selector = '#board .pick', min = 44) {
  return page.$$eval(selector, (els, m) => els.filter((el) => getComputedStyle(el).pointerEvents !== 'none').map((el) => {
    const r = el.getBoundingClientRect();
    return {w: Math.round(r.width), h: Math.round(r.height), label: el.querySelector('[aria-label]')?.getAttribute('aria-label') ?? el.getAttribute('aria-label')};
  }).filter((r) => r.w < m || r.h < m), min);
}

// Whether some element of the selector is wholly inside the viewport, where the page is scrolled.
export async function someInView(page, selector) {
  return page.$$eval(selector, (els) => els.some((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  }));
}

// gzip -9 of every file of the client, summed: the bytes a first visit downloads compressed.
// types/ holds declarations for the type check only; the page never loads them.
// The PNG icons apart (`icons`, their bytes as they are): a browser fetches them to install the
// page or put it on a home screen, and they do not compress.
// What one reader can ever download: every file of the client but the PNG icons, and of the
// language catalogues (web/i18n/<lang>.js, one loaded per reader) the largest one.
export async function clientSize(dir) {
  let raw = 0, gz = 0, files = 0, icons = 0;
  const catalogues = [];
  const walk = async (d) => {
    for (const name of await readdir(d)) {
      const p = path.join(d, name);
      if (d === dir && name === 'types') continue;
      if ((await stat(p)).isDirectory()) await walk(p);
      else if (name.endsWith('.png')) icons += (await stat(p)).size;
      else {
        const data = await readFile(p);
        const size = {raw: data.length, gz: gzipSync(data, {level: 9}).length};
        if (path.basename(d) === 'i18n' && name !== 'index.js') {
          catalogues.push(size);
          continue;
        }
        raw += size.raw;
        gz += size.gz;
        files++;
      }
    }
  };
  await walk(dir);
  const largest = catalogues.reduce((a, b) => (b.gz > a.gz ? b : a), {raw: 0, gz: 0});
  return {raw: raw + largest.raw, gz: gz + largest.gz, files: files + 1, icons, catalogue: largest.gz};
}

// How far the page is wider than the viewport (0 when nothing overflows horizontally), and the
// elements that stick out on the right, a few of them named.
export async function horizontalOverflow(page) {
  return page.evaluate(() => {
    const over = document.documentElement.scrollWidth - innerWidth;
    const culprits = over <= 0 ? [] : [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > innerWidth + 0.5)
      .slice(0, 3).map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')}`);
    return {over: Math.max(0, over), culprits};
  });
}
