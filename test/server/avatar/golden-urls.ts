// The URLs of the avatar golden set (test/golden/avatar-service-hashes.json): a broad sample of what
// pages send without the issue-16 parameters (img_format, frame_num, effect, dance): every size,
// direction, action, gesture, headonly, animated and frames, on the sample kit. Their answers must stay
// byte-identical when features are added; only hashes are recorded (record-golden.ts).

const PLAIN = 'hd-180-1.hr-115-61.ch-210-66.lg-270-82.sh-290-80';
const DRESSED =
  'hd-185-19.hr-515-45-40.ch-215-66-92.lg-275-82-62.sh-295-80-92.ha-1001-110-62.cc-3002-82-66.cp-3101-62.mc-3201-100';
const HAT = 'hd-180-1.hr-100-40.ch-210-66.lg-270-82.sh-290-80.ha-1004-62';

const SIZES = ['s', 'm', 'l', 'b', 'xl', ''];
const ACTIONS = [
  'std',
  'wlk',
  'wav',
  'sit',
  'lay',
  'spk',
  'respect',
  'blow',
  'laugh',
  'dance',
  'sleep',
  'crr=1',
  'drk=2',
  'sig=0',
  'carry=3',
  'use=6',
  'sign=0',
  'crr=99999',
  'crr=abc',
  'sit,wav',
  'lay,spk',
  'wlk,drk=1',
  'sit,crr=6',
  'sit,spk',
  'wav,spk',
  'bogus',
  'WAV',
];
const GESTURES = ['std', 'sml', 'sad', 'agr', 'srp', 'spk', 'eyb', 'nor', 'xyz'];

/** Query strings (without `?`), each once, in a fixed order. */
export function goldenQueries(): string[] {
  const out = new Set<string>();
  const fig = (f: string) => `figure=${encodeURIComponent(f)}`;
  // Every direction at every size, for the three figures.
  for (const f of [PLAIN, DRESSED, HAT]) {
    for (const size of ['s', 'm', 'l']) for (let d = 0; d < 8; d++) out.add(`${fig(f)}&size=${size}&direction=${d}`);
  }
  // Size spellings and the default.
  for (const size of SIZES) out.add(`${fig(PLAIN)}&size=${size}`);
  out.add(fig(PLAIN));
  // Every action at sizes s and m, facing 2 and 4 (mirrored), still and animated.
  for (const a of ACTIONS) {
    for (const size of ['s', 'm']) {
      for (const d of [2, 4]) {
        out.add(`${fig(DRESSED)}&size=${size}&direction=${d}&action=${encodeURIComponent(a)}`);
        out.add(`${fig(DRESSED)}&size=${size}&direction=${d}&action=${encodeURIComponent(a)}&animated=1`);
      }
    }
    out.add(`${fig(PLAIN)}&action=${encodeURIComponent(a)}&animated=1`);
  }
  // Gestures, head turns, head only.
  for (const g of GESTURES) {
    out.add(`${fig(DRESSED)}&size=m&gesture=${g}`);
    out.add(`${fig(DRESSED)}&size=m&gesture=${g}&animated=1`);
    out.add(`${fig(PLAIN)}&size=s&headonly=1&gesture=${g}&direction=3`);
  }
  for (let h = 0; h < 8; h++) {
    out.add(`${fig(HAT)}&size=m&direction=2&head_direction=${h}`);
    out.add(`${fig(HAT)}&size=l&direction=5&head_direction=${h}&action=lay`);
  }
  for (const size of ['s', 'm', 'l']) {
    for (const a of ['std', 'wav', 'spk', 'lay', 'sit,spk']) {
      for (const d of [0, 2, 4, 6]) {
        out.add(`${fig(DRESSED)}&size=${size}&headonly=1&direction=${d}&action=${a}`);
        out.add(`${fig(DRESSED)}&size=${size}&headonly=yes&direction=${d}&action=${a}&animated=true`);
      }
    }
  }
  // frames caps, clamps and the values that mean the whole loop.
  for (const frames of ['1', '2', '3', '24', '99', '0', '-1', 'x']) {
    out.add(`${fig(DRESSED)}&size=m&action=wav&animated=1&frames=${frames}`);
    out.add(`${fig(DRESSED)}&size=m&action=std&animated=1&frames=${frames}`);
  }
  // Tolerated junk: wrapped directions, unknown parameters.
  out.add(`${fig(PLAIN)}&direction=9&head_direction=-1`);
  out.add(`${fig(PLAIN)}&direction=east&cb=123&whatever=1`);
  out.add(`${fig(PLAIN)}&headonly=2&animated=no`);
  return [...out];
}
