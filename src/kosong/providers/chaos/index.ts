export {
  CHAOS_FAULT_KINDS,
  ChaosConfigError,
  type ChaosFault,
  type ChaosFaultKind,
  type ChaosOptions,
  type ChaosPlan,
  chaosOptionsFromEnv,
  isChaosFault,
  planChaos,
} from './chaos-options.js';
export { type ChaosOutcome, ChaosProvider } from './chaos-provider.js';
export { SeededRandom } from './seeded-random.js';
