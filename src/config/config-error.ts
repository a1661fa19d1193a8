/** One thing wrong with a config: where (a key path like `models."deepseek-v4".provider`) and what. */
export interface ConfigProblem {
  keyPath: string;
  problem: string;
}

/**
 * A config that cannot be used. The message names the source (a file path, `--config`, or an
 * environment variable), every bad key and what is wrong with it, and is meant to be printed as is,
 * without a stack trace. It never carries configured values, so API keys cannot leak through it.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly problems: readonly ConfigProblem[];

  constructor(
    /** Where the config came from: a file path, `--config`, or `environment variable NAME`. */
    readonly source: string,
    problems: ConfigProblem | readonly ConfigProblem[],
  ) {
    const list = Array.isArray(problems) ? problems : [problems as ConfigProblem];
    super(formatConfigError(source, list));
    this.problems = list;
  }

  /** The first (often the only) bad key. */
  get keyPath(): string {
    return this.problems[0]?.keyPath ?? '';
  }

  get problem(): string {
    return this.problems[0]?.problem ?? '';
  }
}

function formatConfigError(source: string, problems: readonly ConfigProblem[]): string {
  const describe = (p: ConfigProblem) => (p.keyPath ? `${p.keyPath}: ${p.problem}` : p.problem);
  if (problems.length === 1 && problems[0]) return `Invalid config in ${source}: ${describe(problems[0])}`;
  return [`Invalid config in ${source}:`, ...problems.map((p) => `  - ${describe(p)}`)].join('\n');
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** Renders a key path the way TOML writes it: `models."deepseek-v4.1".provider`, `hooks[0].event`. */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') {
      out += `[${segment}]`;
      continue;
    }
    const name = String(segment);
    const key = BARE_KEY.test(name) ? name : JSON.stringify(name);
    out += out === '' ? key : `.${key}`;
  }
  return out;
}
