// The queries the services run against the hotel's database, in one place: each a parameterised SELECT
// with named placeholders (`:name`) and named outputs. The default catalogue reads Arcturus Morningstar's
// schema (users, bans, guilds_elements, rooms, room_models, room_models_custom, items, items_base, bots,
// users_pets);
// an emulator that names things differently (Plus, Comet, a fork) gets the same outputs from an operator's
// file of overrides (`--database-queries FILE`, docs/database.md), read here and checked at start.
//
// Values reach the server as bound parameters of a prepared statement, never spliced into the text: no
// name, however hostile, changes what a statement does.
import { readFile } from 'node:fs/promises';

export const QUERY_NAMES = [
  'user_look',
  'guild_elements',
  'guild_elements_version',
  'room',
  'room_model',
  'room_model_custom',
  'room_items',
  'room_bots',
  'room_pets',
  'pet',
] as const;

export type QueryName = (typeof QUERY_NAMES)[number];

/** A pet's columns (Arcturus users_pets): what its figure is built from (src/pet/figure.ts, arcturusPetFigure). */
const PET_OUTPUTS = [
  'id',
  'name',
  'type',
  'race',
  'color',
  'x',
  'y',
  'z',
  'rot',
  'hair_style',
  'hair_color',
  'saddle',
  'mp_type',
  'mp_color',
  'mp_nose',
  'mp_nose_color',
  'mp_eyes',
  'mp_eyes_color',
  'mp_mouth',
  'mp_mouth_color',
  'mp_is_dead',
  'gnome_data',
] as const;

export interface QueryShape {
  /** The placeholders the service binds (a query may leave some unused). */
  params: readonly string[];
  /** The columns every row has, whatever the emulator calls them (aliases in the SQL). */
  outputs: readonly string[];
  /**
   * Columns the service uses when the query gives them: the default catalogue does, and an operator's override
   * written before they were added keeps running without them (docs/database.md says what is lost).
   */
  optionalOutputs?: readonly string[];
  /** What the service uses it for (docs/database.md lists the same). */
  doc: string;
}

export const QUERY_SHAPES: Record<QueryName, QueryShape> = {
  user_look: {
    params: ['name'],
    outputs: ['look', 'gender'],
    doc:
      "a player's figure for ?user=: the name matched as the emulator matches it (case-insensitive), " +
      'banned players excluded; at most one row',
  },
  guild_elements: {
    params: [],
    outputs: ['id', 'firstvalue', 'secondvalue', 'type', 'enabled'],
    doc: 'the group badge element table (bases, symbols, colours)',
  },
  guild_elements_version: {
    params: [],
    outputs: ['version'],
    doc: 'a cheap value that changes when the badge element table changes (one row)',
  },
  room: {
    params: ['room_id'],
    outputs: [
      'id',
      'model',
      'override_model',
      'paper_floor',
      'paper_wall',
      'paper_landscape',
      'thickness_wall',
      'thickness_floor',
      'wall_height',
      'allow_hidewall',
    ],
    doc: "a room's settings (override_model and allow_hidewall as 0/1)",
  },
  room_model: {
    params: ['name'],
    outputs: ['door_x', 'door_y', 'door_dir', 'heightmap'],
    doc: 'a named room model (the emulator ships the default ones)',
  },
  room_model_custom: {
    params: ['room_id'],
    outputs: ['door_x', 'door_y', 'door_dir', 'heightmap'],
    doc: "a room's own floor plan, used when the room overrides its model",
  },
  room_items: {
    params: ['room_id', 'limit'],
    outputs: [
      'id',
      'classname',
      'type',
      'x',
      'y',
      'z',
      'rot',
      'wall_pos',
      'extra_data',
      'width',
      'length',
      'interaction_type',
    ],
    optionalOutputs: ['allow_sit', 'allow_lay', 'stack_height', 'multiheight'],
    doc:
      "the furni placed in a room, at most `limit` rows; type is 's' (floor) or 'i' (wall); optionally " +
      'allow_sit, allow_lay (0/1), stack_height and multiheight: the seats and beds a bot sits or lies on',
  },
  room_bots: {
    params: ['room_id', 'limit'],
    outputs: ['id', 'name', 'figure', 'gender', 'x', 'y', 'z', 'rot', 'dance', 'effect'],
    doc: 'the bots placed in a room, at most `limit` rows',
  },
  room_pets: {
    params: ['room_id', 'limit'],
    outputs: PET_OUTPUTS,
    doc: "the pets placed in a room, at most `limit` rows: the columns the emulator builds a pet's figure from",
  },
  pet: {
    params: ['pet_id'],
    outputs: PET_OUTPUTS,
    doc: 'one pet by id (the pet picture `id=`), the same columns as room_pets',
  },
};

/** Arcturus Morningstar (3.x base database): the default catalogue. */
export const ARCTURUS_QUERIES: Record<QueryName, string> = {
  // `username` has a case-insensitive collation (utf8mb3_general_ci), as the emulator's own lookup relies
  // on; a ban counts as the emulator counts it (ModToolManager: account or super, not yet expired). The name
  // is converted to the column's character set, not the column to the name's (the index stays usable); a
  // name that does not survive the conversion (an emoji: 4 bytes) cannot be stored there, so matches none.
  user_look: `SELECT u.look AS look, u.gender AS gender
FROM users u
WHERE u.username = CONVERT(:name USING utf8mb3)
  AND HEX(CONVERT(:name USING utf8mb3)) = HEX(:name)
  AND NOT EXISTS (
    SELECT 1 FROM bans b
    WHERE b.user_id = u.id AND b.type IN ('account', 'super') AND b.ban_expire >= UNIX_TIMESTAMP()
  )
LIMIT 1`,
  guild_elements: `SELECT id, firstvalue, secondvalue, type, enabled
FROM guilds_elements
ORDER BY type, id`,
  // Count and an order-free sum of row checksums: any insert, delete or edit changes it; ~500 rows.
  guild_elements_version: `SELECT CONCAT(COUNT(*), ':',
  COALESCE(SUM(CRC32(CONCAT_WS('|', id, firstvalue, secondvalue, type, enabled))), 0)) AS version
FROM guilds_elements`,
  room: `SELECT id, model, (override_model = '1') AS override_model, paper_floor, paper_wall, paper_landscape,
  thickness_wall, thickness_floor, wall_height, (allow_hidewall = '1') AS allow_hidewall
FROM rooms
WHERE id = :room_id
LIMIT 1`,
  room_model: `SELECT door_x, door_y, door_dir, heightmap
FROM room_models
WHERE name = :name
LIMIT 1`,
  room_model_custom: `SELECT door_x, door_y, door_dir, heightmap
FROM room_models_custom
WHERE id = :room_id
LIMIT 1`,
  room_items: `SELECT i.id AS id, b.item_name AS classname, b.type AS type, i.x AS x, i.y AS y, i.z AS z,
  i.rot AS rot, i.wall_pos AS wall_pos, i.extra_data AS extra_data, b.width AS width, b.length AS length,
  b.interaction_type AS interaction_type, b.allow_sit AS allow_sit, b.allow_lay AS allow_lay,
  b.stack_height AS stack_height, b.multiheight AS multiheight
FROM items i
JOIN items_base b ON b.id = i.item_id
WHERE i.room_id = :room_id AND b.type IN ('s', 'i')
ORDER BY i.id
LIMIT :limit`,
  room_bots: `SELECT id, name, figure, gender, x, y, z, rot, dance, effect
FROM bots
WHERE room_id = :room_id
ORDER BY id
LIMIT :limit`,
  room_pets: `SELECT id, name, type, race, color, x, y, z, rot, hair_style, hair_color, saddle, mp_type, mp_color,
  mp_nose, mp_nose_color, mp_eyes, mp_eyes_color, mp_mouth, mp_mouth_color, mp_is_dead, gnome_data
FROM users_pets
WHERE room_id = :room_id
ORDER BY id
LIMIT :limit`,
  pet: `SELECT id, name, type, race, color, x, y, z, rot, hair_style, hair_color, saddle, mp_type, mp_color,
  mp_nose, mp_nose_color, mp_eyes, mp_eyes_color, mp_mouth, mp_mouth_color, mp_is_dead, gnome_data
FROM users_pets
WHERE id = :pet_id
LIMIT 1`,
};

/** The catalogue in use: the SQL of each query and which ones an operator's file replaced. */
export interface QueryCatalogue {
  sql: Record<QueryName, string>;
  /** Names the operator's file gave (checked strictly at start), in file order. */
  overridden: QueryName[];
  /** The file they came from, for messages. */
  file?: string;
}

export function defaultCatalogue(): QueryCatalogue {
  return { sql: { ...ARCTURUS_QUERIES }, overridden: [] };
}

/** A mistake in an operator's query file: the message names the file, the query and what to do. */
export class QueryFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryFileError';
  }
}

export function isQueryName(name: string): name is QueryName {
  return (QUERY_NAMES as readonly string[]).includes(name);
}

const MARKER = /^--\s*name:\s*(\S*)\s*$/;

/**
 * Reads an override file: blocks of SQL, each after a `-- name: <query>` line. Queries it does not name keep
 * the default. Checks what can be checked without a database (known names, one SELECT each, only the
 * query's own placeholders); that each runs and has its outputs is checked at start against the database.
 *
 * @example
 *   -- name: user_look
 *   SELECT figure AS look, sex AS gender FROM players WHERE LOWER(name) = LOWER(:name) LIMIT 1
 * @throws QueryFileError naming the file and the query
 */
export function parseQueryFile(text: string, file: string): QueryCatalogue {
  const catalogue = defaultCatalogue();
  catalogue.file = file;
  const blocks: { name: string; line: number; lines: string[] }[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((line, i) => {
    const m = MARKER.exec(line.trim());
    if (m) blocks.push({ name: m[1] ?? '', line: i + 1, lines: [] });
    else if (blocks.length > 0) blocks[blocks.length - 1]?.lines.push(line);
    else if (line.trim() !== '' && !line.trim().startsWith('--'))
      throw new QueryFileError(
        `${file}:${i + 1}: SQL before the first "-- name: <query>" line; ` +
          `start each query with one (${QUERY_NAMES.join(', ')})`,
      );
  });
  if (blocks.length === 0)
    throw new QueryFileError(
      `${file} names no query: start each with a "-- name: <query>" line (${QUERY_NAMES.join(', ')})`,
    );
  for (const block of blocks) {
    const where = `${file}:${block.line}`;
    if (!isQueryName(block.name))
      throw new QueryFileError(
        `${where}: unknown query "${block.name}"; the queries are ${QUERY_NAMES.join(', ')} (docs/database.md)`,
      );
    if (catalogue.overridden.includes(block.name))
      throw new QueryFileError(`${where}: query ${block.name} is given twice; keep one`);
    const sql = block.lines.join('\n').trim().replace(/;\s*$/, '').trim();
    const problem = statementProblem(sql, QUERY_SHAPES[block.name]);
    if (problem) throw new QueryFileError(`${where}: query ${block.name} ${problem}`);
    catalogue.sql[block.name] = sql;
    catalogue.overridden.push(block.name);
  }
  return catalogue;
}

export async function readQueryFile(file: string): Promise<QueryCatalogue> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new QueryFileError(`cannot read the query file ${file}: ${(e as Error).message}`);
  }
  return parseQueryFile(text, file);
}

/** Why `sql` cannot be one of our queries, or undefined. Quoted text and comments are skipped. */
export function statementProblem(sql: string, shape: QueryShape): string | undefined {
  if (sql === '') return 'is empty: give its SELECT statement after the name line';
  const code = withoutLiterals(sql);
  if (!/^\s*(select|with|\()/i.test(code))
    return 'must be a SELECT statement (the service only reads; give it a read-only account)';
  if (code.includes(';')) return "must be one statement (no ';' inside)";
  if (code.includes('?')) return `must use named placeholders (${placeholderList(shape)}), not "?"`;
  for (const m of code.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const name = m[1] ?? '';
    if (!shape.params.includes(name))
      return `uses :${name}, which the service does not give; it gives ${placeholderList(shape)}`;
  }
  return undefined;
}

function placeholderList(shape: QueryShape): string {
  return shape.params.length ? shape.params.map((p) => `:${p}`).join(', ') : 'no placeholders';
}

/** The statement with string literals, quoted identifiers and comments blanked out. */
function withoutLiterals(sql: string): string {
  return sql
    .replace(/'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|`(?:[^`]|``)*`/g, "''")
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(?:--\s|#)[^\n]*/g, ' ');
}
