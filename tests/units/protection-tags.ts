/**
 * Which tests assert a protection, and whether each says where that protection holds (issue 29, item 5;
 * docs/security.md "Where each protection holds"). Read from the test files' syntax trees with the
 * TypeScript compiler, so nothing runs.
 *
 * A test is an `it(...)` or `test(...)` call (with `.each`, `.skip`, `.only`, `.concurrent` and the like).
 * It asserts a protection when any of these holds:
 * - its body has the number 401, 403, 413 or 429 (an HTTP refusal: unauthenticated, forbidden, too large,
 *   too many);
 * - its body has a string or regular expression naming a database refusal: `permission denied`,
 *   `row-level security`, `42501` or `insufficient_privilege`, or uses `DENIED` or `RLS` (the test
 *   helpers' names for them);
 * - its body awaits a refusal: `.rejects` (vitest's `expect(promise).rejects`);
 * - its title names an attack or a refusal status: 401, 403, 413, 429, forged, bomb, oversize, rate limit,
 *   too many, CSRF, cross-site, guess, suspended, loopback (PROTECTION_TITLE; whole words, any case).
 * It is tagged when its title or an enclosing `describe` title has `holds on: <where>`, where is one
 * of PLACES, several joined by ` + ` when the protection needs them together.
 */
import ts from 'typescript';

export const PLACES = ['postgres', 'edge function', 'config.toml', 'platform', 'local-only'] as const;

const place = PLACES.map((p) => p.replace('.', '\\.')).join('|');
/** `holds on: postgres — ...`, `holds on: edge function + postgres — ...`: places only, then a dash or the end. */
export const TAG = new RegExp(`holds on: (?:${place})(?: \\+ (?:${place}))*(?=\\s*(?:—|$))`);

const REFUSAL_STATUSES = new Set(['401', '403', '413', '429']);
const REFUSAL_TEXT = /permission denied|row-level security|42501|insufficient_privilege/i;
const REFUSAL_NAMES = new Set(['DENIED', 'RLS']);
export const PROTECTION_TITLE =
  /\b(?:401|403|413|429)\b|\bforged?\b|\bbombs?\b|\boversized?\b|rate[- ]limit|too many|\bcsrf\b|cross-site|\bguess|\bsuspended\b|\bloopback\b/i;

export interface ProtectionTest {
  file: string;
  line: number;
  /** The titles from the outermost describe to the test, and the line each starts on. */
  titles: string[];
  lines: number[];
  /** Why it counts as a protection test. */
  reasons: string[];
  tagged: boolean;
}

const TEST_CALLS = new Set(['it', 'test']);
const SUITE_CALLS = new Set(['describe', 'suite']);

/** `it`, `it.skip`, `it.each(rows)`, `describe.sequential`: the identifier the call chain starts at. */
function rootName(callee: ts.Expression): string | undefined {
  let node: ts.Expression = callee;
  for (;;) {
    if (ts.isIdentifier(node)) return node.text;
    if (ts.isPropertyAccessExpression(node)) node = node.expression;
    else if (ts.isCallExpression(node)) node = node.expression;
    else return undefined;
  }
}

function titleOf(arg: ts.Expression | undefined, source: ts.SourceFile): string {
  if (!arg) return '';
  if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) return arg.text;
  return arg.getText(source);
}

function bodyOf(call: ts.CallExpression): ts.Node | undefined {
  return [...call.arguments].reverse().find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
}

function refusalReasons(body: ts.Node, source: ts.SourceFile): string[] {
  const reasons = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isNumericLiteral(node) && REFUSAL_STATUSES.has(node.text)) reasons.add(`status ${node.text}`);
    else if (
      (ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isRegularExpressionLiteral(node)) &&
      REFUSAL_TEXT.test(node.text)
    )
      reasons.add(`refusal text ${node.text}`);
    else if (ts.isTemplateExpression(node) && REFUSAL_TEXT.test(node.getText(source)))
      reasons.add('refusal text');
    else if (ts.isIdentifier(node) && REFUSAL_NAMES.has(node.text)) reasons.add(node.text);
    else if (ts.isPropertyAccessExpression(node) && node.name.text === 'rejects') reasons.add('.rejects');
    ts.forEachChild(node, visit);
  };
  visit(body);
  return [...reasons];
}

/** Text some rule needs: a file without any has no protection test and is not parsed. */
const ANY_MARKER = new RegExp(
  [/\b(?:401|403|413|429)\b/, REFUSAL_TEXT, /\b(?:DENIED|RLS)\b|\.rejects\b/, PROTECTION_TITLE]
    .map((r) => r.source)
    .join('|'),
  'i',
);

/** Every protection test in one file's source, tagged or not. */
export function protectionTests(file: string, text: string): ProtectionTest[] {
  if (!ANY_MARKER.test(text)) return [];
  const source = ts.createSourceFile(
    file,
    text,
    { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    false,
    ts.ScriptKind.TS,
  );
  const found: ProtectionTest[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node, suites: string[], suiteLines: number[]): void => {
    if (ts.isCallExpression(node)) {
      const name = rootName(node.expression);
      if (name && SUITE_CALLS.has(name)) {
        const titles = [...suites, titleOf(node.arguments[0], source)];
        const lines = [...suiteLines, lineOf(node)];
        const body = bodyOf(node);
        if (body) ts.forEachChild(body, (child) => visit(child, titles, lines));
        return;
      }
      if (name && TEST_CALLS.has(name) && node.arguments.length >= 2) {
        const title = titleOf(node.arguments[0], source);
        const body = bodyOf(node);
        const reasons = body ? refusalReasons(body, source) : [];
        if (PROTECTION_TITLE.test(title)) reasons.unshift(`title`);
        if (reasons.length > 0) {
          const titles = [...suites, title];
          found.push({
            file,
            line: lineOf(node),
            titles,
            lines: [...suiteLines, lineOf(node)],
            reasons,
            tagged: titles.some((t) => TAG.test(t)),
          });
        }
        return;
      }
    }
    ts.forEachChild(node, (child) => visit(child, suites, suiteLines));
  };
  visit(source, [], []);
  return found;
}
