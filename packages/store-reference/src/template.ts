/**
 * The part of Jinja2 that kerchunk reference files use: `{{ expression }}`
 * placeholders in `templates`, `refs` URLs and `gen` entries, where an
 * expression is a name, an integer or quoted string, or arithmetic over them
 * (`+ - * // %`, `~` to join as text, parentheses). Anything else (`{% %}`
 * blocks, filters, calls) is refused rather than rendered wrongly.
 */
import { InvalidMetadataError, UnsupportedError } from "@zarrkit/registry";

/** A value a template renders: dimension values and template strings. */
export type TemplateValue = number | string;

/** Where a template came from, named by the errors it raises. */
export interface TemplateSource {
  /** Key of the reference file (or of the reference being resolved). */
  key: string;
  /** Field of the reference file, e.g. `gen[0].offset`. */
  field: string;
}

type Node =
  | { type: "literal"; value: TemplateValue }
  | { type: "name"; name: string }
  | { type: "negate"; operand: Node }
  | { type: "binary"; operator: string; left: Node; right: Node };

/** A parsed template: literal text and expressions, in order. */
export type TemplatePart = { text: string } | { expression: Node; source: string };

// Nested parentheses recurse: a hostile file must not exhaust the stack.
const MAX_DEPTH = 64;
const TOKEN = /\s*(\d+|[A-Za-z_][A-Za-z0-9_]*|"[^"]*"|'[^']*'|\/\/|[-+*%~()])/y;

/** Split `text` into literal text and `{{ }}` expressions. */
export function parseTemplate(text: string, source: TemplateSource): TemplatePart[] {
  if (text.includes("{%") || text.includes("{#")) {
    throw new UnsupportedError(
      `${where(source)}: Jinja blocks and comments ({% %}, {# #}) are not supported, only {{ expressions }}`,
      source,
    );
  }
  const parts: TemplatePart[] = [];
  let position = 0;
  while (position < text.length) {
    const open = text.indexOf("{{", position);
    if (open < 0) {
      parts.push({ text: text.slice(position) });
      break;
    }
    if (open > position) parts.push({ text: text.slice(position, open) });
    const close = text.indexOf("}}", open + 2);
    if (close < 0)
      throw new InvalidMetadataError(
        `${where(source)}: "{{" without a closing "}}" in ${JSON.stringify(text)}`,
        source,
      );
    const expressionText = text.slice(open + 2, close);
    parts.push({ expression: parseExpression(expressionText, source), source: expressionText.trim() });
    position = close + 2;
  }
  return parts;
}

/** Whether `text` holds Jinja syntax: a `{{ }}` placeholder (or a block or comment, which parsing refuses). */
export function isTemplated(text: string): boolean {
  return text.includes("{{") || text.includes("{%") || text.includes("{#");
}

/** Render parsed parts with `names` (dimension values first, then templates). */
export function renderTemplate(
  parts: readonly TemplatePart[],
  names: ReadonlyMap<string, TemplateValue>,
  source: TemplateSource,
): string {
  let out = "";
  for (const part of parts) out += "text" in part ? part.text : String(evaluate(part.expression, names, source));
  return out;
}

/** Render `text` whole: parse and render in one go. */
export function renderText(text: string, names: ReadonlyMap<string, TemplateValue>, source: TemplateSource): string {
  return isTemplated(text) ? renderTemplate(parseTemplate(text, source), names, source) : text;
}

/** The dimension name an expression is, when it is a bare name; undefined otherwise. */
export function bareName(part: TemplatePart): string | undefined {
  return "expression" in part && part.expression.type === "name" ? part.expression.name : undefined;
}

function parseExpression(text: string, source: TemplateSource): Node {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) {
      throw new UnsupportedError(
        `${where(source)}: cannot read {{${text}}} at ${JSON.stringify(text.slice(start).trim())}: ` +
          "expressions are names, integers, strings, + - * // % ~ and parentheses",
        source,
      );
    }
    tokens.push(match[1]!);
  }
  let next = 0;
  const fail = (what: string): never => {
    throw new InvalidMetadataError(`${where(source)}: malformed expression {{${text}}}: ${what}`, source);
  };
  const binary =
    (operators: readonly string[], operand: (depth: number) => Node) =>
    (depth: number): Node => {
      let left = operand(depth);
      while (next < tokens.length && operators.includes(tokens[next]!)) {
        const operator = tokens[next++]!;
        left = { type: "binary", operator, left, right: operand(depth) };
      }
      return left;
    };
  const primary = (depth: number): Node => {
    if (depth > MAX_DEPTH) fail(`nested deeper than ${MAX_DEPTH}`);
    const token = tokens[next++];
    if (token === undefined) return fail("it ends too early");
    if (token === "-") return { type: "negate", operand: primary(depth + 1) };
    if (token === "(") {
      const inner = concatenation(depth + 1);
      if (tokens[next++] !== ")") fail('a "(" is not closed');
      return inner;
    }
    if (/^\d/.test(token)) return { type: "literal", value: integer(token, source) };
    if (/^["']/.test(token)) return { type: "literal", value: token.slice(1, -1) };
    if (/^[A-Za-z_]/.test(token)) return { type: "name", name: token };
    return fail(`unexpected ${JSON.stringify(token)}`);
  };
  const product = binary(["*", "//", "%"], primary);
  const sum = binary(["+", "-"], product);
  const concatenation = binary(["~"], sum);
  const expression = concatenation(0);
  if (next < tokens.length) fail(`unexpected ${JSON.stringify(tokens[next])}`);
  return expression;
}

function integer(token: string, source: TemplateSource): number {
  const value = Number(token);
  if (!Number.isSafeInteger(value))
    throw new InvalidMetadataError(`${where(source)}: integer ${token} is too large`, source);
  return value;
}

function evaluate(node: Node, names: ReadonlyMap<string, TemplateValue>, source: TemplateSource): TemplateValue {
  switch (node.type) {
    case "literal":
      return node.value;
    case "name": {
      const value = names.get(node.name);
      if (value === undefined) {
        throw new InvalidMetadataError(`${where(source)}: {{${node.name}}} names no template or dimension`, source);
      }
      return value;
    }
    case "negate":
      return arithmetic("-", 0, evaluate(node.operand, names, source), source);
    case "binary": {
      const left = evaluate(node.left, names, source);
      const right = evaluate(node.right, names, source);
      if (node.operator === "~") return `${left}${right}`;
      if (node.operator === "+" && typeof left === "string" && typeof right === "string") return left + right;
      return arithmetic(node.operator, left, right, source);
    }
  }
}

function arithmetic(operator: string, left: TemplateValue, right: TemplateValue, source: TemplateSource): number {
  if (typeof left !== "number" || typeof right !== "number") {
    throw new InvalidMetadataError(
      `${where(source)}: ${JSON.stringify(left)} ${operator} ${JSON.stringify(right)} mixes text and numbers`,
      source,
    );
  }
  if ((operator === "//" || operator === "%") && right === 0) {
    throw new InvalidMetadataError(`${where(source)}: division by zero`, source);
  }
  // Python's floor division and modulo (the sign follows the divisor), as Jinja computes them.
  const result =
    operator === "+"
      ? left + right
      : operator === "-"
        ? left - right
        : operator === "*"
          ? left * right
          : operator === "//"
            ? Math.floor(left / right)
            : left - Math.floor(left / right) * right;
  if (!Number.isSafeInteger(result)) {
    throw new InvalidMetadataError(`${where(source)}: ${left} ${operator} ${right} is not an exact integer`, source);
  }
  return result;
}

function where(source: TemplateSource): string {
  return `${source.field} of ${JSON.stringify(source.key)}`;
}
