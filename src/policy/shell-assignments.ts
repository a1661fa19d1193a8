import type { SyntaxNode } from './bash-tree.js';
import { isCommandVariable, variableCommandLine } from './code-variables.js';
import { unquotedText } from './shell-dropped-words.js';
import { namedChildrenOf, type ShellWord, shellWord } from './shell-words.js';

/** Assignments as the grammar gives them (`A=x cmd`, `export A=x`), read for what they make run. */

/** A variable set for a command, or for the commands after it, with its value (null: an expansion decides it). */
export interface AssignedVariable {
  readonly name: string;
  readonly value: string | null;
}

/** A `variable_assignment` node's name and value (`A=` and `A` alone: empty). */
export function assignedVariable(node: SyntaxNode, name: string, source: string): AssignedVariable {
  const value = node.childForFieldName('value');
  return { name, value: value ? shellWord(value, source).value : '' };
}

/**
 * The command lines the variables that `export`, `declare -x`, `local` or an assignment on its own
 * set would make a later command run (`export GIT_SSH_COMMAND='rm -rf x'; git fetch`): null for one
 * an expansion decides. Empty for most such statements (no variable that names a command).
 */
export function assignedCommandLines(node: SyntaxNode, type: string, source: string): (string | null)[] {
  const assignments =
    type === 'variable_assignment'
      ? [node]
      : namedChildrenOf(node).filter((child) => child.type === 'variable_assignment');
  const lines: (string | null)[] = [];
  for (const assignment of assignments) {
    const name = assignment.childForFieldName('name')?.text ?? '';
    if (!isCommandVariable(name)) continue;
    const line = variableCommandLine(name, assignedVariable(assignment, name, source).value);
    if (line !== '') lines.push(line);
  }
  return lines;
}

/** A name bash takes as a variable's (`A`, `a_1`, or subscripted `a[1]`); `--format` is none. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isAssignment(node: SyntaxNode): boolean {
  const name = node.childForFieldName('name');
  return name?.type !== 'variable_name' || VARIABLE_NAME.test(name.text);
}

/** `--format=x` that the grammar read as an assignment: the word it is to bash (`--format=` and the value). */
export function assignmentAsWord(node: SyntaxNode, source: string): ShellWord {
  const text = source.slice(node.startIndex, node.endIndex);
  const valueNode = node.childForFieldName('value');
  if (!valueNode) return { value: unquotedText(text), text, splits: false };
  const head = unquotedText(source.slice(node.startIndex, valueNode.startIndex));
  const value = shellWord(valueNode, source);
  return {
    value: head === null || value.value === null ? null : head + value.value,
    text,
    splits: value.value === null && value.splits,
  };
}
