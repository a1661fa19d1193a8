import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildSpecFileSchema, plainSpecFile } from './agent-spec.js';

const schema = buildSpecFileSchema();

/** The fast path agrees with the schema: it declines what the schema rejects, and makes what it makes. */
function expectSameAsSchema(raw: unknown, mustAccept: boolean): void {
  const bySchema = schema.safeParse(raw);
  const plain = plainSpecFile(raw);
  if (!bySchema.success) {
    expect(plain, JSON.stringify(raw)).toBeUndefined();
    return;
  }
  if (mustAccept) expect(plain, JSON.stringify(raw)).toBeDefined();
  if (plain !== undefined) expect(plain).toStrictEqual(bySchema.data);
}

const BUILT_IN = ['agent', 'coder', 'explore', 'plan'].map(
  (name) => new URL(`../agents/default/${name}.yaml`, import.meta.url),
);

const PROBES: unknown[] = [
  null,
  true,
  0,
  1,
  2,
  '',
  'x',
  [],
  ['Shell'],
  [1],
  {},
  { a: 'b' },
  { a: 1 },
  { sub: { path: 'sub.yaml' } },
  { sub: { path: 'sub.yaml', description: 'd' } },
  { sub: { path: '' } },
  { sub: { path: 'sub.yaml', description: 3 } },
  { sub: 'sub.yaml' },
  new Date(0),
];

describe('plainSpecFile', () => {
  it('takes the built-in specs as their schema makes them', () => {
    for (const file of BUILT_IN) expectSameAsSchema(parse(readFileSync(file, 'utf8')), true);
  });

  it('agrees with the schema on each value of each key', () => {
    const agentKeys = Object.keys(schema.shape.agent.shape);
    for (const key of [...agentKeys, 'unknown_key']) {
      for (const value of PROBES) {
        const raw = { version: 1, agent: { system_prompt_path: 'system.md', [key]: value } };
        expectSameAsSchema(raw, !(value instanceof Date));
      }
    }
    for (const value of PROBES) expectSameAsSchema({ version: value, agent: {} }, true);
    for (const value of PROBES) expectSameAsSchema({ agent: value }, !(value instanceof Date));
  });

  it('leaves anything odd to the schema', () => {
    const declined = [
      null,
      [],
      'agent:',
      JSON.parse('{"agent": {"subagents": {"__proto__": {"path": "x.yaml"}}}}'),
      JSON.parse('{"agent": {"system_prompt_args": {"__proto__": "x"}}}'),
    ];
    for (const raw of declined) {
      expect(plainSpecFile(raw), JSON.stringify(raw)).toBeUndefined();
      expectSameAsSchema(raw, false);
    }
  });
});
