// The guilds_elements table as operators export it: CSV without a header (the emulators' own exports),
// CSV with a header in any column order, JSON rows and phpMyAdmin's JSON export.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../../src/formats/errors.js';
import { parseGuildElements, parseGuildElementsCsv, parseGuildElementsJson } from '../../src/formats/guild-elements.js';

const CSV = `"1","ffffff",,"background_color","1"
"1","base_basic_1.gif",,"base","1"
"1","ffd601",,"base_color","1"
"3","symbol_background_3_part2.gif","symbol_background_3_part1.gif","symbol","1"
"1","ffffff",,"symbol_color","1"
"10","base_gold_1_part2.gif","base_gold_1_part1.gif","base","0"
`;

test('CSV without a header: every type, both image columns, empty second value, enabled ignored', () => {
  const t = parseGuildElementsCsv(CSV, 'x.csv');
  assert.deepEqual(
    [...t.bases],
    [
      [1, ['base_basic_1.gif', '']],
      [10, ['base_gold_1_part2.gif', 'base_gold_1_part1.gif']],
    ],
  );
  assert.deepEqual([...t.symbols], [[3, ['symbol_background_3_part2.gif', 'symbol_background_3_part1.gif']]]);
  assert.deepEqual([...t.baseColors], [[1, 'ffd601']]);
  assert.deepEqual([...t.symbolColors], [[1, 'ffffff']]);
  assert.deepEqual([...t.backgroundColors], [[1, 'ffffff']]);
  assert.equal(t.rows, 6);
  assert.deepEqual(t.skipped, []);
});

test('CSV: CRLF, a BOM, unquoted values, SQL NULLs (\\N, NULL) as empty, type in any case, the later row wins', () => {
  const t = parseGuildElementsCsv(
    '\uFEFF2,base_a.gif,\\N,BASE,1\r\n2,base_b.gif,NULL,Base,1\r\n4,s.gif,"",symbol\r\n',
    'x.csv',
  );
  assert.deepEqual([...t.bases], [[2, ['base_b.gif', '']]]);
  assert.deepEqual([...t.symbols], [[4, ['s.gif', '']]]);
});

test('CSV with a header row: columns by name, in any order', () => {
  const t = parseGuildElementsCsv(
    'type,id,enabled,secondvalue,firstvalue\nbase,7,1,top.gif,under.gif\nbase_color,3,1,,00ff00\n',
  );
  assert.deepEqual([...t.bases], [[7, ['under.gif', 'top.gif']]]);
  assert.deepEqual([...t.baseColors], [[3, '00ff00']]);
  assert.throws(
    () => parseGuildElementsCsv('kind,id,firstvalue\nbase,1,x.gif\n', 'h.csv'),
    /h\.csv: its header row \(kind, id, firstvalue\) has no "type" column/,
  );
});

test('rows that cannot be read are skipped and reported, the rest kept', () => {
  const t = parseGuildElementsCsv(
    '"x1","a.gif",,"base","1"\n"2","b.gif",,"badge","1"\n"3","c.gif"\n"4","d.gif",,"base","1"\n',
  );
  assert.deepEqual([...t.bases], [[4, ['d.gif', '']]]);
  assert.equal(t.rows, 4);
  assert.deepEqual(t.skipped, [
    'line 1: id "x1" is not a whole number',
    'line 2: type "badge" is not one of base, symbol, base_color, symbol_color, background_color',
    'line 3: 2 column(s), expected id, firstvalue, secondvalue, type, enabled',
  ]);
});

test('a CSV that does not parse is a FormatError naming the file', () => {
  assert.throws(
    () => parseGuildElementsCsv('"1","a.gif,,"base","1"\n', 'broken.csv'),
    (e: unknown) => e instanceof FormatError && /broken\.csv/.test((e as Error).message),
  );
});

test('JSON rows (strings or numbers, null second value) and phpMyAdmin exports', () => {
  const rows = [
    { id: 1, firstvalue: 'base_basic_1.gif', secondvalue: null, type: 'base', enabled: 1 },
    { id: '5', firstvalue: 'symbol_a_part2.gif', secondvalue: 'symbol_a_part1.gif', type: 'symbol', enabled: '1' },
    { id: '1', firstvalue: 'ffd601', secondvalue: '', type: 'base_color', enabled: '1' },
  ];
  const plain = parseGuildElementsJson(JSON.stringify(rows));
  assert.deepEqual([...plain.bases], [[1, ['base_basic_1.gif', '']]]);
  assert.deepEqual([...plain.symbols], [[5, ['symbol_a_part2.gif', 'symbol_a_part1.gif']]]);
  assert.deepEqual([...plain.baseColors], [[1, 'ffd601']]);
  const phpMyAdmin = [
    { type: 'header', version: '5.2.1', comment: 'Export to JSON plugin for PHPMyAdmin' },
    { type: 'database', name: 'hotel' },
    { type: 'table', name: 'guilds_elements', database: 'hotel', data: rows },
  ];
  const wrapped = parseGuildElements(JSON.stringify(phpMyAdmin, null, 2), 'export.json');
  assert.deepEqual([...wrapped.bases], [...plain.bases]);
  assert.deepEqual([...wrapped.symbols], [...plain.symbols]);
  assert.throws(() => parseGuildElementsJson('{"bases": {}}', 't.json'), /t\.json: expected an array of rows/);
  assert.throws(() => parseGuildElementsJson('[{"id": 1,', 't.json'), /t\.json: not valid JSON/);
  assert.deepEqual(parseGuildElementsJson('[7, {"id": 2, "firstvalue": "x.gif", "type": "base"}]').skipped, [
    'row 1: not an object',
  ]);
});

test('parseGuildElements reads JSON when the file starts with [ and CSV otherwise', () => {
  assert.equal(parseGuildElements(' \n[{"id":1,"firstvalue":"a.gif","type":"base"}]').bases.size, 1);
  assert.equal(parseGuildElements('"1","a.gif",,"base","1"').bases.size, 1);
});
