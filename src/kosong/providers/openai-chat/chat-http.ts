import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import * as SdkErrors from 'openai/core/error';
import { ChatProviderError } from '../../errors.js';
import { serverMessage } from '../error-body-fetch.js';
import { type ServerSentEvent, SseDecoder } from './sse-decoder.js';

/**
 * The HTTP exchange of one streamed Chat Completions request, on Node's own HTTP client.
 *
 * The OpenAI SDK over `fetch` cost ~1.2 ms of CPU per request beyond what the exchange needs (a
 * 94 KB body, loopback, measured in one run: 1.76 ms against 0.57): undici's fetch machinery, web
 * streams for the body both ways, llhttp in WebAssembly, the SDK's header objects and logging
 * arguments built even with logging off — on every step of every turn. What the SDK did here is
 * kept, and its error classes are thrown, so `mapOpenAIError` reads both paths alike:
 * - a timeout for the answer's headers (`APIConnectionTimeoutError`); after them the stream's own
 *   watchdog (ChatCompletionStream) takes over;
 * - an abort before the headers is `APIUserAbortError`; after them the stream just ends;
 * - a non-2xx answer is `APIError.generate(status, …)` with at most 1 MiB of its body read, and a
 *   body in another shape (`{"message": …}`, `{"detail": …}`, a bare string) made readable;
 * - redirects: only 307/308 to the same origin, at most MAX_REDIRECTS (same-origin-fetch.ts says why);
 * - an event whose data carries `error` is an `APIError` without a status.
 */

/**
 * node:https (TLS and crypto behind it) and node:zlib, loaded when first needed: a model on plain
 * HTTP (a local server) never needs TLS, and hardly any answer is compressed; loading them was a few
 * milliseconds of the path to the first request. A require, not `import()`: the bundle runs in a
 * node:vm script.
 */
const lazyRequire = createRequire(import.meta.url);
let httpsModule: typeof import('node:https') | undefined;
const https = (): typeof import('node:https') => {
  httpsModule ??= lazyRequire('node:https') as typeof import('node:https');
  return httpsModule;
};
const zlib = (): typeof import('node:zlib') => lazyRequire('node:zlib') as typeof import('node:zlib');

/** The keep-alive connections of one client; replaced whole when the client is rebuilt. */
export class ChatConnections {
  private readonly http = new HttpAgent({ keepAlive: true });
  private httpsAgent: HttpAgent | undefined;

  agentFor(url: URL): HttpAgent {
    if (url.protocol !== 'https:') return this.http;
    this.httpsAgent ??= new (https().Agent)({ keepAlive: true });
    return this.httpsAgent;
  }

  /** Closes the idle connections; requests under way finish on theirs. */
  closeIdle(): void {
    for (const agent of this.httpsAgent ? [this.http, this.httpsAgent] : [this.http])
      for (const sockets of Object.values(agent.freeSockets))
        for (const socket of sockets ?? []) socket.destroy();
  }
}

export interface ChatPost {
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The request body's bytes (UTF-8 JSON). */
  body: Buffer;
  signal: AbortSignal;
  /** How long the server may take to answer with its headers. */
  timeoutMs: number;
  connections: ChatConnections;
}

const MAX_REDIRECTS = 5;
const ERROR_BODY_MAX_BYTES = 1024 * 1024;

/**
 * Sends the request and waits for a 2xx answer; its events' parsed data follow as they arrive.
 * Throws the SDK's errors (see above).
 */
export async function postChatStream(post: ChatPost): Promise<AsyncIterable<unknown>> {
  if (post.signal.aborted) throw new SdkErrors.APIUserAbortError();
  const bytes = post.body;
  let url = new URL(post.url);
  const exchange = new Exchange(post.signal, post.timeoutMs);
  // The answer in hand: closed when it is not handed on (a Location that is no URL threw, and an
  // endless body held the connection open).
  let response: IncomingMessage | undefined;
  try {
    for (let hop = 0; ; hop++) {
      response = await exchange.send(url, post, bytes);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      const next = location === undefined ? null : new URL(location, url);
      if (
        (status === 307 || status === 308) &&
        next !== null &&
        next.origin === url.origin &&
        hop < MAX_REDIRECTS
      ) {
        response.destroy();
        url = next;
        continue;
      }
      if (status < 200 || status > 299) {
        const text = await boundedText(decoded(response));
        throw statusError(status, text, response);
      }
      exchange.answered();
      return events(response, post.signal);
    }
  } catch (error) {
    response?.destroy();
    throw exchange.failure(error);
  } finally {
    exchange.settle();
  }
}

/** The request under way, its timeout and the caller's abort, until the answer's headers are in. */
class Exchange {
  private current: ReturnType<typeof httpRequest> | null = null;
  private timedOut = false;
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = (): void => {
    this.current?.destroy();
  };

  constructor(
    private readonly signal: AbortSignal,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.current?.destroy();
    }, timeoutMs);
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  send(url: URL, post: ChatPost, bytes: Buffer): Promise<IncomingMessage> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return Promise.reject(new TypeError(`unsupported protocol in ${url.origin}`));
    if (this.signal.aborted || this.timedOut) return Promise.reject(new Error('request stopped'));
    return new Promise((resolve, reject) => {
      let request: ReturnType<typeof httpRequest>;
      try {
        request = (url.protocol === 'https:' ? https().request : httpRequest)(
          url,
          {
            method: 'POST',
            headers: { ...post.headers, 'content-length': String(bytes.length) },
            agent: post.connections.agentFor(url),
          },
          resolve,
        );
      } catch (error) {
        // A header name or value Node refuses (from the config): no retry will change it.
        reject(new ChatProviderError(`The request could not be sent: ${(error as Error).message}`));
        return;
      }
      this.current = request;
      request.on('error', reject);
      request.end(bytes);
    });
  }

  /** The headers are in: no timeout from now on, and the stream watches the signal itself. */
  answered(): void {
    this.settle();
  }

  settle(): void {
    clearTimeout(this.timer);
    this.signal.removeEventListener('abort', this.onAbort);
    this.current = null;
  }

  /** What to throw for a failure before a usable answer: the SDK's class for it. */
  failure(error: unknown): unknown {
    if (error instanceof SdkErrors.APIError || error instanceof ChatProviderError) return error;
    if (this.signal.aborted) return new SdkErrors.APIUserAbortError();
    if (this.timedOut) return new SdkErrors.APIConnectionTimeoutError();
    return new SdkErrors.APIConnectionError({
      cause: error instanceof Error ? error : new Error(String(error)),
    });
  }
}

/** The SDK's error for a non-2xx answer, with a body in another shape made readable. */
function statusError(
  status: number,
  text: string,
  response: IncomingMessage,
): InstanceType<typeof SdkErrors.APIError> {
  const message = serverMessage(text);
  const json = message !== null ? { error: { message } } : parseJson(text);
  return SdkErrors.APIError.generate(
    status,
    json,
    json === undefined ? text : undefined,
    webHeaders(response),
  );
}

function parseJson(text: string): object | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

function webHeaders(response: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/** The body with its content coding undone (a server may compress though none was asked for). */
function decoded(response: IncomingMessage): Readable {
  const coding = response.headers['content-encoding']?.trim().toLowerCase();
  const decoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? zlib().createGunzip()
      : coding === 'deflate'
        ? zlib().createInflate()
        : coding === 'br'
          ? zlib().createBrotliDecompress()
          : null;
  if (decoder === null) return response;
  response.on('error', (error) => decoder.destroy(error));
  decoder.on('close', () => response.destroy());
  return response.pipe(decoder);
}

/** At most ERROR_BODY_MAX_BYTES of an error body: a server may send one without end. */
async function boundedText(body: Readable): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let read = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const room = ERROR_BODY_MAX_BYTES - read;
      if (chunk.length >= room)
        return `${text}${decoder.decode(chunk.subarray(0, room))} [error body cut at 1 MiB]`;
      read += chunk.length;
      text += decoder.decode(chunk, { stream: true });
    }
    return text + decoder.decode();
  } catch (error) {
    // The SDK kept what it could not read as the error's words.
    return error instanceof Error ? error.message : String(error);
  } finally {
    body.destroy();
  }
}

/**
 * The parsed data of each event until the body ends (`[DONE]` ends the data; the rest is read so
 * the connection can be used again). An abort of `signal` ends it quietly, as the SDK's stream did;
 * leaving the loop early closes the connection.
 */
const NO_DATA = Symbol('no data');

async function* events(response: IncomingMessage, signal: AbortSignal): AsyncGenerator<unknown> {
  const body = decoded(response);
  const onAbort = (): void => {
    body.destroy();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  const decoder = new SseDecoder();
  let done = false;
  try {
    if (signal.aborted) return;
    body.setEncoding('utf8');
    // Each event's data: none for `[DONE]` and what follows it (read, so the connection can be reused).
    const dataOf = (event: ServerSentEvent): unknown => {
      if (done) return NO_DATA;
      if (event.data.startsWith('[DONE]')) {
        done = true;
        return NO_DATA;
      }
      const data: unknown = JSON.parse(event.data);
      if (typeof data === 'object' && data !== null && 'error' in data && data.error)
        throw new SdkErrors.APIError(undefined, data.error as object, undefined, webHeaders(response));
      return data;
    };
    for await (const text of body as AsyncIterable<string>)
      for (const event of decoder.push(text)) {
        const data = dataOf(event);
        if (data !== NO_DATA) yield data;
      }
    for (const event of decoder.finish()) {
      const data = dataOf(event);
      if (data !== NO_DATA) yield data;
    }
  } catch (error) {
    if (signal.aborted) return;
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (!response.complete) body.destroy();
  }
}
