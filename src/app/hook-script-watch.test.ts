import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { watchHookScripts } from './hook-script-watch.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-hook-watch-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
function workspace(): { work: string; home: string } {
  const work = join(root, `work-${++count}`);
  const home = join(root, `home-${count}`);
  mkdirSync(join(work, 'scripts'), { recursive: true });
  mkdirSync(home, { recursive: true });
  return { work, home };
}

it('refuses a hook whose script did not exist at start and exists now', async () => {
  const { work, home } = workspace();
  const refuse = await watchHookScripts(
    ['sh scripts/hook.sh', 'python3 -u check.py', './bin/run'],
    work,
    home,
  );
  expect(refuse('sh scripts/hook.sh')).toBeNull();
  writeFileSync(join(work, 'scripts', 'hook.sh'), 'exit 0\n');
  writeFileSync(join(work, 'check.py'), '');
  mkdirSync(join(work, 'bin'));
  writeFileSync(join(work, 'bin', 'run'), '');
  expect(refuse('sh scripts/hook.sh')).toContain('A hook is skipped: scripts/hook.sh');
  expect(refuse('python3 -u check.py')).toContain('check.py');
  expect(refuse('./bin/run')).toContain('./bin/run');
});

it('refuses a hook whose symlinked script now leads elsewhere', async () => {
  const { work, home } = workspace();
  writeFileSync(join(work, 'format.sh'), '');
  symlinkSync('../format.sh', join(work, 'scripts', 'hook.sh'));
  const refuse = await watchHookScripts(['sh scripts/hook.sh'], work, home);
  expect(refuse('sh scripts/hook.sh')).toBeNull();
  unlinkSync(join(work, 'scripts', 'hook.sh'));
  writeFileSync(join(work, 'scripts', 'hook.sh'), '');
  expect(refuse('sh scripts/hook.sh')).toContain('now leads to');
});

it('runs a hook whose own files come and go, or that names programs on PATH', async () => {
  const { work, home } = workspace();
  writeFileSync(join(work, 'scripts', 'hook.sh'), '');
  writeFileSync(join(work, 'old.log'), '');
  const commands = ['sh scripts/hook.sh >> hook.log', 'git add -A && touch .kimi/ran', 'rm old.log'];
  const refuse = await watchHookScripts(commands, work, home);
  writeFileSync(join(work, 'hook.log'), '');
  writeFileSync(join(work, 'git'), '');
  mkdirSync(join(work, '.kimi'));
  writeFileSync(join(work, '.kimi', 'ran'), '');
  unlinkSync(join(work, 'old.log'));
  for (const command of commands) expect(refuse(command)).toBeNull();
  expect(refuse('a command not configured')).toBeNull();
});

it('refuses a hook when a file its launcher reads appears (a GNUmakefile before the Makefile, an .npmrc)', async () => {
  const { work, home } = workspace();
  writeFileSync(join(work, 'Makefile'), 'lint:\n\ttrue\n');
  writeFileSync(join(work, 'package.json'), '{"scripts":{"lint":"true"}}');
  const refuse = await watchHookScripts(['make lint', 'npm run lint'], work, home);
  expect(refuse('make lint')).toBeNull();
  expect(refuse('npm run lint')).toBeNull();
  writeFileSync(join(work, 'GNUmakefile'), 'lint:\n\ttouch planted\n');
  writeFileSync(join(work, '.npmrc'), 'script-shell=./planted.sh\n');
  expect(refuse('make lint')).toContain(`${join(work, 'GNUmakefile')}, a file its launcher reads`);
  expect(refuse('npm run lint')).toContain(`${join(work, '.npmrc')}, a file its launcher reads`);
});
