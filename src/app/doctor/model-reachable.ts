import type { ApiKeySource } from '../../config/api-key-source.js';
import type { ResolvedModel } from '../../config/resolve-model.js';
import { displayUrl } from '../../util/display-url.js';
import { check, type DoctorCheck } from './doctor-check.js';

const PROBE_TIMEOUT_MS = 5000;

/** Provider types that speak the OpenAI `GET /models` listing (a cheap, authenticated request). */
const LISTS_MODELS: ReadonlySet<string> = new Set(['kimi', 'openai_legacy', 'openai_responses']);

/**
 * A cheap request to the model's base URL with a short timeout: `GET /models` with the key for the
 * OpenAI-like APIs (a refused key shows as 401), a plain GET of the base URL for the others. The key
 * goes only to the configured base URL, where every request of a session goes too.
 */
export async function checkModelReachable(
  model: ResolvedModel,
  keySource: ApiKeySource,
  signal?: AbortSignal,
): Promise<DoctorCheck> {
  const listing = LISTS_MODELS.has(model.providerType);
  const url = listing ? `${model.baseUrl.replace(/\/+$/, '')}/models` : model.baseUrl;
  const shown = displayUrl(url);
  const headers: Record<string, string> = {};
  if (listing && model.apiKey !== '') headers.authorization = `Bearer ${model.apiKey}`;
  const started = Date.now();
  const timeout = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  try {
    const response = await fetch(url, {
      headers,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      redirect: 'manual',
    });
    await response.body?.cancel().catch(() => undefined);
    const took = `${Date.now() - started} ms`;
    if ((response.status === 401 || response.status === 403) && listing && keySource.kind !== 'login') {
      return check(
        'model reachable',
        'fail',
        `${shown} answered HTTP ${response.status}: the server refused the API key`,
      );
    }
    return check('model reachable', 'ok', `${shown} answered HTTP ${response.status} in ${took}`);
  } catch (error) {
    if (timeout.aborted) {
      return check('model reachable', 'fail', `${shown} did not answer within ${PROBE_TIMEOUT_MS / 1000} s`);
    }
    return check('model reachable', 'fail', `cannot reach ${shown}: ${networkProblem(error)}`);
  }
}

function networkProblem(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as NodeJS.ErrnoException | undefined) : undefined;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}
