// Looks at both services the way a browser does: writes HTML pages of <img> tags (avatar sizes,
// directions, head directions, headonly, actions, held items, gestures, APNG loops, furni renders with
// colour variants, catalogue icons, fallbacks), checks every URL's status and headers, and takes a
// headless Chromium screenshot of each page.
//
// Not part of the test suite. It needs the services running on the sample kit (`npm start`) and
// Chromium installed (Debian: `apt-get install -y chromium`). Then:
//
//   node scripts/browser-check.mjs [--out DIR]     # default DIR: /tmp/hotel-imager-browser-check
//
// Environment: AVATAR_URL (default http://localhost:8081), FURNI_URL (default http://localhost:8080),
// CHROMIUM (default: the first of chromium, chromium-browser, google-chrome on PATH).
// Look at the PNGs it writes: the checks only prove status codes and headers, not that the pictures
// are right. Fallback images follow a 302 to the public imager, so they show as broken images when
// this machine has no internet access; the table printed by the script says why each one fell back.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const AVATAR = (process.env.AVATAR_URL ?? 'http://localhost:8081').replace(/\/$/, '');
const FURNI = (process.env.FURNI_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const outArg = process.argv.indexOf('--out');
const OUT = resolve(outArg > 0 ? process.argv[outArg + 1] : '/tmp/hotel-imager-browser-check');

// Sample-kit figures (docs/sample-kit-avatar.md): plain, dressed (two colours, jacket, print, wristband),
// and hats/glasses that hide layers.
const PLAIN = 'hd-180-1.hr-115-61.ch-210-66.lg-270-82.sh-290-80';
const DRESSED =
  'hd-185-19.hr-515-45-40.ch-215-66-92.lg-275-82-62.sh-295-80-92.ha-1001-110-62.cc-3002-82-66.cp-3101-62.mc-3201-100';
const av = (q) => `${AVATAR}/avatar.png?${q}`;

/** @type {{ title: string, sections: { title: string, note?: string, items: { url: string, label: string, expect?: string }[] }[] }[]} */
const pages = [
  {
    title: 'avatar-sizes-directions',
    sections: [
      {
        title: 'Sizes (s 33×56, m/b and unknown 64×110, l and absent 128×220)',
        items: [
          ...['s', 'm', 'b', 'xl'].map((s) => ({ url: av(`figure=${PLAIN}&size=${s}`), label: `size=${s}` })),
          { url: av(`figure=${PLAIN}`), label: 'no size (l)' },
          { url: av(`figure=${PLAIN}&size=l`), label: 'size=l' },
        ],
      },
      {
        title: 'headonly (s 27×30, m 54×62, l 108×124) and lay (s 56×33, m 110×64, l 220×128)',
        items: [
          ...['s', 'm', 'l'].map((s) => ({
            url: av(`figure=${DRESSED}&headonly=1&size=${s}`),
            label: `headonly size=${s}`,
          })),
          ...['s', 'm'].map((s) => ({ url: av(`figure=${DRESSED}&action=lay&size=${s}`), label: `lay size=${s}` })),
          { url: av(`figure=${DRESSED}&action=lay&size=m&direction=4`), label: 'lay dir 4' },
        ],
      },
      {
        title:
          'Directions 0–7, size m (4–6 mirror 2–0; the black mark sits left on own sprites, right on mirrored ones)',
        items: [0, 1, 2, 3, 4, 5, 6, 7].map((d) => ({
          url: av(`figure=${DRESSED}&size=m&direction=${d}`),
          label: `direction=${d}`,
        })),
      },
      {
        title: 'Directions 0–7, plain figure, size m',
        items: [0, 1, 2, 3, 4, 5, 6, 7].map((d) => ({
          url: av(`figure=${PLAIN}&size=m&direction=${d}`),
          label: `direction=${d}`,
        })),
      },
      {
        title: 'head_direction with body direction 2 and 4 (9 wraps to 1, -1 to 7)',
        items: [
          ...[0, 1, 3, 4].map((h) => ({
            url: av(`figure=${PLAIN}&size=m&direction=2&head_direction=${h}`),
            label: `dir 2 head ${h}`,
          })),
          ...[3, 5, 6].map((h) => ({
            url: av(`figure=${PLAIN}&size=m&direction=4&head_direction=${h}`),
            label: `dir 4 head ${h}`,
          })),
          { url: av(`figure=${PLAIN}&size=m&direction=9&head_direction=-1`), label: 'dir 9 head -1' },
        ],
      },
      {
        title:
          'Hats and glasses hiding layers (cap hides hr not hrb, beanie hides both, crown hides nothing, shades hide eyes, robe hides shoes)',
        items: [
          ['ha-1001-66-92', 'cap'],
          ['ha-1003-82', 'beanie'],
          ['ha-1002-1408', 'crown'],
          ['ha-1004-110', 'propeller'],
          ['ea-1402-80', 'shades'],
          ['ea-1401-80.fa-1201-61', 'glasses+beard'],
          ['he-1602-1408.ca-1802-1408', 'flower+scarf'],
        ].map(([extra, label]) => ({
          url: av(`figure=hd-180-1.hr-515-45-40.ch-210-66.lg-285-82.sh-290-80.${extra}&size=m&direction=3`),
          label,
        })),
      },
    ],
  },
  {
    title: 'avatar-actions-gestures',
    sections: [
      {
        title: 'Actions, size m, direction 2',
        items: [
          'std',
          'wlk',
          'sit',
          'lay',
          'wav',
          'crr=1',
          'crr=6',
          'drk=1',
          'drk=2',
          'sig=12',
          'respect',
          'blow',
          'blw',
          'spk',
          'laugh',
          'sleep',
          'sit,wav',
          'carry=3',
        ].map((a) => ({ url: av(`figure=${PLAIN}&size=m&action=${a}`), label: a })),
      },
      {
        title: 'Actions, size m, direction 4 (mirrored; hand items and raised arms keep their own sprites)',
        items: ['std', 'wlk', 'sit', 'wav', 'crr=1', 'drk=2', 'sig=5', 'respect', 'blow'].map((a) => ({
          url: av(`figure=${PLAIN}&size=m&direction=4&action=${a}`),
          label: `${a} dir 4`,
        })),
      },
      {
        title: 'Gestures, headonly size l',
        items: ['std', 'sml', 'agr', 'sad', 'srp', 'eyb', 'spk', 'nor'].map((g) => ({
          url: av(`figure=${PLAIN}&headonly=1&gesture=${g}`),
          label: `gesture=${g}`,
        })),
      },
      {
        title: 'animated=1 (APNG: wav, spk, respect and blow loop 2 frames; a still pose stays a still)',
        items: [
          ...['wav', 'respect', 'blow', 'sit,wav', 'std'].map((a) => ({
            url: av(`figure=${DRESSED}&size=m&action=${a}&animated=1`),
            label: `${a} animated`,
          })),
          { url: av(`figure=${PLAIN}&headonly=1&size=m&gesture=spk&animated=1`), label: 'spk headonly animated' },
          { url: av(`figure=${PLAIN}&headonly=1&size=m&action=wav&animated=1`), label: 'wav headonly (still)' },
        ],
      },
      {
        title: 'Small size actions',
        items: ['std', 'wav', 'crr=2', 'sit', 'lay'].map((a) => ({
          url: av(`figure=${DRESSED}&size=s&action=${a}&direction=3`),
          label: `s ${a}`,
        })),
      },
    ],
  },
  {
    title: 'furni-and-fallbacks',
    sections: [
      {
        title: 'Furni renders (size 64 stills)',
        items: [
          'kit_crate',
          'kit_stack_eqz',
          'kit_table_sd',
          'kit_chair_4dir',
          'kit_big_3x2',
          'kit_booth_dirlayers',
          'kit_clock_repeat',
          'kit_dice_random',
          'kit_door_transition',
          'kit_fan_tieframes',
          'kit_gate_transdup',
          'kit_glass_alpha',
          'kit_hatch_transid',
          'kit_lamp_add',
          'kit_lamp_state2',
          'kit_noicon',
          'kit_offsets',
          'kit_orb_blankframe',
          'kit_panel_copy',
          'kit_popper_loop',
          'kit_rug_darken',
          'kit_sign_tieall',
          'kit_totem_nodir2',
          'kit_xray_subtract',
          'kit_wall_led',
          'kit_wall_poster',
          'kit_wall_shelf',
        ].map((c) => ({ url: `${FURNI}/furni-renders/${c}.png`, label: c })),
      },
      {
        title: 'Colour variants (<classname>*<n>)',
        items: [
          'kit_sofa_colors',
          'kit_sofa_colors*1',
          'kit_sofa_colors*3',
          'kit_sofa_colors*5',
          'kit_sofa_colors*7',
          'kit_sofa_colors*12',
          'kit_vase_colors',
          'kit_vase_colors*0',
          'kit_vase_colors*2',
          'kit_vase_colors*4',
          'kit_wall_shelf*2',
        ].map((c) => ({ url: `${FURNI}/furni-renders/${c}.png`, label: c })),
      },
      {
        title: 'Catalogue icons',
        items: [
          'kit_crate',
          'kit_table_sd',
          'kit_chair_4dir',
          'kit_sofa_colors',
          'kit_vase_colors',
          'kit_lamp_add',
          'kit_big_3x2',
          'kit_wall_poster',
          'kit_wall_shelf',
          'kit_clock_repeat',
          'kit_rug_darken',
        ].map((c) => ({ url: `${FURNI}/catalog-thumbs/${c}.png`, label: c })),
      },
      {
        title: 'Fallbacks and 404s (broken images are expected here; see the printed table)',
        items: [
          {
            url: av('figure=hr-115-42.hd-195-19.ch-3030-82.lg-275-1408.fa-1206-90&size=m'),
            label: 'real figure, sets not in the kit → 302',
            expect: '302',
          },
          { url: av('user=nobody-here&size=m'), label: 'user → 302 (user-unresolved)', expect: '302' },
          {
            url: `${FURNI}/furni-renders/kit_sofa_colors*99.png`,
            label: 'variant without render → 404',
            expect: '404',
          },
          { url: `${FURNI}/furni-renders/kit_sofa_colors%2A3.png`, label: '%2A → 404', expect: '404' },
          { url: `${FURNI}/catalog-thumbs/kit_noicon.png`, label: 'item without icon → 404', expect: '404' },
        ],
      },
    ],
  },
];

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

async function check(url) {
  const res = await fetch(url, { redirect: 'manual' });
  const body = new Uint8Array(await res.arrayBuffer());
  const png = body.length > 24 && body[1] === 0x50 && body[2] === 0x4e && body[3] === 0x47;
  const dims = png ? `${new DataView(body.buffer).getUint32(16)}×${new DataView(body.buffer).getUint32(20)}` : '';
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    frames: res.headers.get('x-imager-frames') ?? '',
    fallback: res.headers.get('x-imager-fallback') ?? '',
    dims,
  };
}

function pageHtml(page, results) {
  const parts = [
    '<!doctype html><meta charset="utf-8"><title>',
    esc(page.title),
    '</title><style>',
    'body{font:12px system-ui,sans-serif;margin:8px;background:#fafafa}h2{font-size:13px;margin:10px 0 4px}',
    '.row{display:flex;flex-wrap:wrap;gap:6px;align-items:flex-end}figure{margin:0;text-align:center}',
    'img{display:block;margin:auto;background:repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0 0/8px 8px;outline:1px solid #bbb}',
    'figcaption{font-size:10px;max-width:160px;word-break:break-all}.bad{color:#c00;font-weight:bold}',
    '</style>',
  ];
  for (const section of page.sections) {
    parts.push('<h2>', esc(section.title), '</h2><div class="row">');
    for (const item of section.items) {
      const r = results.get(item.url);
      const ok = item.expect ? String(r.status) === item.expect : r.status === 200;
      const info = `${r.status} ${r.dims}${r.frames ? ` f${r.frames}` : ''}${r.fallback ? ` ${r.fallback}` : ''}`;
      parts.push(
        '<figure><img src="',
        esc(item.url),
        '"><figcaption>',
        esc(item.label),
        '<br><span class="',
        ok ? '' : 'bad',
        '">',
        esc(info),
        '</span></figcaption></figure>',
      );
    }
    parts.push('</div>');
  }
  return parts.join('');
}

function findChromium() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    if (spawnSync('which', [name]).status === 0) return name;
  }
  throw new Error('Chromium not found: install it (Debian: apt-get install -y chromium) or set CHROMIUM');
}

mkdirSync(OUT, { recursive: true });
const chromium = findChromium();
let failures = 0;
for (const page of pages) {
  const results = new Map();
  for (const section of page.sections) {
    for (const item of section.items) {
      const r = await check(item.url);
      results.set(item.url, r);
      const ok = item.expect ? String(r.status) === item.expect : r.status === 200 && r.type === 'image/png';
      if (!ok) failures++;
      console.log(
        [
          ok ? 'ok ' : 'BAD',
          r.status,
          r.type,
          r.dims,
          r.frames && `frames=${r.frames}`,
          r.fallback && `fallback=${r.fallback}`,
          item.url,
        ]
          .filter(Boolean)
          .join('  '),
      );
    }
  }
  const html = join(OUT, `${page.title}.html`);
  const png = join(OUT, `${page.title}.png`);
  writeFileSync(html, pageHtml(page, results));
  const shot = spawnSync(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--hide-scrollbars',
      `--screenshot=${png}`,
      '--window-size=1400,1100',
      '--virtual-time-budget=5000',
      pathToFileURL(html).href,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  if (shot.status !== 0) throw new Error(`chromium failed (${shot.status}): ${shot.stderr}`);
  console.log(`screenshot: ${png}`);
}
console.log(failures === 0 ? 'every URL answered as expected' : `${failures} URL(s) did not answer as expected`);
process.exitCode = failures === 0 ? 0 : 1;
