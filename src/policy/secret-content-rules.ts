/**
 * One credential format. `hints` are texts of which every match holds at least one (lower case when
 * `anyCase`): a text holding none of them is passed over without running the pattern. Most texts
 * checked (every environment variable's value at each start) hold none, and V8 compiles a regular
 * expression on its first run: the table cost ~1 ms of CPU on the path to the first model request.
 */
export interface SecretContentRule {
  what: string;
  hints: readonly string[];
  anyCase?: true;
  pattern: RegExp;
  /** A second pattern the text must match too (anywhere), when one alone says too little. */
  also?: RegExp;
}

/**
 * How a placeholder that stands for a credential in docs and comments starts (a lookahead's body, at
 * the value's start): `<token>`, `[password]`, `{pw}`, `${VAR}` or `$VAR`, a run of `x` or `*`, an
 * ellipsis (`...`, `…`, and `…` in UTF-8 read as Latin-1, as files are scanned). Used by the rules
 * whose value has no vendor's format; a vendor-prefixed token (`ghp_…`) is judged by its format alone.
 */
const PLACEHOLDER_START = String.raw`(?:[<\[{$]|[xX]{3}|\*{3}|\.{3}|\u2026|\u00e2\u0080\u00a6)`;

/**
 * Well-known credential formats, for files that hold secrets whatever their name (`.git/config`
 * with a token in a remote URL, `notes.txt` with a pasted key). Our own table, not secretlint's
 * preset: `@secretlint/*` 12 and 13 declare Node ≥ 22 (this project runs on 20), its API is async
 * with a ~40 ms load, and on samples tried here it missed OpenSSH private keys and `sk-` keys. The
 * formats follow the vendors' documented prefixes (the same facts secretlint and gitleaks encode).
 */
export const SECRET_CONTENT_RULES: readonly SecretContentRule[] = [
  {
    what: 'a private key',
    hints: ['-----BEGIN '],
    // Not a header whose body is a placeholder (`…`, `...`, `<key>`), as docs show one.
    pattern: new RegExp(
      `-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?![ \\t]*(?:\\r?\\n|\\\\n)?[ \\t]*${PLACEHOLDER_START})`,
    ),
  },
  {
    what: 'a GitHub token',
    hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    pattern: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/,
  },
  { what: 'a GitHub token', hints: ['github_pat_'], pattern: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/ },
  { what: 'an Anthropic API key', hints: ['sk-ant-'], pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/ },
  {
    what: 'an API key (sk-…)',
    hints: ['sk-'],
    pattern: /\bsk-(?:proj-|svcacct-|admin-|live-)?[A-Za-z0-9_-]{20,}/,
  },
  {
    what: 'an AWS access key',
    hints: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    // AWS's documented example ids (`AKIAIOSFODNN7EXAMPLE`, `AKIAI44QH8DHBEXAMPLE`: in countless
    // READMEs and tests) are none.
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)(?![A-Z0-9]{9}EXAMPLE\b)[A-Z0-9]{16}\b/,
  },
  { what: 'a Slack token', hints: ['xox'], pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { what: 'an npm token', hints: ['npm_'], pattern: /\bnpm_[A-Za-z0-9]{36}\b/ },
  {
    what: 'a registry auth token',
    hints: ['_auth', '_password'],
    // Not a `${VAR}` reference, a placeholder (`<token>`, `xxx`, `…`, `example`), or shorter than a
    // credential (`_authToken=x` in a test, `_auth=…`).
    pattern: new RegExp(
      `(?:^|[\\s:])_(?:authToken|auth|password)\\s*=\\s*(?!["']?(?:${PLACEHOLDER_START}|\\S*(?:example|EXAMPLE)))[^\\s$]{8}`,
      'm',
    ),
  },
  {
    what: 'a GitLab token',
    hints: ['glpat-', 'gldt-', 'glptt-', 'glrt-'],
    pattern: /\bgl(?:pat|dt|ptt|rt)-[A-Za-z0-9_-]{20,}/,
  },
  { what: 'a Google API key', hints: ['AIza'], pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { what: 'a Stripe key', hints: ['k_live_'], pattern: /\b[rs]k_live_[0-9A-Za-z]{20,}/ },
  { what: 'a Hugging Face token', hints: ['hf_'], pattern: /\bhf_[A-Za-z]{34}\b/ },
  {
    // The secret key has no prefix of its own: known by the name it is given in a file or variable.
    what: 'an AWS secret access key',
    hints: ['secret_access_key', 'secretaccesskey'],
    anyCase: true,
    // Not AWS's two documented examples (`wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`, `je7M…`).
    pattern:
      /secret_?access_?key["']?\s*[:=]\s*["']?(?!(?:wJalrXUtnFEMI\/K7MDENG\/bPxRfiCY|je7MtGbClwBF\/2Zp9Utk\/h3yCo8nvb)EXAMPLEKEY(?![A-Za-z0-9/+]))[A-Za-z0-9/+]{30,60}(?![A-Za-z0-9/+])/i,
  },
  { what: 'a Google OAuth client secret', hints: ['GOCSPX-'], pattern: /\bGOCSPX-[A-Za-z0-9_-]{24,}/ },
  { what: 'a PyPI token', hints: ['pypi-'], pattern: /\bpypi-AgE[A-Za-z0-9_-]{40,}/ },
  { what: 'a SendGrid key', hints: ['SG.'], pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/ },
  {
    what: 'a DigitalOcean token',
    hints: ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    pattern: /\bdo[opr]_v1_[a-f0-9]{64}\b/,
  },
  { what: 'an age secret key', hints: ['AGE-SECRET-KEY-1'], pattern: /AGE-SECRET-KEY-1[0-9A-Z]{50,}/ },
  {
    what: 'an Azure storage key',
    hints: ['accountkey=', 'sharedaccesssignature='],
    anyCase: true,
    pattern: /\b(?:AccountKey|SharedAccessSignature)=[A-Za-z0-9+/%=&-]{20,}/i,
  },
  {
    what: 'a Shopify token',
    hints: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    pattern: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/,
  },
  {
    what: 'a Telegram bot token',
    hints: [':A'],
    pattern: /\b\d{5,16}:A[A-Za-z0-9_-]{32,34}(?![A-Za-z0-9_-])/,
  },
  {
    what: 'a JSON Web Token',
    hints: ['eyJ'],
    pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/,
  },
  {
    what: 'a webhook URL',
    hints: ['hooks.slack.com/', '/api/webhooks/', 'webhook.office.com/'],
    pattern:
      /\bhttps:\/\/(?:hooks\.slack\.com\/(?:services|workflows|triggers)\/|(?:[a-z]+\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/|[a-z0-9-]+\.webhook\.office\.com\/)[A-Za-z0-9_/-]{16,}/,
  },
  { what: 'a Linear API key', hints: ['lin_api_'], pattern: /\blin_api_[A-Za-z0-9]{40}\b/ },
  { what: 'a Postman API key', hints: ['PMAK-'], pattern: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/ },
  { what: 'a Databricks token', hints: ['dapi'], pattern: /\bdapi[a-f0-9]{32}(?:-\d)?\b/ },
  {
    what: 'a URL with a password',
    hints: ['://'],
    // scheme://user:password@host, the password not a `$VAR` or `${VAR}` reference.
    // The password not a placeholder: a word that names one (`user:password@`, `user:pass@`), `<pw>`,
    // `[password]`, `{pw}`, `xxx`, `***`, `…`, or a value holding `example`.
    pattern: new RegExp(
      `\\b[a-z][a-z0-9+.-]{1,20}:\\/\\/[^\\s:@/'"]+:(?!(?:pass(?:word|wd)?|pwd?|secret|token)@|${PLACEHOLDER_START}|[^\\s@/'"]*example)[^\\s@/'"]+@[^\\s/'"]+`,
      'i',
    ),
  },
  {
    // A Kubernetes Secret keeps its values base64-encoded under `data:` (`stringData:` plain): no
    // format above sees them, the manifest's kind says what they are. YAML or JSON.
    what: 'a Kubernetes Secret',
    hints: ['Secret'],
    pattern: /^[ \t]*["']?kind["']?[ \t]*:[ \t]*["']?Secret["']?[ \t]*,?[ \t]*\r?$/m,
    also: /^[ \t]*["']?(?:data|stringData)["']?[ \t]*:/m,
  },
  {
    what: 'an HTTP authorization header',
    hints: ['authorization:'],
    anyCase: true,
    pattern: new RegExp(
      `\\bauthorization:\\s*(?:basic|bearer|token)\\s+(?!${PLACEHOLDER_START}|[A-Za-z0-9+/=._-]*example)[A-Za-z0-9+/=._-]{8,}`,
      'i',
    ),
  },
];
