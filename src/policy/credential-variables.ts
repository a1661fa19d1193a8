import { secretContentReason } from './secret-content.js';

/**
 * Words in a variable's name that say it holds a credential, anywhere in the name: `GITHUB_TOKEN`,
 * `AWS_SECRET_ACCESS_KEY`, `PGPASSWORD`, `NPM_CONFIG__AUTH`… (case does not matter).
 */
const CREDENTIAL_WORDS =
  /SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|TOKEN|APIKEY|API_KEY|ACCESS_KEY|PRIVATE_KEY|WEBHOOK|_AUTH$|^AUTH_/i;

/**
 * Parts of a name (between `_`) that say the same: `STRIPE_KEY`, `MYSQL_PWD`, `SMTP_PASS`, `GH_PAT`,
 * `X_COOKIE`.
 */
const CREDENTIAL_PARTS = new Set(['KEY', 'KEYS', 'PWD', 'PASS', 'PAT', 'COOKIE', 'COOKIES', 'AUTH', 'JWT']);

/**
 * A connection string with a password in its user part, with or without a scheme: Go's MySQL DSN
 * `app:pw@tcp(db:3306)/app`, `app:pw@db/app`, `redis://:pw@cache` (no user). The password is not a
 * `$VAR` reference.
 */
const USER_PASSWORD = /(?:^|:\/\/)[^\s:@/'"]*:(?!\$)[^\s@/'"]+@/;

/** Names that match the words above but hold no credential, and that programs need. */
const NOT_CREDENTIALS = new Set([
  'PWD',
  'OLDPWD',
  'SSH_AUTH_SOCK',
  'GPG_AGENT_INFO',
  'XAUTHORITY',
  'TOKENIZERS_PARALLELISM',
]);

/** Why `name=value` looks like a credential (its name, or a known format in its value), or null. */
export function credentialVariableReason(name: string, value: string): string | null {
  if (NOT_CREDENTIALS.has(name.toUpperCase())) return null;
  if (CREDENTIAL_WORDS.test(name)) return 'its name says it holds a credential';
  if (
    name
      .toUpperCase()
      .split('_')
      .some((part) => CREDENTIAL_PARTS.has(part))
  )
    return 'its name says it holds a credential';
  const content = secretContentReason(value);
  if (content !== null) return `its value ${content}`;
  // Without an `@` there is no user part: the pattern is not run (nor compiled, on most starts).
  return value.includes('@') && USER_PASSWORD.test(value)
    ? 'its value holds a connection string with a password'
    : null;
}

/**
 * The environment commands get: `env` without the variables that look like the person's
 * credentials (by name or by value: a GitHub token, an AWS secret key, a database URL with its
 * password). A command's output goes to the model, and `env` or `echo $GITHUB_TOKEN` would hand it
 * over; the sandbox hides `~/.aws` and `~/.config/gh`, and this is the same for what lives in the
 * environment. `keep` names variables to pass anyway (`[sandbox] keep_env` in the person's config).
 */
export function withoutCredentialVariables(
  env: Readonly<Record<string, string | undefined>>,
  keep: ReadonlySet<string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!keep.has(name) && credentialVariableReason(name, value) !== null) continue;
    out[name] = value;
  }
  return out;
}
