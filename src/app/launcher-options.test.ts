import { expect, it } from 'vitest';
import {
  MAKE_OPTIONS,
  NPM_OPTIONS,
  PYTHON_OPTIONS,
  readOptions,
  UV_OPTIONS,
  valuesOf,
} from './launcher-options.js';

const words = (line: string) => line.split(' ');

it.each([
  // An option's value is no operand.
  ['--loglevel silent run lint', ['run', 'lint'], ['--loglevel', 'silent']],
  ['run lint --prefix tools', ['run', 'lint'], ['--prefix', 'tools']],
  ['--prefix=tools run lint', ['run', 'lint'], ['--prefix', 'tools']],
  ['-w tools --silent run lint', ['run', 'lint'], ['-w', 'tools']],
  ['--no-color -C tools test', ['test'], ['-C', 'tools']],
  // After `--`, the script's arguments, however they look.
  ['run lint -- --prefix x', ['run', 'lint', '--prefix', 'x'], []],
])('npm %s: operands %j, options %j', (line, operands, option) => {
  const read = readOptions(words(line), NPM_OPTIONS);
  expect(read.unsure).toBeNull();
  expect(read.operands).toEqual(operands);
  if (option.length > 0) expect(valuesOf(read, [option[0]!])).toEqual([option[1]]);
});

it.each([
  ['-X utf8 -m checker --strict', 'checker', ['--strict']],
  ['-W ignore -m checker', 'checker', []],
  ['-uX utf8 -mchecker', 'checker', []],
  ['-Wignore -OO -m pkg.cli x', 'pkg.cli', ['x']],
  ['-Bm checker', 'checker', []],
])('python %s runs the module %s', (line, module, rest) => {
  const read = readOptions(words(line), PYTHON_OPTIONS);
  expect(read.unsure).toBeNull();
  expect(valuesOf(read, ['-m'])).toEqual([module]);
  expect(read.rest).toEqual(rest);
});

it('python: a script or -c code ends the options, and the module with them', () => {
  expect(readOptions(words('-u tool.py -m server'), PYTHON_OPTIONS)).toMatchObject({
    operands: ['tool.py'],
    rest: ['-m', 'server'],
  });
  const code = readOptions(['-c', 'import x', '-m', 'server'], PYTHON_OPTIONS);
  expect(valuesOf(code, ['-m'])).toEqual([]);
  expect(code.rest).toEqual(['-m', 'server']);
});

it.each([
  ['-s --directory=tools lint', ['tools'], ['lint']],
  ['-s -Ctools lint', ['tools'], ['lint']],
  ['-sC tools lint', ['tools'], ['lint']],
  ['-C a -C b', ['a', 'b'], []],
  // `-j N` takes a number when one follows; `-j` alone, none.
  ['-j 4 lint', [], ['lint']],
  ['-j lint', [], ['lint']],
  ['-j4 -kC tools --no-print-directory lint V=1', ['tools'], ['lint', 'V=1']],
])('make %s: -C %j, targets %j', (line, folders, targets) => {
  const read = readOptions(words(line), MAKE_OPTIONS);
  expect(read.unsure).toBeNull();
  expect(valuesOf(read, ['-C', '--directory'])).toEqual(folders);
  expect(read.operands).toEqual(targets);
});

it('uv: global options before `run`, the program after its own', () => {
  const global = readOptions(words('--directory mcp run --frozen --with httpx python -m server'), UV_OPTIONS);
  expect(global.operands).toEqual(['run']);
  const run = readOptions(global.rest, UV_OPTIONS);
  expect(run.operands).toEqual(['python']);
  expect(run.rest).toEqual(['-m', 'server']);
});

it('stops, and says why, at an option it does not know or a word an expansion decides', () => {
  expect(readOptions(words('--foo bar run lint'), NPM_OPTIONS)).toMatchObject({
    operands: [],
    unsure: '`--foo`, an option kimi-ts does not know',
  });
  // A cluster with a letter it does not know is not guessed at either.
  expect(readOptions(words('-sZ lint'), MAKE_OPTIONS).unsure).toContain('`-sZ`');
  expect(readOptions(['run', null, 'lint'], NPM_OPTIONS)).toMatchObject({
    operands: ['run'],
    unsure: 'a word an expansion decides',
  });
  expect(readOptions(['-X'], PYTHON_OPTIONS).unsure).not.toBeNull();
  // Nor `--key=value` of a key it does not know: npm reads an abbreviation (`--pref=x` is `--prefix=x`).
  expect(readOptions(words('--pref=tools run lint'), NPM_OPTIONS).unsure).not.toBeNull();
});
