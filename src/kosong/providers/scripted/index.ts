export { DIRECTIVE_KINDS, type DirectiveKind, parseScript } from './dsl.js';
export { EchoProvider } from './echo-provider.js';
export { loadScripts, splitScripts } from './load-scripts.js';
export { ScriptedProvider, type ScriptedProviderOptions } from './scripted-provider.js';
export {
  failureToError,
  ScriptError,
  type ScriptedFailure,
  type ScriptedTurn,
  turnFromParts,
} from './scripted-turn.js';
