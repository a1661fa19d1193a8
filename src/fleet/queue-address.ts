/** Where the fleet's Redis is, from `--queue redis://[user:password@]host[:port][/db]`. */
export interface QueueAddress {
  host: string;
  port: number;
  db: number;
  username: string | undefined;
  password: string | undefined;
  tls: boolean;
  /** `host:port`: what messages say. The URL's credentials are secrets and never part of it. */
  display: string;
}

/** A `--queue` value that is not a Redis URL. Its text never quotes the URL (it may hold a password). */
export class QueueUrlError extends Error {
  override name = 'QueueUrlError';
}

export function parseQueueUrl(text: string): QueueAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new QueueUrlError('--queue needs a Redis URL such as redis://127.0.0.1:6379.');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new QueueUrlError(`--queue needs a redis:// or rediss:// URL, not ${url.protocol}//.`);
  if (!url.hostname) throw new QueueUrlError('--queue needs a host: redis://HOST:PORT.');
  const port = url.port ? Number(url.port) : 6379;
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0)
    throw new QueueUrlError('--queue: the database after the / is a number.');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    host,
    port,
    db,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    tls: url.protocol === 'rediss:',
    display: `${host.includes(':') ? `[${host}]` : host}:${port}`,
  };
}
