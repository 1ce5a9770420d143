// A strict reader of the Prometheus text exposition format (version 0.0.4), for tests that scrape
// /metrics: every sample belongs to a family declared by one # TYPE line before it, names and labels are
// well formed, label values are properly escaped, no series appears twice, and a histogram's buckets
// are cumulative, end in le="+Inf" and agree with its _count. Anything else throws, naming the line.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string | undefined;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** A sample value as Prometheus reads it (Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan"). */
function parseValue(text: string, line: string): number {
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value "${text}" in: ${line}`);
  return Number(text);
}

/** Labels from `{a="x",b="y\"z"}` at `text[at]`; returns them and the index after `}`. */
function parseLabels(text: string, at: number, line: string): [Record<string, string>, number] {
  const labels: Record<string, string> = {};
  let i = at + 1;
  for (;;) {
    if (text[i] === '}') return [labels, i + 1];
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`bad labels in: ${line}`);
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`bad label name "${name}" in: ${line}`);
    if (name in labels) throw new Error(`label "${name}" twice in: ${line}`);
    if (text[eq + 1] !== '"') throw new Error(`label value not quoted in: ${line}`);
    let value = '';
    let j = eq + 2;
    for (;;) {
      const c = text[j];
      if (c === undefined) throw new Error(`unterminated label value in: ${line}`);
      if (c === '"') break;
      if (c === '\\') {
        const e = text[j + 1];
        if (e === '\\') value += '\\';
        else if (e === '"') value += '"';
        else if (e === 'n') value += '\n';
        else throw new Error(`bad escape in: ${line}`);
        j += 2;
      } else {
        value += c;
        j++;
      }
    }
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`expected , or } in: ${line}`);
  }
}

/** The family a sample name belongs to: itself, or for histograms/summaries the name without its suffix. */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  const direct = families.get(name);
  if (direct) return direct;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const f = families.get(name.slice(0, -suffix.length));
    if (f && (f.type === 'histogram' || (f.type === 'summary' && suffix !== '_bucket'))) return f;
  }
  return undefined;
}

export function parsePrometheusText(text: string): Map<string, Family> {
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a line feed');
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  const helps = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) continue; // a plain comment
      const [, kind, name, rest] = m as unknown as [string, string, string, string];
      if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      if (kind === 'HELP') {
        if (helps.has(name)) throw new Error(`second HELP for ${name}`);
        helps.set(name, rest);
        const f = families.get(name);
        if (f) f.help = rest;
      } else {
        if (!TYPES.has(rest)) throw new Error(`bad type in: ${line}`);
        if (families.has(name)) throw new Error(`second TYPE for ${name}`);
        families.set(name, { name, type: rest as Family['type'], help: helps.get(name), samples: [] });
      }
      continue;
    }
    const brace = line.indexOf('{');
    const space = line.indexOf(' ');
    const nameEnd = brace >= 0 && brace < space ? brace : space;
    if (nameEnd <= 0) throw new Error(`bad sample: ${line}`);
    const name = line.slice(0, nameEnd);
    if (!NAME.test(name)) throw new Error(`bad sample name in: ${line}`);
    let labels: Record<string, string> = {};
    let rest = nameEnd;
    if (line[nameEnd] === '{') [labels, rest] = parseLabels(line, nameEnd, line);
    if (line[rest] !== ' ') throw new Error(`expected a space before the value in: ${line}`);
    const fields = line.slice(rest + 1).split(' ');
    if (fields.length > 2 || (fields.length === 2 && !/^-?\d+$/.test(fields[1]!)))
      throw new Error(`bad value or timestamp in: ${line}`);
    const value = parseValue(fields[0]!, line);
    const family = familyOf(name, families);
    if (!family) throw new Error(`sample before its # TYPE: ${line}`);
    const series = `${name}{${Object.entries(labels)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(',')}}`;
    if (seen.has(series)) throw new Error(`series twice: ${series}`);
    seen.add(series);
    family.samples.push({ name, labels, value });
  }
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return families;
}

/** Buckets cumulative and ending in +Inf equal to _count, per label set. */
function checkHistogram(f: Family): void {
  const groups = new Map<string, { buckets: [number, number][]; count?: number; sum?: number }>();
  const keyOf = (labels: Record<string, string>) =>
    JSON.stringify(
      Object.entries(labels)
        .filter(([k]) => k !== 'le')
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  for (const s of f.samples) {
    const k = keyOf(s.labels);
    const g = groups.get(k) ?? { buckets: [] };
    groups.set(k, g);
    if (s.name === `${f.name}_bucket`) {
      if (s.labels.le === undefined) throw new Error(`${f.name}: bucket without le`);
      g.buckets.push([s.labels.le === '+Inf' ? Infinity : Number(s.labels.le), s.value]);
    } else if (s.name === `${f.name}_count`) g.count = s.value;
    else if (s.name === `${f.name}_sum`) g.sum = s.value;
    else throw new Error(`${f.name}: unexpected sample ${s.name}`);
  }
  for (const [k, g] of groups) {
    const last = g.buckets[g.buckets.length - 1];
    if (!last || last[0] !== Infinity) throw new Error(`${f.name}${k}: no le="+Inf" bucket last`);
    for (let i = 1; i < g.buckets.length; i++) {
      if (!(g.buckets[i]![0] > g.buckets[i - 1]![0])) throw new Error(`${f.name}${k}: bucket bounds not increasing`);
      if (g.buckets[i]![1] < g.buckets[i - 1]![1]) throw new Error(`${f.name}${k}: buckets not cumulative`);
    }
    if (g.count !== last[1]) throw new Error(`${f.name}${k}: _count ${g.count} != +Inf bucket ${last[1]}`);
    if (g.sum === undefined) throw new Error(`${f.name}${k}: no _sum`);
  }
}

/** The value of the one sample `name` with exactly these labels (le included for buckets); undefined if none. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const f = familyOf(name, families);
  const want = JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
  const s = f?.samples.find(
    (x) => x.name === name && JSON.stringify(Object.entries(x.labels).sort(([a], [b]) => a.localeCompare(b))) === want,
  );
  return s?.value;
}

/** A histogram's _count and the count of observations at or under `le` for one label set. */
export function histogramCounts(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): { count: number; sum: number; under: (le: string) => number } {
  const count = sampleValue(families, `${name}_count`, labels);
  const sum = sampleValue(families, `${name}_sum`, labels);
  if (count === undefined || sum === undefined) throw new Error(`no histogram ${name} ${JSON.stringify(labels)}`);
  return {
    count,
    sum,
    under: (le) => {
      const v = sampleValue(families, `${name}_bucket`, { ...labels, le });
      if (v === undefined) throw new Error(`no bucket le=${le} for ${name}`);
      return v;
    },
  };
}
