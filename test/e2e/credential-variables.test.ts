import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * The person's environment holds credentials of theirs (a GitHub token, an AWS secret key, a
 * database URL with its password). A model that runs `env` (or `echo $GITHUB_TOKEN`) must not get
 * them: print mode asks nobody, and the output is the model's.
 */

const cli = useScriptedCli();

const CREDENTIALS = {
  GITHUB_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  DB_PASSWORD: 'correct-horse-battery',
  DATABASE_URL: 'postgres://app:hunter2hunter2@db.internal:5432/app',
  DEPLOY_HOOK: 'https://ci:s3cr3tvalue@ci.example.com/deploy',
  SMTP_PASS: 'smtp-pass-value-1',
  MYSQL_DSN: 'app:dsn-pass-value-2@tcp(db:3306)/app',
};

it.each([
  ['in the sandbox', ''],
  ['with the sandbox off', '[sandbox]\nmode = "off"\n'],
])("a command %s does not get the person's credentials from the environment", async (_where, extraToml) => {
  const { sandbox } = await cli.setup(
    [
      {
        toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'env; echo "gh=$GITHUB_TOKEN"; echo end' } }],
      },
      { text: 'Done.' },
    ],
    { extraToml },
  );
  const result = await sandbox.run(['--print', '--yolo', '--output-format', 'stream-json', '-p', 'env'], {
    env: { ...CREDENTIALS, PLAIN_SETTING: 'visible-value' },
  });
  expect(result.code).toBe(0);
  // The command ran, with the rest of the environment.
  expect(result.stdout).toContain('PLAIN_SETTING=visible-value');
  expect(result.stdout).toContain('gh=');
  for (const value of Object.values(CREDENTIALS)) expect(result.stdout).not.toContain(value);
  for (const name of Object.keys(CREDENTIALS)) expect(result.stdout).not.toContain(`${name}=`);
});

it('[sandbox] keep_env passes a named variable on, and only that one', async () => {
  const { sandbox } = await cli.setup(
    [{ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'env' } }] }, { text: 'Done.' }],
    { extraToml: '[sandbox]\nkeep_env = ["DB_PASSWORD"]\n' },
  );
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'env'], {
    env: CREDENTIALS,
  });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain(`DB_PASSWORD=${CREDENTIALS.DB_PASSWORD}`);
  expect(result.stdout).not.toContain(CREDENTIALS.GITHUB_TOKEN);
});
