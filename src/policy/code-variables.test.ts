import { describe, expect, it } from 'vitest';
import { addVariableCode, isCodeVariable, setsCodeVariable } from './code-variables.js';
import { CODE_WORD, type ShellWord, UNKNOWN_WORD } from './shell-words.js';

function codeOf(name: string, value: string | null): { nested: string[]; extra: (readonly ShellWord[])[] } {
  const nested: string[] = [];
  const extra: (readonly ShellWord[])[] = [];
  addVariableCode(name, value, nested, extra);
  return { nested, extra };
}

describe('code variables', () => {
  it.each([
    'BASH_ENV',
    'ENV',
    'PROMPT_COMMAND',
    'PS4',
    'GIT_SSH_COMMAND',
    'GIT_CONFIG_COUNT',
    'LESSOPEN',
    'LD_PRELOAD',
  ])('%s is one', (name) => expect(isCodeVariable(name)).toBe(true));
  it.each(['CI', 'NODE_ENV', 'HOME', 'GIT_AUTHOR_NAME', 'GIT_DIR', 'LD_DEBUG', 'LANG'])(
    '%s is none',
    (name) => expect(isCodeVariable(name)).toBe(false),
  );

  it('a command line is parsed in turn; LESSOPEN without its pipes; an expansion is any command', () => {
    // Read as git runs it: `sh -c 'VALUE "$@"'` with arguments nobody here names.
    expect(codeOf('GIT_SSH_COMMAND', 'rm -rf v;')).toEqual({ nested: ['rm -rf v; "$@"'], extra: [] });
    expect(codeOf('LESSOPEN', '||rm -rf v %s')).toEqual({ nested: ['rm -rf v %s "$@"'], extra: [] });
    expect(codeOf('GIT_PAGER', null)).toEqual({ nested: [], extra: [[UNKNOWN_WORD]] });
    expect(codeOf('GIT_PAGER', '')).toEqual({ nested: [], extra: [] });
  });

  it('a start-up file, a library or options: code nobody reads here; other variables: nothing', () => {
    expect(codeOf('BASH_ENV', '/tmp/e')).toEqual({ nested: [], extra: [[CODE_WORD]] });
    expect(codeOf('NODE_OPTIONS', '--require x')).toEqual({ nested: [], extra: [[CODE_WORD]] });
    expect(codeOf('CI', '1')).toEqual({ nested: [], extra: [] });
  });

  it('statements that set one: export, declare, a plain assignment, +=', () => {
    expect(setsCodeVariable('export BASH_ENV=/tmp/e')).toBe(true);
    expect(setsCodeVariable('declare -x PS4')).toBe(true);
    expect(setsCodeVariable('PS1+=x')).toBe(true);
    // A command variable's line is parsed instead (assignedCommandLines, shell-assignments.ts).
    expect(setsCodeVariable('export GIT_SSH_COMMAND=x')).toBe(false);
    expect(setsCodeVariable('export CI=1 NODE_ENV=test')).toBe(false);
  });
});
