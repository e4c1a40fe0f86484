/**
 * The part of Go's html/template that Supabase e-mail templates use: `{{ .Field }}` and nested field
 * access (`{{ .Data.name }}`), `{{ if <cond> }} ... {{ else if <cond> }} ... {{ else }} ... {{ end }}` with
 * `eq`/`ne`/`not`/`and`/`or` on fields and quoted strings, and `{{- -}}` whitespace trimming. Values are
 * HTML-escaped as html/template does; a missing field prints nothing.
 */

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'value'; expr: string }
  | { kind: 'if'; branches: { cond: string | null; body: Node[] }[] };

export class TemplateError extends Error {}

function tokenize(source: string): { kind: 'text' | 'action'; value: string }[] {
  const tokens: { kind: 'text' | 'action'; value: string }[] = [];
  const re = /\{\{(-?)\s*([\s\S]*?)\s*(-?)\}\}/g;
  let last = 0;
  let trimNext = false;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    let text = source.slice(last, m.index);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (m[1] === '-') text = text.replace(/\s+$/, '');
    if (text) tokens.push({ kind: 'text', value: text });
    if (!m[2].startsWith('/*')) tokens.push({ kind: 'action', value: m[2] });
    trimNext = m[3] === '-';
    last = re.lastIndex;
  }
  let rest = source.slice(last);
  if (trimNext) rest = rest.replace(/^\s+/, '');
  if (rest) tokens.push({ kind: 'text', value: rest });
  return tokens;
}

/** Parses a template once; render it with `renderTemplate`. */
export function parseTemplate(source: string): Node[] {
  const tokens = tokenize(source);
  let i = 0;
  function parseList(stopAt: string[]): { nodes: Node[]; stop: string } {
    const nodes: Node[] = [];
    while (i < tokens.length) {
      const t = tokens[i++];
      if (t.kind === 'text') {
        nodes.push({ kind: 'text', text: t.value });
        continue;
      }
      const word = t.value.split(/\s+/)[0];
      if (word === 'end' || word === 'else') {
        if (!stopAt.includes(word)) throw new TemplateError(`unexpected {{${t.value}}}`);
        return { nodes, stop: t.value };
      }
      if (word === 'if') {
        const branches: { cond: string | null; body: Node[] }[] = [];
        let cond: string | null = t.value.slice(2).trim();
        for (;;) {
          const { nodes: body, stop } = parseList(['else', 'end']);
          branches.push({ cond, body });
          if (stop === 'end') break;
          const elseIf = /^else\s+if\s+(.+)$/.exec(stop);
          cond = elseIf ? elseIf[1] : null;
          if (!elseIf && stop !== 'else') throw new TemplateError(`unexpected {{${stop}}}`);
        }
        nodes.push({ kind: 'if', branches });
        continue;
      }
      nodes.push({ kind: 'value', expr: t.value });
    }
    if (stopAt.length) throw new TemplateError('unexpected end of template: missing {{ end }}');
    return { nodes, stop: '' };
  }
  return parseList([]).nodes;
}

function lookup(data: unknown, field: string): unknown {
  let value: unknown = data;
  for (const part of field.split('.').filter(Boolean)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function splitArgs(expr: string): string[] {
  return expr.match(/"(?:[^"\\]|\\.)*"|`[^`]*`|\([^)]*\)|\S+/g) ?? [];
}

function evaluate(expr: string, data: unknown): unknown {
  const args = splitArgs(expr.trim());
  if (args.length === 0) throw new TemplateError('empty action');
  const operand = (a: string): unknown => {
    if (a.startsWith('(') && a.endsWith(')')) return evaluate(a.slice(1, -1), data);
    if (a.startsWith('"')) return JSON.parse(a) as string;
    if (a.startsWith('`')) return a.slice(1, -1);
    if (a === '.') return data;
    if (a.startsWith('.')) return lookup(data, a.slice(1));
    if (/^-?\d+(\.\d+)?$/.test(a)) return Number(a);
    if (a === 'true' || a === 'false') return a === 'true';
    throw new TemplateError(`unsupported template expression ${JSON.stringify(a)}`);
  };
  const [head, ...rest] = args;
  switch (head) {
    case 'eq':
      return rest.slice(1).some((r) => operand(r) === operand(rest[0]));
    case 'ne':
      return operand(rest[0]) !== operand(rest[1]);
    case 'not':
      return !truthy(operand(rest[0]));
    case 'and':
      return rest.every((r) => truthy(operand(r)));
    case 'or':
      return rest.some((r) => truthy(operand(r)));
    default:
      if (rest.length) throw new TemplateError(`unsupported template function ${JSON.stringify(head)}`);
      return operand(head);
  }
}

function truthy(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

/** Prints a value as Go's fmt would (maps as `map[k:v]`), for `{{ .Data }}`. */
function print(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return `[${v.map(print).join(' ')}]`;
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `map[${entries.map(([k, x]) => `${k}:${print(x)}`).join(' ')}]`;
  }
  return String(v);
}

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' })[c]!,
  );
}

export function renderTemplate(nodes: Node[], data: unknown, escape = true): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += node.text;
    else if (node.kind === 'value') {
      const s = print(evaluate(node.expr, data));
      out += escape ? escapeHtml(s) : s;
    } else {
      const branch = node.branches.find((b) => b.cond === null || truthy(evaluate(b.cond, data)));
      if (branch) out += renderTemplate(branch.body, data, escape);
    }
  }
  return out;
}

/** A readable plain-text part for mail clients that do not show HTML. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(style|script|head)[\s\S]*?<\/\1>/gi, '')
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, '$2 ($1)')
    .replace(/<br\s*\/?>|<\/(p|div|h\d|li|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&#34;|&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n\n')
    .trim();
}
