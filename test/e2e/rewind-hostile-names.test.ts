import { readdir } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * File names are the work tree's, and a command the model ran can choose them: a name with an OSC
 * title escape, a carriage return and a newline must reach the terminal as visible symbols, on the
 * line of its own entry, never as a forged line of the rewind's listing.
 */

const cli = useScriptedCli();

/** `evil␛]0;pwned␇ X␍Y␊  - forged.txt` as bytes in a file name. */
const MAKE_HOSTILE_NAME = 'touch "$(printf \'evil\\033]0;pwned\\007 X\\rY\\n  - forged.txt\')"';

/** The control characters in `text` but the newline (the output's own): each should have been made visible. */
function rawControls(text: string): string[] {
  return [...text].filter((char) => {
    const code = char.charCodeAt(0);
    return code !== 0x0a && (code < 0x20 || (code >= 0x7f && code <= 0x9f));
  });
}

function expectNoRawControls(text: string): void {
  expect(rawControls(text)).toEqual([]);
}

it('/rewind in print mode shows a hostile file name escaped, on one line', async () => {
  await cli.setup([
    { toolCalls: [{ id: 's1', name: 'Shell', args: { command: MAKE_HOSTILE_NAME } }] },
    { text: 'Made it.' },
  ]);
  const made = await cli.sandbox.run(['--print', '-p', 'make a file']);
  expect(made.code).toBe(0);
  expect((await readdir(cli.sandbox.workDir)).some((name) => name.includes('pwned'))).toBe(true);

  const rewind = await cli.sandbox.run(['--print', '-C', '-p', '/rewind 1']);
  expect(rewind.code).toBe(0);
  expectNoRawControls(rewind.stdout);
  expect(rewind.stdout).toContain('pwned');
  // The name's newline did not start a line of the listing: what follows it stays on its line.
  // No line of its own starts with what followed the newline in the name (a forged entry).
  expect(rewind.stdout).not.toMatch(/^\s*- forged\.txt/m);
  expect((await readdir(cli.sandbox.workDir)).some((name) => name.includes('pwned'))).toBe(false);

  const listed = await cli.sandbox.run(['--print', '-C', '-p', '/rewind list']);
  expectNoRawControls(listed.stdout);
});

it('/rewind in the line shell shows a hostile file name escaped, on one line', async () => {
  await cli.setup([
    { toolCalls: [{ id: 's1', name: 'Shell', args: { command: MAKE_HOSTILE_NAME } }] },
    { text: 'Made it.' },
  ]);
  // The agent's command is approved (y); the rewind the person typed is not asked about.
  const result = await cli.sandbox.run([], { input: 'make a file\ny\n/rewind 1\n/exit\n' });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('Rewound to before turn 1');
  expectNoRawControls(result.stdout);
  // No line of its own starts with what followed the newline in the name (a forged entry).
  expect(result.stdout).not.toMatch(/^\s*- forged\.txt/m);
  expect((await readdir(cli.sandbox.workDir)).some((name) => name.includes('pwned'))).toBe(false);
});
