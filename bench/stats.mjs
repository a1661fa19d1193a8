// Small numeric helpers shared by the benchmarks.

/** The middle value of `values` (the upper one of the two middles for an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
