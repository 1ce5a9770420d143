import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseLegacyFurnidata } from '../../src/formats/gamedata/furnidata-txt.js';
import { parseFurnidataXml } from '../../src/formats/gamedata/furnidata-xml.js';
import { readFurnidataAny, sniffFurnidataFormat } from '../../src/formats/gamedata/furnidata-any.js';
import { FormatError } from '../../src/formats/errors.js';
import { realdata } from '../helpers/realdata.js';

// A small hand-written legacy file with the faults real ones have: rows split across lines, a line that
// is not a complete array, escaped quotes, a broken row, a row whose id is not a number.
const WILD = [
  '\uFEFF',
  '[["s","1","chair_test","100","2","1","1","#ffffff,#00FF00","Test \\"Chair\\"","Sit & stay","","42","7"],["s","2","chair_test*1",',
  '"100","0","1","1","0,0,0","Red Chair","","","-1","-1"],',
  '["s","3","broken_row","100","0","1","1","","Oops,"-1"]',
  '["s","x9","bad_id","1","0","1","1","","Bad","","","1"],',
  '["i","10","poster_test","7","","","","","Poster","On the wall","","5"]',
  '["s","4","sofa_test","",',
  '"4","2","1","","Sofa","","","-1","-1","","1"]]',
].join('\n');

test('legacy furnidata.txt: rows across lines, escapes, bad rows reported with line numbers', () => {
  const { data, problems } = parseLegacyFurnidata(WILD);
  const room = data.roomitemtypes.furnitype;
  assert.deepEqual(
    room.map((r) => r.classname),
    ['chair_test', 'chair_test*1', 'sofa_test'],
  );
  assert.deepEqual(
    data.wallitemtypes.furnitype.map((r) => r.classname),
    ['poster_test'],
  );
  assert.deepEqual(room[0], {
    id: 1,
    classname: 'chair_test',
    revision: 100,
    category: '',
    name: 'Test "Chair"',
    description: 'Sit & stay',
    adurl: '',
    offerid: 42,
    buyout: false,
    rentofferid: -1,
    rentbuyout: false,
    bc: false,
    excludeddynamic: false,
    customparams: '',
    specialtype: 1,
    furniline: '',
    defaultdir: 2,
    xdim: 1,
    ydim: 1,
    partcolors: { color: ['#ffffff', '#00FF00'] },
    canstandon: false,
    cansiton: false,
    canlayon: false,
  });
  assert.deepEqual(room[1]!.partcolors, { color: [] }, '0,0,0 is a placeholder, not swatches');
  assert.equal(room[2]!.revision, 0, 'empty revision reads as 0');
  assert.equal(room[2]!.defaultdir, 4);
  assert.equal(room[2]!.xdim, 2);
  const wall = data.wallitemtypes.furnitype[0]!;
  assert.equal(wall.defaultdir, undefined, 'wall rows carry no floor fields');
  assert.equal(wall.name, 'Poster');
  assert.deepEqual(
    problems.map((p) => p.line),
    [4, 5],
  );
  assert.match(problems[0]!.reason, /expected , or \]/);
  assert.match(problems[0]!.excerpt, /broken_row/);
  assert.match(problems[1]!.reason, /id "x9" is not a number/);
});

test('legacy furnidata.txt: an unterminated string at the end is reported, never a hang', () => {
  const { data, problems } = parseLegacyFurnidata(
    '[["s","1","ok","1","0","1","1","","A","","","1"],\n["s","2","never_ends,"1"',
  );
  assert.equal(data.roomitemtypes.furnitype.length, 1);
  assert.equal(problems.length, 1);
  assert.equal(problems[0]!.line, 2);
});

const XML = `<?xml version="1.0" encoding="UTF-8"?>
<furnidata>
  <!-- a comment -- with double dashes -->
  <roomitemtypes>
    <furnitype id="5" classname="table_x">
      <revision>12</revision><defaultdir>2</defaultdir><xdim>2</xdim><ydim>3</ydim>
      <partcolors><color>#ffffff</color><color>#ABCDEF</color></partcolors>
      <name>Tom & Jerry's table</name><description>Fish &amp; chips &#233;&#x2764; &lt;3</description>
      <adurl/><offerid>9</offerid><buyout>1</buyout><rentofferid>-1</rentofferid><rentbuyout>0</rentbuyout>
      <bc>0</bc><excludeddynamic>0</excludeddynamic><customparams/><specialtype>1</specialtype>
      <canstandon>0</canstandon><cansiton>1</cansiton><canlayon>0</canlayon><furniline>tables</furniline>
    </furnitype>
  </roomitemtypes>
  <wallitemtypes>
    <furnitype id="6" classname="poster_y"><revision>3</revision><name>Poster</name></furnitype>
  </wallitemtypes>
</furnidata>`;

test('furnidata.xml: bare & escaped, fields and order as nitro-converter writes them', () => {
  const data = parseFurnidataXml(XML, 'furnidata.xml');
  const r = data.roomitemtypes.furnitype[0]!;
  assert.deepEqual(Object.keys(r), [
    'id',
    'classname',
    'revision',
    'category',
    'defaultdir',
    'xdim',
    'ydim',
    'partcolors',
    'name',
    'description',
    'adurl',
    'offerid',
    'buyout',
    'rentofferid',
    'rentbuyout',
    'bc',
    'excludeddynamic',
    'customparams',
    'specialtype',
    'canstandon',
    'cansiton',
    'canlayon',
    'furniline',
    'environment',
    'rare',
  ]);
  assert.equal(r.name, "Tom & Jerry's table");
  assert.equal(r.description, 'Fish & chips \u00e9\u2764 <3');
  assert.deepEqual(r.partcolors, { color: ['#ffffff', '#ABCDEF'] });
  assert.equal(r.buyout, true);
  assert.equal(r.cansiton, true);
  assert.equal(r.category, 'unknown');
  const w = data.wallitemtypes.furnitype[0]!;
  assert.equal(w.classname, 'poster_y');
  assert.equal(w.revision, 3);
  assert.equal(w.xdim, undefined);
});

test('furnidata: format sniffing and one reader for all three formats', () => {
  const json = Buffer.from(JSON.stringify({ roomitemtypes: { furnitype: [{ id: 1, classname: 'a', revision: 2 }] } }));
  assert.equal(sniffFurnidataFormat(json), 'json');
  assert.equal(sniffFurnidataFormat(Buffer.from(XML)), 'xml');
  assert.equal(sniffFurnidataFormat(Buffer.from(WILD)), 'txt');
  assert.equal(readFurnidataAny(json, 'f.json').data.roomitemtypes.furnitype[0]!.classname, 'a');
  assert.equal(readFurnidataAny(Buffer.from(XML), 'f.xml').data.roomitemtypes.furnitype[0]!.classname, 'table_x');
  const txt = readFurnidataAny(Buffer.from(WILD), 'f.txt');
  assert.equal(txt.data.roomitemtypes.furnitype.length, 3);
  assert.equal(txt.problems.length, 2);
});

test('furnidata.xml that is not XML: FormatError naming the file', () => {
  assert.throws(
    () => parseFurnidataXml('<furnidata><roomitemtypes></furnidata>', 'bad.xml'),
    (e: unknown) => e instanceof FormatError && /bad\.xml/.test(e.message),
  );
  assert.throws(() => parseFurnidataXml('<other/>', 'other.xml'), /expected <furnidata>/);
});

const txt = realdata('flash/gamedata/furnidata.txt');
const derived = realdata('nitro/gamedata/FurnitureData.json');
test('real furnidata.txt: 2,970 rows (943 colour variants), equal to the derived FurnitureData.json rows', {
  skip: txt.skip || derived.skip,
}, () => {
  const { data, problems } = parseLegacyFurnidata(readFileSync(txt.path, 'utf8'));
  const rows = [...data.roomitemtypes.furnitype, ...data.wallitemtypes.furnitype];
  assert.equal(rows.length, 2970);
  assert.equal(rows.filter((r) => r.classname.includes('*')).length, 943);
  assert.deepEqual(problems, []);
  const want = JSON.parse(readFileSync(derived.path, 'utf8')) as typeof data;
  for (const section of ['roomitemtypes', 'wallitemtypes'] as const) {
    for (const row of want[section].furnitype) {
      const mine = data[section].furnitype.find((r) => r.classname === row.classname);
      assert.deepEqual(mine, row, row.classname);
      assert.equal(JSON.stringify(mine), JSON.stringify(row), `${row.classname}: same key order`);
    }
  }
});
