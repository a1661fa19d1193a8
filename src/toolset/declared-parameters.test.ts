import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolOk } from '../kosong/index.js';
import { declareParameters, usePublishedParametersForTest } from './declared-parameters.js';
import { toolParametersSchema } from './loading/json-schema.js';
import { defineTool } from './tool-definition.js';

afterEach(() => usePublishedParametersForTest(undefined));

/** Parameters declared under a fresh key, with a count of how often their schema was built. */
function counted(key: string) {
  const built = { count: 0 };
  const parameters = declareParameters(key, () => {
    built.count++;
    return z.object({ path: z.string().describe('A path.'), limit: z.number().int().default(5) });
  });
  const tool = defineTool({
    name: key,
    description: 'd',
    params: parameters,
    effect: 'read-only',
    call: ({ path, limit }) => toolOk(`${path}:${limit}`),
  });
  return { built, parameters, tool };
}

describe('declared tool parameters', () => {
  it('build their zod schema on the first validation, once', () => {
    const { built, tool } = counted('FirstValidation');
    expect(built.count).toBe(0);
    expect(tool.parse({ path: 'a' })).toEqual({ ok: true, params: { path: 'a', limit: 5 } });
    expect(tool.parse({ limit: 1 }).ok).toBe(false);
    expect(built.count).toBe(1);
  });

  it('are offered as the published JSON Schema without building the zod schema', () => {
    const published = { type: 'object', properties: { path: { type: 'string' } } };
    usePublishedParametersForTest({ Published: published });
    const { built, tool } = counted('Published');
    expect(tool.parameters).toBe(published);
    expect(built.count).toBe(0);
  });

  it('are converted when first read where nothing was published for their key', () => {
    usePublishedParametersForTest({ SomeOtherTool: { type: 'object' } });
    const { built, parameters, tool } = counted('NotPublished');
    expect(tool.parameters).toEqual(toolParametersSchema(parameters.schema()));
    expect(tool.parameters).toMatchObject({
      properties: { path: { type: 'string', description: 'A path.' } },
    });
    expect(built.count).toBe(1);
  });

  it('cannot be declared twice under one key', () => {
    declareParameters('Twice', () => z.object({}));
    expect(() => declareParameters('Twice', () => z.object({}))).toThrow(/declared twice/);
  });

  it('leave a plain zod schema as it was: converted when first read', () => {
    usePublishedParametersForTest({ Plain: { type: 'object' } });
    const params = z.object({ q: z.string() });
    const tool = defineTool({
      name: 'Plain',
      description: 'd',
      params,
      effect: 'read-only',
      call: () => toolOk(''),
    });
    expect(tool.parameters).toEqual(toolParametersSchema(params));
  });
});
