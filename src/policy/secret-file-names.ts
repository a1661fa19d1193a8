import { basename } from 'node:path';

/** `.env.*` files that by convention hold placeholders, not secrets. */
const HARMLESS_ENV_FILES = new Set([
  '.env.example',
  '.env.sample',
  '.env.template',
  '.env.dist',
  '.env.defaults',
]);

/** File names that hold credentials wherever they are (a project's `.npmrc` may carry `_authToken`). */
const CREDENTIAL_NAMES = new Set([
  'credentials',
  '.netrc',
  '_netrc',
  '.git-credentials',
  '.pgpass',
  '.npmrc',
  '.pypirc',
  '.htpasswd',
  '.my.cnf',
  // Cloud and service command lines that keep a key in a file of their own name, wherever it is.
  '.s3cfg',
  '.boto',
  '.passwd-s3fs',
  '.sentryclirc',
  '.dockercfg',
  '.terraformrc',
  '.databrickscfg',
  '.authinfo',
  '.msmtprc',
  '.fetchmailrc',
  // Ansible's vault password, act's `.secrets`, a cluster's kubeconfig (a bearer token or a client key).
  '.vault_pass',
  '.vault-password',
  'vault_pass',
  'vault-password',
  '.secrets',
  'kubeconfig',
]);

/**
 * Projects' own secret files by stem, whatever the format (`secrets.yml` of Rails, `.streamlit/
 * secrets.toml`, `secrets.json`, `secret.properties`): the name says what it holds.
 */
const SECRET_STEMS =
  /^secrets?\.(ya?ml|json|toml|ini|conf|cfg|properties|xml)$|^\.?vault[-_]pass(word)?\.(txt|ya?ml|json|conf|cfg)$/;

/** Cloud service-account keys and OAuth client secrets as their consoles name the download. */
const KEY_DOWNLOADS = /^(service[-_]account.*|client_secret.*|.*-credentials)\.json$/;

const SHELL_HISTORIES = new Set([
  '.bash_history',
  '.zsh_history',
  '.sh_history',
  '.history',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history',
  'fish_history',
]);

/** Extensions of private keys and key stores. */
const KEY_EXTENSIONS = ['.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.ppk', '.kdbx'];

/** Extensions of files that hold a deployment's secrets in clear text (Terraform). */
const STATE_EXTENSIONS = ['.tfstate', '.tfvars'];

/**
 * The name a backup or editor copy stands for: `.env~`, `#.env#` (Emacs), `.env.swp` (Vim),
 * `.env.bak`, `.env.orig`, `.npmrc.old` all hold what the original holds.
 */
export function originalName(name: string): string {
  let current = name;
  for (;;) {
    const before = current;
    if (current.endsWith('~')) current = current.slice(0, -1);
    if (/^#.+#$/.test(current)) current = current.slice(1, -1);
    if (current.startsWith('.#')) current = current.slice(2);
    // Vim: `.name.swp` for `name`, and `.env.swp` for `.env` (no second dot).
    if (/^\..+\.sw[a-p]$/.test(current)) current = current.replace(/\.sw[a-p]$/, '');
    const backup = /^(.+)\.(bak|orig|old|save|backup|tmp|copy)$/i.exec(current);
    if (backup?.[1]) current = backup[1];
    if (current === before || current === '') return current === '' ? before : current;
  }
}

function dotenvReason(name: string): string | null {
  if (HARMLESS_ENV_FILES.has(name)) return null;
  if (name === '.env' || name === '.envrc' || name.startsWith('.env.')) return 'a dotenv file';
  // `prod.env`, `staging.env`: the same content under another name.
  if (name.endsWith('.env') && name.length > 4) return 'a dotenv file';
  return null;
}

/** The Google Cloud SDK's credentials file, wherever the folder holding `.gcp` is. */
const GCP_CREDENTIALS = '/.gcp/credentials';

/**
 * Text every name the checks below call secret holds: each check reads the given name or a part of
 * it (a backup's original, without its leading dot), so a name holding none of these is no secret's
 * and takes one regex test instead of the whole walk (most names a command holds: `src`, `5`).
 */
const SECRET_NAME_MARKS = new RegExp(
  [
    ...CREDENTIAL_NAMES,
    ...SHELL_HISTORIES,
    ...KEY_EXTENSIONS,
    ...STATE_EXTENSIONS,
    '.env',
    'id_',
    'secret',
    'vault',
    'service',
    basename(GCP_CREDENTIALS),
  ]
    .map((mark) => mark.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
  // Case aside: `Secrets.json`, `Service-Account.json` (the checks lower-case what they need to).
  'i',
);

/**
 * The part of the classifier that needs only the file's name (dotenv files and their copies, private
 * keys, credentials files, shell histories): for paths relative to some root, e.g. checkpoint
 * snapshots. `.git/config` is not here: it is secret by its content (a token in a remote URL).
 */
export function secretNameReason(path: string): string | null {
  // Most paths hold no backslash: replaceAll would still cost more than the rest of the test.
  const normalised = path.includes('\\') ? path.replaceAll('\\', '/') : path;
  const given = basename(normalised);
  if (!SECRET_NAME_MARKS.test(given)) return null;
  const original = originalName(given);
  if (HARMLESS_ENV_FILES.has(original)) return null;
  for (const name of new Set([given, original, original.replace(/^\./, '')])) {
    const dotenv = dotenvReason(name);
    if (dotenv) return dotenv;
    if (CREDENTIAL_NAMES.has(name) || name.endsWith('.kubeconfig')) return 'a credentials file';
    if (SHELL_HISTORIES.has(name)) return 'a shell history';
    if (KEY_EXTENSIONS.some((ext) => name.endsWith(ext))) return 'a private key';
    if (name.startsWith('id_') && !name.endsWith('.pub')) return 'a private key';
    if (STATE_EXTENSIONS.some((ext) => name.endsWith(ext))) return 'deployment secrets (Terraform)';
    if (SECRET_STEMS.test(name.toLowerCase())) return 'a secrets file';
    if (KEY_DOWNLOADS.test(name.toLowerCase())) return 'a service key';
  }
  if (normalised.endsWith(GCP_CREDENTIALS)) return 'Google Cloud credentials';
  return null;
}
