import { describe, it } from 'vitest';
import type { PermissionRuleSpec } from './permission-rule.js';
import { casesOf, checkRow, exec, type Row, runQuestion, useFixture } from './test-support/policy-table.js';

/**
 * The policy table's rows for make's variables (issue 24, holes5): `SHELL=`, `.SHELLFLAGS=`,
 * `MAKEFLAGS=`, `MAKEFILES=` and values a recipe expands, on make's command line or (the flags and
 * makefiles) in its environment, run code no deny rule reads: asked under `Shell(rm -rf*)` in yolo.
 * Each got past the rule before.
 */

useFixture();

const RM_RF: PermissionRuleSpec[] = [{ decision: 'deny', pattern: 'Shell(rm -rf*)' }];

const ASKED: [name: string, command: string][] = [
  ['SHELL= on the command line', 'make SHELL=/tmp/x all'],
  ['.SHELLFLAGS= on the command line', 'make \'.SHELLFLAGS=-c "rm -rf v"\' all'],
  ['MAKEFLAGS= on the command line', "make 'MAKEFLAGS=--eval=x' all"],
  ['MAKEFILES= on the command line', 'make MAKEFILES=/tmp/x.mk all'],
  ['SHELL:= (another assignment operator)', 'make SHELL:=/tmp/x all'],
  ['a value with a shell operator', "make 'CC=rm -rf v; true' all"],
  ['a value with a command substitution', "make 'CFLAGS=$(shell rm -rf v)' all"],
  ['a value an expansion decides', 'make CFLAGS="$x" all'],
  ['MAKEFLAGS in the environment', "MAKEFLAGS='CC=rm\\ -rf\\ v;true' make all"],
  ['MAKEFLAGS through env', "env MAKEFLAGS='--eval=x' make all"],
  ['MAKEFILES in the environment', 'MAKEFILES=/tmp/x.mk make all'],
  ['MAKEFLAGS exported earlier', "export MAKEFLAGS='--eval=x'; make all"],
  ['gmake SHELL=', 'gmake SHELL=/tmp/x all'],
];

const UNTOUCHED = [
  'make',
  'make -j4 all',
  'make CC=clang CFLAGS=-O2 all',
  'make PREFIX=/usr/local install',
  'make -C src V=1',
  'make -f build.mk test',
];

const ROWS: Row[] = [
  ...ASKED.map(([name, command]) =>
    row(`might run rm -rf through make's ${name}`, command, 'ask', 'rule', 'might apply'),
  ),
  ...UNTOUCHED.map((command) => row(`runs nothing the rule names: ${command}`, command, 'allow', 'mode')),
];

function row(name: string, command: string, expected: Row['expected'], step: string, says?: string): Row {
  return {
    name,
    tool: 'Shell',
    effect: () => exec(command),
    question: runQuestion(command),
    modes: ['yolo'],
    rules: RM_RF,
    expected,
    step,
    says,
  };
}

describe("SessionPolicy.decide: make's variables (holes5)", () => {
  it.each(casesOf(ROWS))('%s', (_name, row, modeName) => checkRow(row, modeName));
});
