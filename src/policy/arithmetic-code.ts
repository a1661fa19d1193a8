/**
 * Arithmetic that can run code. bash evaluates a variable named in arithmetic as an expression in
 * turn, and an array subscript in that expression as arithmetic too, so `x='a[$(cmd)]'; echo $((x))`
 * runs cmd. A variable's value is not known when the policy decides, so arithmetic naming any
 * variable is code no rule can rule out. Arithmetic happens in `$((…))` and `$[…]`, `((…))`,
 * `for ((…))`, `let`, indexed-array subscripts (`${a[x]}`, `a[x]=1`, `read a[x]`), substring
 * offsets (`${s:x:y}`), `[[ x -eq y ]]`, assignments to a `declare -i` variable, and `${!x}` (the
 * name in x may be `a[$(cmd)]`, whose subscript is evaluated).
 */

/** Numbers as bash writes them in arithmetic: `16#ff`, `0x1F`, `017`, `42`. */
const NUMBERS = /\b(?:\d+#[0-9A-Za-z@_]+|0[xX][0-9A-Fa-f]+|\d+)\b/g;
/** What is left of an expression naming a variable, a parameter or a substitution. */
const NAMES = /[A-Za-z_$`]/;

/** Parameters that always hold a number: `$?`, `$#`, `$$`, `$!`, a length `${#name}`. */
const NUMERIC_PARAMETERS = /\$[?#$!]|\$\{#[A-Za-z_][A-Za-z0-9_]*\}/g;

/** Whether an arithmetic expression names a variable (or holds an expansion): its value is code. */
export function namesVariable(expression: string): boolean {
  const rest = expression.includes('$') ? expression.replace(NUMERIC_PARAMETERS, '0') : expression;
  return NAMES.test(rest.replace(NUMBERS, ''));
}

/**
 * Whether a text (a word, an assignment, a heredoc, a statement) holds arithmetic on a variable:
 * `$((…))`, `$[…]`, `${a[SUB]}`, `${s:OFF:LEN}`, `${!x}`, `a[SUB]=`. Text with no `$` and no `[`
 * holds none (the common case: one scan each).
 */
export function hasArithmeticOnVariables(text: string): boolean {
  if (!text.includes('$') && !text.includes('[')) return false;
  for (let at = text.indexOf('$'); at !== -1; at = text.indexOf('$', at + 1)) {
    const next = text[at + 1];
    if (next === '(' && text[at + 2] === '(') {
      if (namesVariable(enclosed(text, at + 3, '(', ')'))) return true;
    } else if (next === '[') {
      if (namesVariable(enclosed(text, at + 2, '[', ']'))) return true;
    } else if (next === '{' && parameterEvaluates(enclosed(text, at + 2, '{', '}'))) return true;
  }
  return subscriptedAssignment(text);
}

/** The text from `from` up to the bracket that closes one opened just before it (nesting counted). */
function enclosed(text: string, from: number, open: string, close: string): string {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const char = text[i];
    if (char === open) depth++;
    else if (char === close && --depth === 0) return text.slice(from, i);
  }
  return text.slice(from);
}

/** Special parameters: `${#}`, `${@}`, `${?}`… */
const NAME_AT_START = /^[!#]?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/;

/**
 * The inside of `${…}`: an indirect `${!x}`, a subscript that names a variable (`a[x]`, not `a[@]`
 * or `a[1]`), or a substring offset or length that does (`s:x`, not `s:-default` or `s: -1`).
 */
function parameterEvaluates(inside: string): boolean {
  const name = NAME_AT_START.exec(inside)?.[0];
  if (name === undefined) return namesVariable(inside); // not a form bash reads: judged whole
  let rest = inside.slice(name.length);
  if (name.startsWith('!') && name.length > 1 && (rest === '' || rest[0] === '[' || rest[0] === ':')) {
    // `${!x}`: x names the variable to expand, perhaps `a[$(cmd)]` (`${!a[@]}`, `${!pre*}` list names).
    if (!/^\[[@*]\]$/.test(rest)) return true;
  }
  if (rest[0] === '[') {
    const subscript = enclosed(rest, 1, '[', ']');
    if (subscript !== '@' && subscript !== '*' && namesVariable(subscript)) return true;
    rest = rest.slice(subscript.length + 2);
  }
  // `${s:OFF}`, `${s:OFF:LEN}`; `:-` `:=` `:+` `:?` are defaults, not offsets.
  if (rest[0] === ':' && !/^:[-=+?]/.test(rest)) return namesVariable(rest.slice(1));
  return false;
}

/** `a[x]=1`, `a[x]+=1`, `declare a[$i]=…` (an indexed assignment's subscript is arithmetic). */
const SUBSCRIPTED_ASSIGNMENT = /(?:^|[\s;&|(])[A-Za-z_][A-Za-z0-9_]*\[([^\]]*)\]\+?=/g;

/** `b=([x]=1)`, `b+=([$i]=v)`: a compound assignment's subscripts, arithmetic for an indexed array. */
const COMPOUND_SUBSCRIPT = /(?:^|[\s(])\[([^\]]*)\]\+?=/g;

function subscriptedAssignment(text: string): boolean {
  if (!text.includes('[')) return false;
  for (const found of text.matchAll(SUBSCRIPTED_ASSIGNMENT)) if (namesVariable(found[1] ?? '')) return true;
  if (!text.includes('=(')) return false;
  for (const found of text.matchAll(COMPOUND_SUBSCRIPT)) if (namesVariable(found[1] ?? '')) return true;
  return false;
}

/** A word naming an array element (`a[x]`): what read, printf -v, unset and test -v evaluate. */
const ELEMENT = /^[A-Za-z_][A-Za-z0-9_]*\[(.*)\]$/;

/** Builtins whose operands may name an array element, its subscript evaluated as arithmetic. */
const ELEMENT_BUILTINS = new Set([
  'read',
  'printf',
  'unset',
  'test',
  '[',
  'mapfile',
  'readarray',
  'wait',
  'getopts',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
]);

/**
 * Arithmetic a builtin evaluates on variables: `let EXPR…`, an element with a variable subscript
 * named to the builtins above, `declare -i` (later assignments to the variable are arithmetic).
 * Null when none; otherwise why.
 */
export function builtinArithmetic(program: string, args: readonly (string | null)[]): string | null {
  if (program === 'let') {
    return args.some((arg) => arg === null || namesVariable(arg))
      ? 'let evaluates arithmetic, which can run code through variables'
      : null;
  }
  if (!ELEMENT_BUILTINS.has(program)) return null;
  for (const arg of args) {
    if (arg === null) continue; // an expansion: its own text is judged with the part's words
    const subscript = ELEMENT.exec(arg)?.[1];
    if (subscript !== undefined && namesVariable(subscript)) return `${program} evaluates an array subscript`;
    if (/^[-+][A-Za-z]*i/.test(arg) && program !== 'read' && program !== 'printf' && program !== 'test')
      return `${program} -i makes later assignments arithmetic`;
  }
  return null;
}

/** Whether `program` is one builtinArithmetic reads (a Set lookup: unwrap asks it for every command). */
export function mayEvaluateArithmetic(program: string): boolean {
  return program === 'let' || ELEMENT_BUILTINS.has(program);
}

/** `a[x]` anywhere in a statement's text, its subscript naming a variable. */
const ELEMENT_IN_TEXT = /[A-Za-z_][A-Za-z0-9_]*\[([^\]]*)\]/g;

function namesElementWithVariable(text: string): boolean {
  if (!text.includes('[')) return false;
  for (const found of text.matchAll(ELEMENT_IN_TEXT)) if (namesVariable(found[1] ?? '')) return true;
  return false;
}

/** `[[ … ]]`'s arithmetic comparisons: their operands are evaluated as arithmetic. */
const ARITHMETIC_TEST = /\s-(?:eq|ne|lt|le|gt|ge)\s/;

/**
 * Whether a statement that is not a command evaluates arithmetic on a variable: `((…))`,
 * `for ((…))`, `[[ x -eq 1 ]]`, `[[ -v a[x] ]]`, `declare -i`, `unset 'a[x]'`, `a[x]=1`, and any
 * `$((…))`, `${a[x]}`… in its text.
 */
export function statementArithmetic(type: string, text: string): boolean {
  switch (type) {
    case 'compound_statement':
    case 'c_style_for_statement':
      // Its head only (the caller gives it): `((…))`, `for ((…))`.
      return namesVariable(text.replace(/^for\s*/, '')) || hasArithmeticOnVariables(text);
    case 'test_command':
      // `[[ x -eq 1 ]]` evaluates its operands (`[ x -eq 1 ]`, the builtin, does not).
      if (text.startsWith('[[') && ARITHMETIC_TEST.test(text)) {
        // Operands of the comparison: judged with the operators and brackets taken out.
        const operands = text.replace(/\s-[a-zA-Z]+(?=\s)/g, ' ').replace(/\[\[|\]\]|&&|\|\||!/g, ' ');
        if (namesVariable(operands)) return true;
      }
      // `-v b[x]` evaluates the subscript, in both forms.
      return (/\s-v\s/.test(text) && namesElementWithVariable(text)) || hasArithmeticOnVariables(text);
    case 'declaration_command':
      if (/\s[-+][A-Za-z]*i/.test(text)) return true;
      return namesElementWithVariable(text) || hasArithmeticOnVariables(text);
    case 'unset_command':
      return namesElementWithVariable(text) || hasArithmeticOnVariables(text);
    default:
      return hasArithmeticOnVariables(text);
  }
}
