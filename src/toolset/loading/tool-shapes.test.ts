import { describe, expect, it } from 'vitest';
import { isPlainlyFactory, isPlainlyTool, toolShapes } from './tool-shapes.js';

const tool = {
  name: 'Echo',
  description: 'Says it back.',
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  effect: 'read-only',
  parse: () => ({}),
  call: async () => ({}),
};
const factory = { dependencies: ['workDir'], create: () => tool };

const PROBES: unknown[] = [
  undefined,
  null,
  '',
  'Echo',
  'read-only',
  'network',
  'bogus',
  0,
  [],
  ['x'],
  [1],
  // A hole: zod reads it as undefined.
  Object.assign(new Array<string>(2), { 1: 'x' }),
  {},
  Object.create(null),
  { constructor: 1 },
  { [Symbol('s')]: 1 },
  new Date(0),
  () => {},
];

class ToolClass {
  readonly name = 'Classy';
  readonly description = 'A tool made by a class.';
  readonly parameters = { type: 'object' };
  readonly effect = 'read-only';
  parse(): unknown {
    return {};
  }
  async call(): Promise<unknown> {
    return {};
  }
}

describe('tool shapes by hand', () => {
  it('take tools and factories as written, objects of classes too', () => {
    expect(isPlainlyTool(tool)).toBe(true);
    expect(isPlainlyTool(new ToolClass())).toBe(true);
    expect(isPlainlyFactory(factory)).toBe(true);
    expect(isPlainlyFactory({ dependencies: [], create: async () => tool })).toBe(true);
  });

  it('never take what the schemas refuse, each field given each value', () => {
    const { toolShape, factoryShape } = toolShapes();
    let taken = 0;
    for (const [shape, isPlainly, valid] of [
      [toolShape, isPlainlyTool, tool],
      [factoryShape, isPlainlyFactory, factory],
    ] as const) {
      for (const value of PROBES) {
        for (const key of Object.keys(valid)) {
          const candidate = { ...valid, [key]: value };
          if (value === undefined) delete (candidate as Record<string, unknown>)[key];
          const byHand = isPlainly(candidate);
          if (byHand) {
            taken++;
            expect(shape.safeParse(candidate).success, `${key}: ${PROBES.indexOf(value)}`).toBe(true);
          }
        }
        if (isPlainly(value)) expect(shape.safeParse(value).success).toBe(true);
      }
    }
    expect(taken).toBeGreaterThan(10);
  });
});
