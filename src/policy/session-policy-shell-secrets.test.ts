import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import {
  casesOf,
  checkRow,
  execInWork,
  fixtureRoot,
  type ModeName,
  type Row,
  runQuestion,
  useFixture,
} from './test-support/policy-table.js';

/**
 * Shell commands whose secret file the shell builds (braces, `$HOME`, `~user`, a glob in a folder,
 * a `cd` or `-C` before the word, a variable assigned earlier, deep nesting): asked as a secret read
 * in yolo (even there), refused where nobody can answer; the harmless look-alikes run as yolo says.
 */

useFixture();

beforeAll(async () => {
  const root = fixtureRoot();
  await mkdir(join(root, 'home', '.kube'), { recursive: true });
  await writeFile(join(root, 'home', '.kube', 'config'), 'apiVersion: v1');
  await writeFile(join(root, 'home', '.netrc'), 'machine x login y password z');
  await mkdir(join(root, 'work', 'sub'), { recursive: true });
  await writeFile(join(root, 'work', 'sub', '.env'), 'TOKEN=1');
});

const SECRET_COMMANDS = [
  'cat .e{n,}v',
  'cat ~/.ssh/{id_rsa,config}',
  'cat $HOME/.kube/config',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  'cat ${HOME}/.kube/config',
  'cat "$HOME"/.netrc',
  'cat ~root/.kube/config',
  'cat ~/.k?be/config',
  'cat */.env',
  'cd ~/.kube && cat config',
  'cd sub; cat .env',
  'cd "$(mktemp -d)" && cat config',
  'cat ../work/sub/.env',
  'git -C ~/.kube diff --no-index config /dev/null',
  'tar -C ~ -cf - .kube/config',
  'make --directory=../home/.kube config',
  'd=~/.kube; cat $d/config',
  'f=.env; cd sub && cat "$f"',
  // Loops split without tree-sitter: the file read, the folder moved to, the loop's words.
  'while read -r l; do echo "$l"; done < sub/.env',
  'cd sub && while IFS= read -r l; do echo "$l"; done <.env',
  'ls | while read -r f; do cat ~/.netrc; done',
  'until false; do cd ~/.kube; cat config; break; done',
  'for f in sub/.e?v; do wc -l "$f"; done | sort',
];

const HARMLESS_COMMANDS = [
  'cat src/{a,b}.ts',
  'cd src && cat a.ts',
  'git -C src status',
  'd=src; cat $d/a.ts',
  'while read -r l; do echo "$l"; done < src/a.ts',
  'cd src && for f in *.ts; do wc -l "$f"; done',
];

const rows = (mode: ModeName, expected: Row['expected']): Row[] =>
  SECRET_COMMANDS.map((command) => ({
    name: `${command}`,
    tool: 'Shell',
    effect: () => execInWork(command),
    question: runQuestion(command),
    modes: [mode],
    expected,
    step: 'sensitive',
    says: expected === 'deny' ? 'reads a secret file' : 'reads a SECRET file',
  }));

const ROWS: Row[] = [
  ...rows('yolo', 'ask'),
  ...rows('afk', 'deny'),
  ...rows('print', 'deny'),
  ...HARMLESS_COMMANDS.map(
    (command): Row => ({
      name: `${command}`,
      tool: 'Shell',
      effect: () => execInWork(command),
      question: runQuestion(command),
      modes: ['yolo', 'afk', 'print'],
      expected: 'allow',
      step: 'mode',
    }),
  ),
  // In the sandbox (which hides the homes and config files), a cd nobody can follow leaves words
  // judged by name; out of it (asked to leave it), the folder may be one the sandbox would hide.
  ...(['yolo', 'afk', 'print'] as const).map(
    (mode): Row => ({
      name: 'cd "$(git rev-parse --show-toplevel)" && npm test, sandboxed',
      tool: 'Shell',
      effect: () => execInWork('cd "$(git rev-parse --show-toplevel)" && npm test'),
      question: runQuestion('cd "$(git rev-parse --show-toplevel)" && npm test'),
      modes: [mode],
      sandbox: { state: 'on', mode: 'workspace-write' },
      expected: 'allow',
      step: 'mode',
    }),
  ),
  {
    name: 'cd "$X" && cat .env, sandboxed',
    tool: 'Shell',
    effect: () => execInWork('cd "$X" && cat .env'),
    question: runQuestion('cd "$X" && cat .env'),
    modes: ['print'],
    sandbox: { state: 'on', mode: 'workspace-write' },
    expected: 'deny',
    step: 'sensitive',
  },
];

describe('SessionPolicy.decide: secret files a shell expansion names', () => {
  it.each(casesOf(ROWS))('%s', (_name, row, modeName) => checkRow(row, modeName));
});
