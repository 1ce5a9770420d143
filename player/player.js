// The bundle player page: fetches the item's bundle, reads it with bundle-reader.js, composes the chosen
// state's distinct frames into a horizontal sprite sheet and plays it with CSS steps() (spec §2.5):
// frameCount steps across the sheet's width in frameCount × 120 ms, forever. State, direction and size
// pickers rebuild the sheet. `document.body.dataset.ready` is set when a sheet is playing (for tests).
import { readBundle, decodeAtlas, statesOf, directionsOf, loopFrames } from './bundle-reader.js';

const $ = (id) => document.getElementById(id);
const main = $('player');

function fill(select, values, chosen) {
  select.replaceChildren(...values.map((v) => new Option(String(v), String(v), false, v === chosen)));
}

async function start() {
  const res = await fetch(main.dataset.bundle);
  if (!res.ok) throw new Error(`bundle: HTTP ${res.status}`);
  const { manifest, atlasBytes } = await readBundle(new Uint8Array(await res.arrayBuffer()));
  const atlas = await decodeAtlas(atlasBytes);
  const sizes = ['64', '32'].filter((s) => manifest.sizes[s]).map(Number);
  fill($('size'), sizes, 64);
  const pickers = () => {
    const size = Number($('size').value);
    const states = statesOf(manifest, size);
    const dirs = directionsOf(manifest, size);
    // The picker's choice when it has one, else what the published still shows (the on-state of §2.5).
    const picked = (id) => ($(id).value === '' ? undefined : Number($(id).value));
    const state = states.includes(picked('state'))
      ? picked('state')
      : states.includes(manifest.still.state)
        ? manifest.still.state
        : states[0];
    const dir = dirs.includes(picked('direction'))
      ? picked('direction')
      : dirs.includes(manifest.still.direction)
        ? manifest.still.direction
        : dirs[0];
    fill($('state'), states, state);
    fill($('direction'), dirs, dir);
  };
  const play = () => {
    const size = Number($('size').value);
    const state = Number($('state').value);
    const direction = Number($('direction').value);
    const loop = loopFrames(manifest, atlas, { size, state, direction });
    const sprite = $('sprite');
    delete document.body.dataset.ready;
    if (!loop) {
      sprite.style.cssText = 'width:0;height:0';
      $('info').textContent = 'nothing visible in this state and direction';
      document.body.dataset.ready = 'empty';
      return;
    }
    const sheet = document.createElement('canvas');
    sheet.width = loop.width * loop.frames.length;
    sheet.height = loop.height;
    const ctx = sheet.getContext('2d');
    loop.frames.forEach((f, i) => ctx.putImageData(new ImageData(f, loop.width, loop.height), i * loop.width, 0));
    const loopMs = loop.frames.length * loop.frameMs;
    sprite.style.width = `${loop.width}px`;
    sprite.style.height = `${loop.height}px`;
    sprite.style.backgroundImage = `url(${sheet.toDataURL('image/png')})`;
    sprite.style.setProperty('--sheet-width', `${sheet.width}px`);
    sprite.style.setProperty('--frames', String(loop.frames.length));
    sprite.style.setProperty('--loop-ms', `${loopMs}ms`);
    // Restart the animation from its first frame.
    sprite.style.animationName = 'none';
    void sprite.offsetWidth;
    sprite.style.animationName = '';
    $('info').textContent =
      `state ${state}, direction ${direction}, size ${size}: ${loop.frames.length} distinct frame(s), ${loop.width}×${loop.height}, loop ${loopMs} ms`;
    document.body.dataset.ready = JSON.stringify({
      state,
      direction,
      size,
      frames: loop.frames.length,
      width: loop.width,
      height: loop.height,
      loopMs,
    });
  };
  pickers();
  play();
  for (const id of ['size', 'state', 'direction'])
    $(id).addEventListener('change', () => {
      pickers();
      play();
    });
}

start().catch((e) => {
  $('error').textContent = String(e?.message ?? e);
  document.body.dataset.ready = 'error';
});
